import type { PublicListing } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import type { BlobStore } from '../../platform/blob/blob-store';
import type { GroupRow, GroupsRepository } from '../storage/groups.repository';
import type { ProjectRow, ProjectsRepository } from '../storage/projects.repository';
import { presentVersion, type StoragePresenter } from '../storage/storage.presenter';
import type { Version } from '@mixroom/contracts';
import type { VersionsRepository } from '../storage/versions.repository';
import type { SharingRepository } from './sharing.repository';
import type { ZipService } from '../storage/zip.service';
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';

const NOT_AVAILABLE = 'Oooops, nothing here!';

/**
 * What a visitor holding a public link sees: the shared folder's subtree (or the one project),
 * read-only, and nothing outside it. A revoked link answers like a missing one.
 */
export class PublicShareService {
  constructor(
    private readonly sharing: SharingRepository,
    private readonly groups: GroupsRepository,
    private readonly projects: ProjectsRepository,
    private readonly versions: VersionsRepository,
    private readonly presenter: StoragePresenter,
    private readonly blobs: BlobStore,
    private readonly signTtlSeconds: number,
    private readonly zip: ZipService,
  ) {}

  private async root(token: string): Promise<{ type: 'group'; row: GroupRow } | { type: 'project'; row: ProjectRow }> {
    const link = await this.sharing.linkByToken(token);
    if (!link || link.kind !== 'public' || !link.active) throw AppError.notFound(NOT_AVAILABLE);
    const row = link.resourceType === 'group' ? await this.groups.find(link.resourceId) : await this.projects.find(link.resourceId);
    if (!row || row.flag !== 'NONE' || (await this.groups.inTrash(row.path))) throw AppError.notFound(NOT_AVAILABLE);
    return link.resourceType === 'group' ? { type: 'group', row: row as GroupRow } : { type: 'project', row: row as ProjectRow };
  }

  async listing(token: string, folderId: string | undefined): Promise<PublicListing> {
    const root = await this.root(token);
    let files: ProjectRow[];
    let folders: GroupRow[] = [];
    let breadcrumb: { id: string; name: string }[] = [];
    if (root.type === 'project') {
      files = [root.row];
    } else {
      const folder = folderId ? await this.groups.find(folderId) : root.row;
      // Only inside the shared subtree.
      if (!folder || !folder.path.includes(root.row.id) || folder.flag !== 'NONE' || (await this.groups.inTrash(folder.path)))
        throw AppError.notFound(NOT_AVAILABLE);
      const filters = { sort: 'alphabetical' as const, owner: 'all' as const, kind: 'all' as const };
      [folders, files] = await Promise.all([
        this.groups.children(folder.id, 'alphabetical'),
        this.projects.children(folder.id, filters, '', { limit: 500, offset: 0 }),
      ]);
      breadcrumb = await this.groups.crumbs(folder.path.slice(folder.path.indexOf(root.row.id)));
    }
    const { latest } = await this.versions.latestOf(files.map((p) => p.id));
    const thumbnails = await this.presenter.thumbnails(latest.values());
    return {
      title: root.row.name,
      root: { type: root.type, id: root.row.id, name: root.row.name },
      breadcrumb,
      canDownload: true,
      items: [
        ...folders.map((g) => ({ kind: 'group' as const, id: g.id, name: g.name, updatedAt: g.updatedAt.toISOString(), size: null, latestVersion: null })),
        ...files.map((p) => {
          const v = latest.get(p.id);
          return {
            kind: 'project' as const,
            id: p.id,
            name: p.name,
            updatedAt: p.updatedAt.toISOString(),
            size: p.size,
            latestVersion: v ? pick(presentVersion(v, thumbnails.get(v.id) ?? null)) : null,
          };
        }),
      ],
    };
  }

  /** "Download all": a short-lived link to a ZIP of the shared folder (or the open sub-folder). */
  async prepareZip(token: string, folder: string | null): Promise<{ url: string }> {
    await this.listing(token, folder ?? undefined);
    return { url: this.zip.signPublic({ token, folder }) };
  }

  async streamZip(signed: string): Promise<{ body: Readable; size: number; fileName: string }> {
    const claims = this.zip.verifyPublic(signed);
    if (!claims) throw new AppError(403, 'SIGNATURE', 'This download link is invalid or has expired.');
    const root = await this.root(claims.token);
    // A sub-folder must still lie inside the shared one (listing refuses anything else).
    if (claims.folder) await this.listing(claims.token, claims.folder);
    const files = root.type === 'project' ? [{ id: root.row.id, folder: '' }] : await this.zip.subtreeFiles(claims.folder ?? root.row.id);
    return this.zip.streamEntries(await this.zip.entriesFor(files), null, randomUUID());
  }

  /** A signed URL for a version inside the shared subtree (download, or the preview to play). */
  async versionUrl(token: string, versionId: string, kind: 'download' | 'preview'): Promise<{ url: string }> {
    const root = await this.root(token);
    const version = await this.versions.find(versionId);
    const project = version ? await this.projects.find(version.projectId) : null;
    if (!version || !project || !project.path.includes(root.row.id) || project.flag !== 'NONE' || version.status === 'uploading')
      throw AppError.notFound(NOT_AVAILABLE);
    if (await this.groups.inTrash(project.path)) throw AppError.notFound(NOT_AVAILABLE);
    const key = kind === 'preview' ? (version.previewKey ?? version.blobKey) : version.blobKey;
    return {
      url: await this.blobs.signDownloadUrl(key, { expiresInSeconds: this.signTtlSeconds, ...(kind === 'download' ? { fileName: version.fileName } : {}) }),
    };
  }
}

/** The version fields a visitor sees (no processing internals). */
function pick(v: Version) {
  const { id, number, name, fileName, fileExtension, fileSize, status, durationSeconds, thumbnailUrl } = v;
  return { id, number, name, fileName, fileExtension, fileSize, status, durationSeconds, thumbnailUrl };
}
