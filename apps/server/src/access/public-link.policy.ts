import { DomainError } from '../platform/errors/domain-error';
import type { GroupRow, ProjectRow, VersionRow } from '../db/rows';
import type { ItemAccessRepository } from './item-access.repository';

export const PUBLIC_NOT_AVAILABLE = 'Oooops, nothing here!';

export type PublicRoot = { type: 'group'; row: GroupRow } | { type: 'project'; row: ProjectRow };

/**
 * What a visitor holding a public link may reach: the shared folder's live subtree (or the one
 * project), read-only; nothing outside it, nothing still uploading, nothing in the trash. A revoked
 * link, a missing item and anything outside the share all answer the same 404, so a token reveals
 * nothing about what it does not share. Originals leave only for projects whose downloads are on.
 * While the publisher's account is disabled, its links answer the same 404.
 */
export class PublicLinkPolicy {
  constructor(private readonly facts: ItemAccessRepository) {}

  async root(token: string): Promise<PublicRoot> {
    const link = await this.facts.shareLink(token);
    if (!link || link.kind !== 'public' || !link.active) throw DomainError.notFound(PUBLIC_NOT_AVAILABLE);
    const root = await this.liveRoot(link.resourceType, link.resourceId);
    // A disabled publisher's links rest with the account, and answer again once it is enabled.
    if (!(await this.facts.accountActive(root.row.publisherId))) throw DomainError.notFound(PUBLIC_NOT_AVAILABLE);
    return root;
  }

  /** Whether the item is shared by an active public link right now (a grant socket's re-check). */
  async isPublic(type: 'group' | 'project', id: string): Promise<boolean> {
    const token = await this.facts.activePublicLinkToken(type, id);
    if (!token) return false;
    return this.root(token).then(
      (root) => root.row.id === id,
      () => false,
    );
  }

  private async liveRoot(type: 'group' | 'project', id: string): Promise<PublicRoot> {
    if (type === 'group') {
      const found = await this.facts.folder(id);
      if (!found || found.trashed) throw DomainError.notFound(PUBLIC_NOT_AVAILABLE);
      return { type: 'group', row: found.row };
    }
    const found = await this.facts.project(id);
    if (!found || found.trashed || found.row.flag !== 'NONE') throw DomainError.notFound(PUBLIC_NOT_AVAILABLE);
    return { type: 'project', row: found.row };
  }

  /** A live folder inside the shared one (the shared folder itself when no id is given). */
  async folder(root: PublicRoot, folderId: string | undefined): Promise<GroupRow> {
    if (root.type !== 'group') throw DomainError.notFound(PUBLIC_NOT_AVAILABLE);
    if (!folderId) return root.row;
    const found = await this.facts.folder(folderId);
    if (!found || found.trashed || !found.row.path.includes(root.row.id))
      throw DomainError.notFound(PUBLIC_NOT_AVAILABLE);
    return found.row;
  }

  /** A finished version of a live project inside the share. */
  async version(
    root: PublicRoot,
    versionId: string,
    need: 'view' | 'download',
  ): Promise<{ version: VersionRow; project: ProjectRow }> {
    const version = await this.facts.version(versionId);
    const found = version ? await this.facts.project(version.projectId) : null;
    if (
      !version ||
      !found ||
      found.trashed ||
      found.row.flag !== 'NONE' ||
      version.status === 'uploading' ||
      !found.row.path.includes(root.row.id)
    )
      throw DomainError.notFound(PUBLIC_NOT_AVAILABLE);
    if (need === 'download' && !found.row.enableDownload)
      throw DomainError.forbidden('Downloads are not enabled for this project.');
    return { version, project: found.row };
  }
}
