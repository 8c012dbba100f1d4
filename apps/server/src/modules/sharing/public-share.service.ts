import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { PublicListing, Version } from '@mixroom/contracts';
import type { PublicLinkPolicy } from '../../access/public-link.policy';
import { AppError } from '../../http/app-error';
import type { VersionRow } from '../../db/rows';
import type { BlobStore } from '../../platform/blob/blob-store';
import type { PublicGrants } from '../../platform/realtime/public-grants';
import type { CatalogService } from '../storage';
import type { ZipService } from '../storage';

export interface PublicShareServiceDeps {
  links: PublicLinkPolicy;
  catalog: CatalogService;
  zip: ZipService;
  blobs: BlobStore;
  grants: PublicGrants;
  signTtlSeconds: number;
  /** A signed URL to what a player may stream (the lossy preview when downloads are off). */
  playback: (version: VersionRow, canDownload: boolean) => Promise<string>;
}

/**
 * What a visitor holding a public link sees: the shared folder's subtree (or the one project),
 * read-only, and nothing outside it. A revoked link answers like a missing one.
 */
export class PublicShareService {
  constructor(private readonly deps: PublicShareServiceDeps) {}

  /** A grant for the shared item's topic: live updates of the share for a signed-out visitor. */
  async realtimeGrant(token: string): Promise<{ grant: string; topic: string; expiresInSeconds: number }> {
    const root = await this.deps.links.root(token);
    return this.deps.grants.issue(`${root.type}:${root.row.id}`);
  }

  async listing(token: string, folderId: string | undefined): Promise<PublicListing> {
    const root = await this.deps.links.root(token);
    let folders: Awaited<ReturnType<CatalogService['folderContent']>>['folders'] = [];
    let files: Awaited<ReturnType<CatalogService['folderContent']>>['files'];
    let breadcrumb: { id: string; name: string }[] = [];
    if (root.type === 'project') {
      files = [root.row];
    } else {
      const folder = await this.deps.links.folder(root, folderId);
      ({ folders, files } = await this.deps.catalog.folderContent(folder.id));
      breadcrumb = await this.deps.catalog.crumbs(folder.path.slice(folder.path.indexOf(root.row.id)));
    }
    const latest = await this.deps.catalog.latestVersions(files.map((p) => p.id));
    return {
      title: root.row.name,
      root: { type: root.type, id: root.row.id, name: root.row.name },
      breadcrumb,
      canDownload: files.some((p) => p.enableDownload),
      items: [
        ...folders.map((g) => ({
          kind: 'group' as const,
          id: g.id,
          name: g.name,
          updatedAt: g.updatedAt.toISOString(),
          size: null,
          latestVersion: null,
        })),
        ...files.map((p) => {
          const v = latest.get(p.id);
          return {
            kind: 'project' as const,
            id: p.id,
            name: p.name,
            updatedAt: p.updatedAt.toISOString(),
            size: p.size,
            canDownload: p.enableDownload,
            latestVersion: v ? pick(v) : null,
          };
        }),
      ],
    };
  }

  /** "Download all": a short-lived link to a ZIP of the shared folder (or the open sub-folder). */
  async prepareZip(token: string, folder: string | null): Promise<{ url: string }> {
    const root = await this.deps.links.root(token);
    const files = await this.deps.zip.publicFiles(
      root,
      folder && root.type === 'group' ? (await this.deps.links.folder(root, folder)).id : null,
    );
    if (files.length === 0) throw AppError.forbidden('Downloads are not enabled for this project.');
    return { url: this.deps.zip.signPublic({ token, folder }) };
  }

  async streamZip(signed: string): Promise<{ body: Readable; size: number; fileName: string }> {
    const claims = this.deps.zip.verifyPublic(signed);
    if (!claims) throw new AppError(403, 'SIGNATURE', 'This download link is invalid or has expired.');
    // The link and the sub-folder are checked again now: a revoked link stops the download.
    const root = await this.deps.links.root(claims.token);
    const folder =
      claims.folder && root.type === 'group' ? (await this.deps.links.folder(root, claims.folder)).id : null;
    const files = await this.deps.zip.publicFiles(root, folder);
    return this.deps.zip.streamEntries(await this.deps.zip.entriesFor(files), null, randomUUID());
  }

  /**
   * A signed URL for a version inside the shared subtree: its original to download (only where the
   * project's downloads are on), or what the player streams.
   */
  async versionUrl(token: string, versionId: string, kind: 'download' | 'preview'): Promise<{ url: string }> {
    const root = await this.deps.links.root(token);
    const { version, project } = await this.deps.links.version(
      root,
      versionId,
      kind === 'download' ? 'download' : 'view',
    );
    if (kind === 'preview') return { url: await this.deps.playback(version, project.enableDownload) };
    return {
      url: await this.deps.blobs.signDownloadUrl(version.blobKey, {
        expiresInSeconds: this.deps.signTtlSeconds,
        fileName: version.fileName,
      }),
    };
  }
}

/** The version fields a visitor sees (no processing internals). */
function pick(v: Version) {
  const { id, number, name, fileName, fileExtension, fileSize, status, durationSeconds, thumbnailUrl } = v;
  return { id, number, name, fileName, fileExtension, fileSize, status, durationSeconds, thumbnailUrl };
}
