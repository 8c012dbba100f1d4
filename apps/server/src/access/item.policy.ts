import {
  groupCapabilities,
  projectCapabilities,
  STORAGE_MESSAGES,
  type Capabilities,
  type Role,
} from '@mixroom/shared';
import type { GroupRow, ProjectRow, VersionRow } from '../db/rows';
import { DomainError } from '../platform/errors/domain-error';
import type { Actor } from '../platform/identity/actor';
import type { AccessTarget, ItemAccessRepository } from './item-access.repository';

export const NOT_AUTHORIZED_GROUP = 'You are not authorized to access this group';
export const NOT_AUTHORIZED_PROJECT = 'You are not authorized to access this project';
export const DOWNLOADS_OFF = 'Downloads are not enabled for this project.';
export const MOVE_ACROSS_PUBLISHERS = 'Items can only be moved into folders of their own publisher.';

/** What an action on an item needs: see it, change it, or take its original bytes away. */
export type ItemNeed = 'view' | 'edit' | 'download' | 'manage';

export interface ResolvedFolder {
  group: GroupRow;
  role: Role;
  capabilities: Capabilities;
}
export interface ResolvedProject {
  project: ProjectRow;
  role: Role;
  capabilities: Capabilities;
}

function demand(capabilities: Capabilities, need: ItemNeed, downloadMessage: string): void {
  if (need === 'edit' && !capabilities.canEdit) throw DomainError.forbidden();
  if (need === 'manage' && !capabilities.canManageUsers) throw DomainError.forbidden('Only the publisher can do this.');
  if (need === 'download' && !capabilities.canDownload) throw DomainError.forbidden(downloadMessage);
}

/**
 * The policy of folders, projects and their versions: the one place that answers "may this actor
 * do this to this item?". Order of answers: a missing id is 404; an item the actor has no role on is
 * 403 (whether or not it is in the trash, so the trash state of others' items stays private); an
 * item in the trash (or under a trashed folder) is 404 'in the trash'; then the capability the
 * action needs. Capabilities come from the pure rules in @mixroom/shared, which the web receives
 * with every item instead of re-deriving them.
 */
export class ItemPolicy {
  constructor(private readonly facts: ItemAccessRepository) {}

  async folder(actor: Actor, id: string, need: ItemNeed = 'view'): Promise<ResolvedFolder> {
    const found = await this.facts.folder(id);
    if (!found) throw DomainError.notFound('This folder does not exist.');
    const role = await this.facts.roleFor(actor.userId, found.row);
    if (role === 'NONE') throw DomainError.forbidden(NOT_AUTHORIZED_GROUP);
    if (found.trashed) throw DomainError.notFound(STORAGE_MESSAGES.inTrash);
    const capabilities = groupCapabilities(role);
    demand(capabilities, need, DOWNLOADS_OFF);
    return { group: found.row, role, capabilities };
  }

  async project(actor: Actor, id: string, need: ItemNeed = 'view'): Promise<ResolvedProject> {
    const found = await this.facts.project(id);
    if (!found) throw DomainError.notFound('This project does not exist.');
    const role = await this.facts.roleFor(actor.userId, found.row);
    if (role === 'NONE') throw DomainError.forbidden(NOT_AUTHORIZED_PROJECT);
    if (found.trashed) throw DomainError.notFound(STORAGE_MESSAGES.inTrash);
    const capabilities = projectCapabilities(role, found.row.enableDownload);
    demand(capabilities, need, DOWNLOADS_OFF);
    return { project: found.row, role, capabilities };
  }

  /** A version is reached through its project: the same answers, with the version. */
  async version(
    actor: Actor,
    versionId: string,
    need: ItemNeed = 'view',
  ): Promise<ResolvedProject & { version: VersionRow }> {
    const version = await this.facts.version(versionId);
    if (!version) throw DomainError.notFound('No such version.');
    return { version, ...(await this.project(actor, version.projectId, need)) };
  }

  /** Whether the actor may see a live item; never throws (realtime topics, notifications). */
  async canSee(actor: Actor, kind: 'group' | 'project', id: string): Promise<boolean> {
    const found = kind === 'group' ? await this.facts.folder(id) : await this.facts.project(id);
    if (!found || found.trashed) return false;
    return (await this.facts.roleFor(actor.userId, found.row)) !== 'NONE';
  }

  /** An item as it is, whoever asks (join requests name what they ask for); null when missing. */
  async lookup(
    kind: 'group' | 'project',
    id: string,
  ): Promise<{ row: GroupRow | ProjectRow; trashed: boolean } | null> {
    return kind === 'group' ? this.facts.folder(id) : this.facts.project(id);
  }

  /** The actor's role on an item, NONE included (no throw). */
  role(actor: Actor, item: Omit<AccessTarget, 'id'>): Promise<Role> {
    return this.facts.roleFor(actor.userId, item);
  }

  /** Whether `code` is an active invitation to this item. */
  isInvitedBy(resourceId: string, code: string): Promise<boolean> {
    return this.facts.activeInviteFor(resourceId, code);
  }

  /** Everyone who may see an item (for notifications about it). */
  audience(item: Omit<AccessTarget, 'id'>): Promise<string[]> {
    return this.facts.audience(item);
  }

  /** Roles on many items at once, in one query. */
  roles(actor: Actor, items: AccessTarget[]): Promise<Map<string, Role>> {
    return this.facts.rolesFor(actor.userId, items);
  }

  childRoles(
    actor: Actor,
    parentRole: Role,
    children: { id: string; publisherId: string }[],
  ): Promise<Map<string, Role>> {
    return this.facts.childRoles(actor.userId, parentRole, children);
  }

  accessRoots(actor: Actor): Promise<string[]> {
    return this.facts.accessRoots(actor.userId);
  }

  /**
   * Where an item may be moved. Moving needs edit rights on the item (checked by the caller) and on
   * the destination, and never changes who owns the item or who may see it without its publisher's
   * say: the destination must be a folder of the item's own publisher, and only the publisher may
   * move it to the root. (Otherwise an editor could carry an owner's project into his own folder and
   * keep it after being removed.)
   */
  async moveTarget(actor: Actor, item: { publisherId: string }, folderId: string | null): Promise<GroupRow | null> {
    if (!folderId) {
      if (item.publisherId !== actor.userId)
        throw DomainError.forbidden('Only the publisher can move this item to the root.');
      return null;
    }
    const { group } = await this.folder(actor, folderId, 'edit');
    if (group.publisherId !== item.publisherId) throw DomainError.forbidden(MOVE_ACROSS_PUBLISHERS);
    return group;
  }
}
