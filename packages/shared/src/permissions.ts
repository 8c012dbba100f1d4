// Who may do what with folders and projects, once, as pure functions. The server decides with them; its
// responses carry the resulting capabilities so the web never re-derives a rule.

/** The actor's relation to an item: its publisher, or the strongest permission reaching it. */
export type Role = 'OWNER' | 'EDITOR' | 'VIEWER' | 'NONE';

const RANK: Record<Role, number> = { NONE: 0, VIEWER: 1, EDITOR: 2, OWNER: 3 };

export function strongestRole(...roles: Role[]): Role {
  return roles.reduce<Role>((best, role) => (RANK[role] > RANK[best] ? role : best), 'NONE');
}

/** The tag a tile shows: owner, editor, or viewer (also when there is no entry). */
export function roleTag(role: Role): 'owner' | 'editor' | 'viewer' {
  if (role === 'OWNER') return 'owner';
  if (role === 'EDITOR') return 'editor';
  return 'viewer';
}

export interface Capabilities {
  canView: boolean;
  /** Rename, move, colour, settings. */
  canEdit: boolean;
  /** Move to trash, recover, delete for good. */
  canDelete: boolean;
  /** Add items inside a group, or versions to a project. */
  canCreate: boolean;
  canDownload: boolean;
  canShare: boolean;
  /** Change permissions and remove users (publisher only). */
  canManageUsers: boolean;
}

export function groupCapabilities(role: Role): Capabilities {
  const edit = RANK[role] >= RANK.EDITOR;
  return {
    canView: role !== 'NONE',
    canEdit: edit,
    canDelete: edit,
    canCreate: edit,
    canDownload: role !== 'NONE',
    canShare: edit,
    canManageUsers: role === 'OWNER',
  };
}

/** Publisher and editors may do everything but manage users; anyone may download when allowed. */
export function projectCapabilities(role: Role, enableDownload: boolean): Capabilities {
  const edit = RANK[role] >= RANK.EDITOR;
  return {
    canView: role !== 'NONE',
    canEdit: edit,
    canDelete: edit,
    canCreate: edit,
    canDownload: edit || (role !== 'NONE' && enableDownload),
    canShare: edit,
    canManageUsers: role === 'OWNER',
  };
}
