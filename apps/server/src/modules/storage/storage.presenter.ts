import { groupCapabilities, projectCapabilities, roleTag, type Role } from '@mixroom/shared';
import type { GroupItem, ProjectItem, Version } from '@mixroom/contracts';
import type { BlobStore } from '../../platform/blob/blob-store';
import { presentDuration, presentLoudness, presentMedia } from './measurements.presenter';
import type { GroupRow } from './folders/groups.repository';
import type { ProjectRow } from './projects/projects.repository';
import type { VersionRow } from './projects/versions.repository';

type Person = { id: string; displayName: string; photoUrl: string | null };

/** Who people are, as the users module tells (its service, not its tables). */
export interface PeopleDirectory {
  findMany(ids: string[]): Promise<Person[]>;
  membersOf(resourceIds: string[]): Promise<(Person & { resourceId: string })[]>;
}
/** People by id; `collaborators` holds, per item, who was given it or a folder above it. */
type People = Map<string, Person> & { collaborators?: Map<string, Person[]> };

/** Tiles and the project view show at most this many collaborators. */
const COLLABORATORS_SHOWN = 8;

export function presentVersion(v: VersionRow, thumbnailUrl: string | null = null): Version {
  return {
    id: v.id,
    projectId: v.projectId,
    number: v.number,
    name: v.name,
    fileName: v.fileName,
    fileExtension: v.fileExtension,
    fileSize: v.fileSize,
    status: v.status,
    progress: v.progress,
    error: v.error,
    warning: v.warning,
    durationSeconds: presentDuration(v.durationSeconds),
    media: presentMedia(v.media),
    loudness: presentLoudness(v.loudness),
    hasThumbnail: Boolean(v.thumbnailKey),
    thumbnailUrl,
    approval: v.approval,
    createdAt: v.createdAt.toISOString(),
  };
}

/**
 * A thumbnail's signature for `now`, under the lifetime every signed URL has (`ttlSeconds`): signed
 * as of the start of the current window of half that lifetime and valid for the lifetime, so every
 * listing within a window hands out the byte-identical URL (a browser keeps each tile image instead
 * of fetching it again), while no URL outlives the others: one handed out to someone whose access
 * then ends (a removed collaborator, a revoked public link) stops answering within the lifetime.
 * A version's thumbnail never changes, so caching it for the window is safe.
 */
export function thumbnailSigning(
  now: Date,
  ttlSeconds: number,
): { signedAt: Date; expiresInSeconds: number; cacheSeconds: number } {
  const windowSeconds = Math.max(1, Math.floor(ttlSeconds / 2));
  const windowMs = windowSeconds * 1000;
  return {
    signedAt: new Date(Math.floor(now.getTime() / windowMs) * windowMs),
    expiresInSeconds: ttlSeconds,
    cacheSeconds: windowSeconds,
  };
}

export interface StoragePresenterDeps {
  users: PeopleDirectory;
  blobs: BlobStore;
  /** The lifetime of signed URLs (SIGNED_URL_TTL_SECONDS). */
  signedUrlTtlSeconds: number;
  now: () => Date;
}

/** Turns rows into the API's items, each with the actor's tag and capabilities. */
export class StoragePresenter {
  constructor(private readonly deps: StoragePresenterDeps) {}

  /** Signed thumbnail URLs of the latest versions shown in a listing, stable within a window. */
  async thumbnails(versions: Iterable<VersionRow>): Promise<Map<string, string>> {
    const signing = thumbnailSigning(this.deps.now(), this.deps.signedUrlTtlSeconds);
    const entries = await Promise.all(
      [...versions].flatMap((v) =>
        v.thumbnailKey
          ? [
              this.deps.blobs
                .signDownloadUrl(v.thumbnailKey, { ...signing, contentType: 'image/png' })
                .then((url) => [v.id, url] as const),
            ]
          : [],
      ),
    );
    return new Map(entries);
  }

  /**
   * The publishers behind `ids`, and for each of `items` its collaborators: access to a folder
   * reaches everything inside it, so members of any folder on an item's path count, nearest last.
   */
  async people(ids: string[], items: { id: string; path: string[]; publisherId: string }[] = []): Promise<People> {
    const [rows, members] = await Promise.all([
      this.deps.users.findMany(ids),
      this.deps.users.membersOf(items.flatMap((i) => i.path)),
    ]);
    const people: People = new Map(
      rows.map((u) => [u.id, { id: u.id, displayName: u.displayName, photoUrl: u.photoUrl }]),
    );
    if (items.length === 0) return people;
    const byResource = new Map<string, Person[]>();
    for (const { resourceId, ...person } of members)
      byResource.set(resourceId, [...(byResource.get(resourceId) ?? []), person]);
    people.collaborators = new Map(
      items.map((item) => {
        const seen = new Set([item.publisherId]);
        const list = item.path
          .flatMap((id) => byResource.get(id) ?? [])
          .filter((p) => !seen.has(p.id) && Boolean(seen.add(p.id)));
        return [item.id, list.slice(0, COLLABORATORS_SHOWN)];
      }),
    );
    return people;
  }

  group(row: GroupRow, role: Role, people: People): GroupItem {
    return {
      kind: 'group',
      id: row.id,
      name: row.name,
      parentId: row.parentId,
      color: row.color,
      flag: row.flag,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      publisher: people.get(row.publisherId) ?? { id: row.publisherId, displayName: 'Unknown', photoUrl: null },
      tag: roleTag(role),
      capabilities: groupCapabilities(role),
      ...(people.collaborators ? { collaborators: people.collaborators.get(row.id) ?? [] } : {}),
    };
  }

  project(
    row: ProjectRow,
    role: Role,
    people: People,
    latest: VersionRow | undefined,
    versionCount: number,
    thumbnails: Map<string, string> = new Map(),
  ): ProjectItem {
    return {
      kind: 'project',
      id: row.id,
      name: row.name,
      type: row.type,
      groupId: row.groupId,
      color: row.color,
      flag: row.flag,
      size: row.size,
      latestExtension: row.latestExtension,
      enableDownload: row.enableDownload,
      versionCount,
      latestVersion: latest ? presentVersion(latest, thumbnails.get(latest.id) ?? null) : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      publisher: people.get(row.publisherId) ?? { id: row.publisherId, displayName: 'Unknown', photoUrl: null },
      tag: roleTag(role),
      capabilities: projectCapabilities(role, row.enableDownload),
      ...(people.collaborators ? { collaborators: people.collaborators.get(row.id) ?? [] } : {}),
    };
  }
}
