import type { TransferWorld } from './authorization-transfers';

/**
 * The authorization matrix's table: every endpoint that reads or changes a group, project, version,
 * file, public link, credit or plan, and which actors may call it. Everyone else must be refused.
 */
export type Actor = 'publisher' | 'editor' | 'viewer' | 'nonMember' | 'anonymous' | 'admin' | 'revokedLink';
export const ACTORS: Actor[] = ['publisher', 'editor', 'viewer', 'nonMember', 'anonymous', 'admin', 'revokedLink'];

export interface World {
  folder: string;
  outside: string;
  sub: string;
  /** A sub-folder of the shared folder, in the (publisher's) trash. */
  trashed: string;
  project: string;
  version: string;
  /** A second version of the project, and a version in the publisher's folder nobody else sees. */
  otherVersion: string;
  outsideVersion: string;
  viewerId: string;
  comment: string;
  attachment: string;
  activeToken: string;
  revokedToken: string;
  /** A plan grant of the viewer's, made by the administrator. */
  grantId: string;
  /** The publisher's transfers (see authorization-transfers.ts). */
  transfer: TransferWorld;
}

export interface Row {
  name: string;
  method: string;
  path: (w: World, actor: Actor) => string;
  body?: (w: World) => unknown;
  /** Actors allowed; everyone else must get 401, 403 or 404. */
  allow: Actor[];
  /** Puts things back after an allowed change, so every actor meets the same state. */
  reset?: (w: World, actor?: Actor) => Promise<void>;
}

export const MEMBERS: Actor[] = ['publisher', 'editor', 'viewer'];
export const EDITORS: Actor[] = ['publisher', 'editor'];
/** Anyone signed in: account endpoints act on the caller's own account, so no one reaches another's. */
export const SIGNED_IN: Actor[] = ['publisher', 'editor', 'viewer', 'nonMember', 'admin'];
export const EVERYONE_WITH_LINK: Actor[] = ['publisher', 'editor', 'viewer', 'nonMember', 'anonymous', 'admin'];

/** The rows; `recover`, `attach` and `bin` put the world back after allowed changes. */
export function matrixTable({
  recover,
  attach,
  bin,
}: {
  recover: (w: World) => Promise<void>;
  attach: (w: World) => Promise<string>;
  /** A fresh sub-folder of the shared folder, moved to the trash. */
  bin: (w: World) => Promise<string>;
}): Row[] {
  return [
    { name: 'list a folder', method: 'GET', path: (w) => `/api/groups/${w.folder}/items`, allow: MEMBERS },
    { name: 'open a project', method: 'GET', path: (w) => `/api/projects/${w.project}`, allow: MEMBERS },
    { name: 'version thumbnail', method: 'GET', path: (w) => `/api/versions/${w.version}/thumbnail`, allow: MEMBERS },
    { name: 'version peaks', method: 'GET', path: (w) => `/api/versions/${w.version}/peaks`, allow: MEMBERS },
    {
      name: 'download a version (downloads off)',
      method: 'GET',
      path: (w) => `/api/versions/${w.version}/download`,
      allow: EDITORS,
    },
    {
      // Downloads are off for the world's project: a viewer's archive would hold nothing, and says why.
      name: 'ZIP of the folder',
      method: 'POST',
      path: () => '/api/downloads/zip',
      body: (w) => ({ items: [{ kind: 'group', id: w.folder }] }),
      allow: EDITORS,
    },
    {
      name: 'create a folder inside',
      method: 'POST',
      path: () => '/api/groups',
      body: (w) => ({ name: 'Inside', parentId: w.folder }),
      allow: EDITORS,
    },
    {
      name: 'rename a sub-folder',
      method: 'PATCH',
      path: (w) => `/api/groups/${w.sub}`,
      body: () => ({ name: 'Sub' }),
      allow: EDITORS,
    },
    {
      name: 'project settings',
      method: 'PATCH',
      path: (w) => `/api/projects/${w.project}`,
      body: () => ({ name: 'Mix' }),
      allow: EDITORS,
    },
    {
      name: 'start a new version',
      method: 'POST',
      path: (w) => `/api/projects/${w.project}/versions`,
      body: () => ({ name: 'v', fileName: 'v.wav', size: 10 }),
      allow: EDITORS,
    },
    {
      name: 'rename a version',
      method: 'PATCH',
      path: (w) => `/api/versions/${w.version}`,
      body: () => ({ name: 'Mix' }),
      allow: EDITORS,
    },
    {
      name: 'upload into the folder',
      method: 'POST',
      path: () => '/api/projects/upload',
      body: (w) => ({ groupId: w.folder, fileName: 'x.wav', size: 10 }),
      allow: EDITORS,
    },
    {
      name: 'move a sub-folder to trash',
      method: 'POST',
      path: () => '/api/items/trash',
      body: (w) => ({ items: [{ kind: 'group', id: w.sub }] }),
      allow: EDITORS,
      reset: recover,
    },
    {
      // An editor's delete lands in the publisher's trash; only the publisher makes it gone for good.
      name: 'delete a trashed sub-folder for good',
      method: 'POST',
      path: () => '/api/items/delete',
      body: (w) => ({ items: [{ kind: 'group', id: w.trashed }] }),
      allow: ['publisher'],
      reset: async (w) => void (w.trashed = await bin(w)),
    },
    { name: 'share info', method: 'GET', path: (w) => `/api/share/group/${w.folder}`, allow: MEMBERS },
    {
      // A public link changes who sees the item: the publisher's call, not an editor's.
      name: 'toggle the public link',
      method: 'PUT',
      path: (w) => `/api/share/group/${w.folder}/public-link`,
      body: () => ({ isActive: true }),
      allow: ['publisher'],
    },
    {
      name: "toggle a project's public link",
      method: 'PUT',
      path: (w) => `/api/share/project/${w.project}/public-link`,
      body: () => ({ isActive: false }),
      allow: ['publisher'],
    },
    {
      name: 'change a permission',
      method: 'PUT',
      path: (w) => `/api/share/group/${w.folder}/users/${w.viewerId}`,
      body: () => ({ permission: 'VIEWER' }),
      allow: ['publisher'],
    },
    {
      name: 'list the root',
      method: 'GET',
      path: () => '/api/groups/root/items',
      allow: ['publisher', 'editor', 'viewer', 'nonMember', 'admin'],
    },
    { name: 'list comments', method: 'GET', path: (w) => `/api/versions/${w.version}/comments`, allow: MEMBERS },
    {
      name: 'comment on a version',
      method: 'POST',
      path: (w) => `/api/versions/${w.version}/comments`,
      body: () => ({ type: 'timestamp', startTime: 0.5, text: 'Nice' }),
      allow: MEMBERS,
    },
    {
      name: 'reply to a comment',
      method: 'POST',
      path: (w) => `/api/comments/${w.comment}/replies`,
      body: () => ({ text: 'Agreed' }),
      allow: MEMBERS,
    },
    {
      name: "edit the publisher's comment",
      method: 'PATCH',
      path: (w) => `/api/comments/${w.comment}`,
      body: () => ({ text: 'Edited' }),
      allow: ['publisher'],
    },
    {
      name: 'public link listing',
      method: 'GET',
      path: (w, actor) => `/api/public/share?token=${actor === 'revokedLink' ? w.revokedToken : w.activeToken}`,
      allow: EVERYONE_WITH_LINK,
    },
    {
      // Downloads are off for the world's project: nobody takes the original through a link.
      name: 'public link download (downloads off)',
      method: 'GET',
      path: (w, actor) =>
        `/api/public/versions/${w.version}/download?token=${actor === 'revokedLink' ? w.revokedToken : w.activeToken}`,
      allow: [],
    },
    {
      name: 'public link playback',
      method: 'GET',
      path: (w, actor) =>
        `/api/public/versions/${w.version}/preview?token=${actor === 'revokedLink' ? w.revokedToken : w.activeToken}`,
      allow: EVERYONE_WITH_LINK,
    },
    {
      name: 'export comments as DAW markers',
      method: 'GET',
      path: (w) => `/api/versions/${w.version}/markers?format=midi`,
      allow: MEMBERS,
    },
    {
      // The world's comment is the publisher's: its author and editors may resolve it.
      name: 'resolve a comment',
      method: 'PUT',
      path: (w) => `/api/comments/${w.comment}/resolved`,
      body: () => ({ resolved: false }),
      allow: EDITORS,
    },
    {
      name: 'set a version verdict',
      method: 'PUT',
      path: (w) => `/api/versions/${w.version}/approval`,
      body: () => ({ approval: 'none' }),
      allow: EDITORS,
    },
    {
      name: 'what changed between two versions',
      method: 'GET',
      path: (w) => `/api/versions/${w.version}/difference?with=${w.otherVersion}`,
      allow: MEMBERS,
    },
    {
      // A reference track the actor can't see must not be compared with, nor told apart from a missing one.
      name: 'what changed against a version outside what the actor sees',
      method: 'GET',
      path: (w) => `/api/versions/${w.version}/difference?with=${w.outsideVersion}`,
      allow: ['publisher'],
    },
    { name: 'read version notes', method: 'GET', path: (w) => `/api/versions/${w.version}/note`, allow: MEMBERS },
    {
      name: 'save version notes',
      method: 'PUT',
      path: (w) => `/api/versions/${w.version}/note`,
      body: () => ({ html: '<p>Notes</p>' }),
      allow: EDITORS,
    },
    {
      name: 'export notes as PDF',
      method: 'POST',
      path: (w) => `/api/versions/${w.version}/note/pdf`,
      body: () => ({ html: '<p>Notes</p>' }),
      allow: MEMBERS,
    },
    { name: 'stream a version', method: 'GET', path: (w) => `/api/versions/${w.version}/stream`, allow: MEMBERS },
    {
      name: 'version spectrogram',
      method: 'GET',
      path: (w) => `/api/versions/${w.version}/spectrogram`,
      allow: MEMBERS,
    },
    { name: 'list attachments', method: 'GET', path: (w) => `/api/projects/${w.project}/attachments`, allow: MEMBERS },
    {
      name: 'start an attachment',
      method: 'POST',
      path: (w) => `/api/projects/${w.project}/attachments`,
      body: () => ({ fileName: 'Lyrics.txt', size: 10 }),
      allow: EDITORS,
    },
    {
      name: 'delete an attachment',
      method: 'DELETE',
      path: (w) => `/api/attachments/${w.attachment}`,
      allow: EDITORS,
      reset: async (w) => void (w.attachment = await attach(w)),
    },
    // Last: it deletes the comment the rows above use.
    {
      name: "delete the publisher's comment",
      method: 'DELETE',
      path: (w) => `/api/comments/${w.comment}`,
      allow: ['publisher'],
    },
    {
      name: 'public link: a folder outside the shared one',
      method: 'GET',
      path: (w, actor) =>
        `/api/public/share?token=${actor === 'revokedLink' ? w.revokedToken : w.activeToken}&folder=${w.outside}`,
      allow: [],
    },
    // Credits: everyone signed in reads their own ledger (the path names no user); another user's
    // ledger and adjustments are for administrators.
    {
      name: 'my credits',
      method: 'GET',
      path: () => '/api/credits',
      allow: ['publisher', 'editor', 'viewer', 'nonMember', 'admin'],
    },
    {
      name: "another user's credits",
      method: 'GET',
      path: (w) => `/api/admin/users/${w.viewerId}/credits`,
      allow: ['admin'],
    },
    {
      name: "adjust a user's credits",
      method: 'POST',
      path: (w) => `/api/admin/users/${w.viewerId}/credits`,
      body: () => ({ amount: 1, reason: 'Matrix' }),
      allow: ['admin'],
    },
    // The admin area: only administrators reach it, and only they see another user's private data.
    // Changes are chosen so that repeating them leaves the world as it was.
    { name: 'list all users', method: 'GET', path: () => '/api/admin/users?search=matrix', allow: ['admin'] },
    {
      name: "another user's private data and usage",
      method: 'GET',
      path: (w) => `/api/admin/users/${w.viewerId}`,
      allow: ['admin'],
    },
    {
      name: 'grant a plan until a date',
      method: 'POST',
      path: (w) => `/api/admin/users/${w.viewerId}/plans`,
      body: () => ({ sku: 'ESSENTIAL', endsAt: new Date(Date.now() + 86_400_000).toISOString() }),
      allow: ['admin'],
    },
    {
      name: 'revoke a plan',
      method: 'DELETE',
      path: (w) => `/api/admin/users/${w.viewerId}/plans/${w.grantId}`,
      allow: ['admin'],
    },
    {
      name: 'set canBroadcast',
      method: 'PATCH',
      path: (w) => `/api/admin/users/${w.viewerId}/flags`,
      body: () => ({ canBroadcast: false }),
      allow: ['admin'],
    },
    {
      // Taking a flag the viewer doesn't have: the path is reached, nothing changes.
      name: 'take the administrator flag',
      method: 'PATCH',
      path: (w) => `/api/admin/users/${w.viewerId}/flags`,
      body: () => ({ isAdmin: false }),
      allow: ['admin'],
    },
    {
      name: 'enable an account',
      method: 'PUT',
      path: (w) => `/api/admin/users/${w.viewerId}/status`,
      body: () => ({ disabled: false }),
      allow: ['admin'],
    },
    { name: 'the audit log', method: 'GET', path: () => '/api/admin/audit', allow: ['admin'] },
    { name: 'the server overview', method: 'GET', path: () => '/api/admin/overview', allow: ['admin'] },
    // The signed-in user's own account: every path is /api/me…, so an actor only ever reaches their own.
    {
      name: 'change my display name',
      method: 'PATCH',
      path: () => '/api/me',
      body: () => ({ displayName: 'Matrix' }),
      allow: SIGNED_IN,
    },
    { name: 'my notification channels', method: 'GET', path: () => '/api/me/notifications', allow: SIGNED_IN },
    {
      name: 'choose my notification channels',
      method: 'PUT',
      path: () => '/api/me/notifications',
      body: () => ({ email: true, push: true, inApp: true }),
      allow: SIGNED_IN,
    },
    { name: 'my data archives', method: 'GET', path: () => '/api/me/exports', allow: SIGNED_IN },
    { name: 'remove my profile picture', method: 'DELETE', path: () => '/api/me/photo', allow: SIGNED_IN },
    // An archive's link is its only key: without a valid signature nobody, signed in or not, gets it.
    {
      name: 'a data archive without its signed link',
      method: 'GET',
      path: (w) => `/api/exports/${w.viewerId}/download?token=forged-token-0123456789`,
      allow: [],
    },
    // The shop's webhook takes a signature over the body, never a session: unsigned, nobody gets in.
    {
      name: 'billing webhook without a signature',
      method: 'POST',
      path: () => '/api/billing/webhook',
      body: (w) => ({
        id: 'evt_matrix',
        type: 'subscription.created',
        data: { subscriptionId: 'sub_matrix', userId: w.viewerId, sku: 'STUDIO' },
      }),
      allow: [],
    },
  ];
}
