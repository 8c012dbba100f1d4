import { randomUUID } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { projectCapabilities } from '@mixroom/shared';
import type { ItemPolicy } from '../../../access/item.policy';
import type { ProjectRow } from '../../../db/rows';
import { AppError } from '../../../http/app-error';
import { storedZip, storedZipSize, type StoredZipEntry } from '../../../platform/archive/stored-zip';
import type { BlobStore } from '../../../platform/blob/blob-store';
import type { Clock } from '../../../platform/clock/clock';
import type { Actor } from '../../../platform/identity/actor';
import type { EventBus } from '../../../platform/realtime/event-bus';
import type { TokenSigner } from '../../../platform/secrets/token-signer';
import type { ProjectsRepository } from '../projects/projects.repository';
import type { VersionsRepository } from '../projects/versions.repository';

export interface ZipServiceDeps {
  policy: ItemPolicy;
  projects: ProjectsRepository;
  versions: VersionsRepository;
  blobs: BlobStore;
  bus: EventBus;
  tokens: TokenSigner;
  clock: Clock;
  /** The account behind a ZIP link, as it is now (null once disabled or deleted). */
  actorOf: (userId: string) => Promise<Actor | null>;
}

/** A project in an archive, under the folders between the archived item and it. */
export interface ZipFileRef {
  project: ProjectRow;
  folders: string[];
}

type Ref = { kind: 'group' | 'project'; id: string };
/** One file of an archive: a blob, or (with `open`) bytes another feature produces when the entry is reached. */
export interface ZipEntry {
  path: string;
  blobKey: string;
  size: number;
  mtime: Date;
  open?: () => Promise<Readable>;
}
type Entry = ZipEntry;
interface ZipClaims {
  userId: string;
  downloadId: string;
  items: Ref[];
}

const PROGRESS_MS = 500;
const DOWNLOADS_OFF_HERE = 'Downloads are not enabled for the projects here.';
const NOTHING_HERE = 'There is nothing to download here.';
const FILE_UNREADABLE = 'A file in this folder could not be read, so nothing was saved. Try again later.';
const TOKEN_TTL_SECONDS = 300;

/** Names inside one folder of the archive stay unique, whatever their case: "Mix.wav", "Mix (2).wav". */
export function uniquePath(taken: Set<string>, path: string): string {
  let candidate = path;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++)
    candidate = path.replace(/(\.[^./]*)?$/, (ext) => ` (${n})${ext}`);
  taken.add(candidate.toLowerCase());
  return candidate;
}
/**
 * A name safe as one path segment in any unzip tool: no separators, controls, bidi marks, and no
 * segment of dots and spaces only (". ." would read as a parent folder to some tools); names stored
 * before the name rule refused them still reach archives, so the archive cleans them too.
 */
export const safeName = (name: string) => {
  const cleaned = name.replace(/[/\\:*?"<>|\p{Cc}\p{Cf}]/gu, '_').trim();
  if (cleaned === '') return 'untitled';
  return /^[.\s]+$/.test(cleaned) ? `${cleaned.replace(/[.\s]/g, '_')}_` : cleaned;
};

/** A folder as one stored ZIP for another feature: its name, the archive's exact length, and its bytes. */
export interface FolderArchive {
  folderName: string;
  size: number;
  open: () => Readable;
  /**
   * Checks every file is stored at its recorded length, so a copy can refuse before its first byte
   * reaches a place that would keep a cut archive (409 FILE_UNREADABLE otherwise).
   */
  verify: () => Promise<void>;
}

/**
 * A selection or a folder as one ZIP, streamed from the blob store to the browser: entries are
 * stored (audio does not compress) so the exact size is known up front, nothing is copied to a
 * temporary file, and progress goes to the user's realtime topic every 500 ms.
 */
export class ZipService {
  constructor(private readonly deps: ZipServiceDeps) {}

  /** Checks access now and returns a short-lived link the browser downloads natively. */
  async prepare(actor: Actor, items: Ref[]): Promise<{ url: string; downloadId: string; fileName: string }> {
    await this.files(actor, items);
    const downloadId = randomUUID();
    const token = this.deps.tokens.sign(
      'zip',
      { userId: actor.userId, downloadId, items } satisfies ZipClaims,
      TOKEN_TTL_SECONDS,
    );
    return {
      url: `/api/downloads/zip?t=${token}`,
      downloadId,
      fileName: `Mixroom-${this.deps.clock.now().toISOString().slice(0, 10)}.zip`,
    };
  }

  /**
   * What the actor may take away from a selection: a project needs download rights (a refusal
   * names it); a folder gives every project below it that the actor may download, and leaves out
   * the others (downloads off) rather than failing the whole archive.
   */
  private async files(actor: Actor, items: Ref[]): Promise<ZipFileRef[]> {
    const files: ZipFileRef[] = [];
    for (const item of items) {
      if (item.kind === 'project') {
        const { project } = await this.deps.policy.project(actor, item.id, 'download');
        files.push({ project, folders: [] });
      } else {
        const { group } = await this.deps.policy.folder(actor, item.id);
        const below = await this.deps.projects.subtreeFiles(group.id);
        files.push(...below);
      }
    }
    const roles = await this.deps.policy.roles(
      actor,
      files.map((f) => f.project),
    );
    const allowed = files.filter(
      (f) => projectCapabilities(roles.get(f.project.id) ?? 'NONE', f.project.enableDownload).canDownload,
    );
    // Say why an archive would be empty: everything in it has downloads off for this actor.
    if (allowed.length === 0 && files.length > 0) throw AppError.forbidden(DOWNLOADS_OFF_HERE);
    return allowed;
  }

  /**
   * A folder as one archive for the actor (a linked account's "Save to…"): the projects below it the
   * actor may download, under the same rules and refusals as the browser's ZIP of the folder.
   */
  async folderArchive(actor: Actor, groupId: string): Promise<FolderArchive> {
    const { group } = await this.deps.policy.folder(actor, groupId);
    const entries = await this.entriesFor(await this.files(actor, [{ kind: 'group', id: groupId }]));
    if (entries.length === 0) throw AppError.notFound(NOTHING_HERE);
    const files = this.zipFiles(entries);
    // Every entry here is a version's blob (entriesFor makes no others).
    const verify = async () => {
      for (const entry of entries)
        if ((await this.deps.blobs.head(entry.blobKey))?.size !== entry.size)
          throw new AppError(409, 'FILE_UNREADABLE', FILE_UNREADABLE);
    };
    return { folderName: group.name, size: storedZipSize(files), open: () => storedZip(files), verify };
  }

  private zipFiles(entries: Entry[]): StoredZipEntry[] {
    return entries.map((entry) => ({
      path: entry.path,
      size: entry.size,
      mtime: entry.mtime,
      open: entry.open ?? (() => this.deps.blobs.get(entry.blobKey)),
    }));
  }

  /** What a public link's visitor may take: projects whose downloads are on, and nothing else. */
  async publicFiles(
    root: { type: 'group' | 'project'; row: { id: string; name: string } },
    folderId: string | null,
  ): Promise<ZipFileRef[]> {
    if (root.type === 'project') {
      const [project] = await this.deps.projects.findMany([root.row.id]);
      return project?.enableDownload ? [{ project, folders: [] }] : [];
    }
    const files = await this.deps.projects.subtreeFiles(folderId ?? root.row.id);
    return files.filter((f) => f.project.enableDownload);
  }

  /** Archive entries for projects, each as its latest version's original file. */
  async entriesFor(files: ZipFileRef[]): Promise<Entry[]> {
    const taken = new Set<string>();
    const entries: Entry[] = [];
    const { latest } = await this.deps.versions.latestOf(files.map((f) => f.project.id));
    for (const { project, folders } of files) {
      const version = latest.get(project.id);
      if (!version || version.status === 'uploading') continue;
      const extension = version.fileExtension ? `.${version.fileExtension}` : '';
      const folder = folders.map(safeName).join('/');
      entries.push({
        path: uniquePath(taken, `${folder ? `${folder}/` : ''}${safeName(project.name)}${extension}`),
        blobKey: version.blobKey,
        size: version.fileSize,
        mtime: version.createdAt,
      });
    }
    return entries;
  }

  signPublic(payload: { token: string; folder: string | null }): string {
    return `/api/public/zip?t=${this.deps.tokens.sign('public-zip', payload, TOKEN_TTL_SECONDS)}`;
  }

  verifyPublic(token: string): { token: string; folder: string | null } | null {
    return this.deps.tokens.verify('public-zip', token);
  }

  async stream(token: string): Promise<{ body: Readable; size: number; fileName: string }> {
    const claims = this.deps.tokens.verify<ZipClaims>('zip', token);
    if (!claims) throw new AppError(403, 'SIGNATURE', 'This download link is invalid or has expired.');
    // Access is decided again now, for the account as it is now.
    const actor = await this.deps.actorOf(claims.userId);
    if (!actor) throw AppError.forbidden('This download link is invalid or has expired.');
    const entries = await this.entriesFor(await this.files(actor, claims.items));
    return this.streamEntries(entries, `user:${claims.userId}`, claims.downloadId);
  }

  /** Streams entries as a stored ZIP; progress goes to `topic` (when there is a user to tell). */
  async streamEntries(
    entries: Entry[],
    topic: string | null,
    downloadId: string,
  ): Promise<{ body: Readable; size: number; fileName: string }> {
    if (entries.length === 0) throw AppError.notFound(NOTHING_HERE);

    const files = this.zipFiles(entries);
    const size = storedZipSize(files);

    let sent = 0;
    const publish = (percent: number) =>
      topic
        ? this.deps.bus.publishOrLog({ topic, type: 'download.progress', data: { downloadId, percent } })
        : Promise.resolve();
    const timer = setInterval(() => void publish(Math.floor((sent / size) * 100)), PROGRESS_MS);
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        sent += chunk.length;
        callback(null, chunk);
      },
      flush(callback) {
        clearInterval(timer);
        void publish(100);
        callback();
      },
    });
    counter.on('close', () => clearInterval(timer));
    // A file that can't be read (or is shorter than recorded) ends this download with an error, not a
    // stalled response nor the process; a response closed early stops the archive's reads too.
    return {
      body: pipeline(storedZip(files), counter, () => clearInterval(timer)),
      size,
      fileName: `Mixroom-${this.deps.clock.now().toISOString().slice(0, 10)}.zip`,
    };
  }
}
