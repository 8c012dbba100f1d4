import { randomUUID } from 'node:crypto';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import { projectCapabilities } from '@mixroom/shared';
import type { ItemAccessRepository } from '../../access/item-access.repository';
import type { Db } from '../../db/database';
import { groups, projects } from '../../db/schema';
import { uuidArray } from '../../db/sql';
import { AppError } from '../../http/app-error';
import type { BlobStore } from '../../platform/blob/blob-store';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { TokenSigner } from '../../platform/secrets/token-signer';
import type { Actor } from '../users/users.service';
import type { GroupsService } from './groups.service';
import type { ProjectsService } from './projects.service';
import type { VersionsRepository } from './versions.repository';

type Ref = { kind: 'group' | 'project'; id: string };
interface Entry {
  path: string;
  blobKey: string;
  size: number;
  mtime: Date;
}
interface ZipClaims {
  userId: string;
  downloadId: string;
  items: Ref[];
}

const PROGRESS_MS = 500;
const TOKEN_TTL_SECONDS = 300;

/** Names inside one folder of the archive stay unique: "Mix.wav", "Mix (2).wav". */
function uniquePath(taken: Set<string>, path: string): string {
  let candidate = path;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = path.replace(/(\.[^./]*)?$/, (ext) => ` (${n})${ext}`);
  taken.add(candidate.toLowerCase());
  return candidate;
}
const safeName = (name: string) => name.replace(/[/\\:*?"<>|\p{Cc}]/gu, '_').trim() || 'untitled';

/**
 * A selection or a folder as one ZIP, streamed from the blob store to the browser: entries are
 * stored (audio does not compress) so the exact size is known up front, nothing is copied to a
 * temporary file, and progress goes to the user's realtime topic every 500 ms.
 */
export class ZipService {
  constructor(
    private readonly db: Db,
    private readonly groupsService: GroupsService,
    private readonly projectsService: ProjectsService,
    private readonly versions: VersionsRepository,
    private readonly access: ItemAccessRepository,
    private readonly blobs: BlobStore,
    private readonly bus: EventBus,
    private readonly tokens: TokenSigner,
  ) {}

  /** Checks access now and returns a short-lived link the browser downloads natively. */
  async prepare(actor: Actor, items: Ref[]): Promise<{ url: string; downloadId: string; fileName: string }> {
    for (const item of items) {
      if (item.kind === 'group') await this.groupsService.resolve(actor, item.id);
      else await this.projectsService.resolve(actor, item.id, 'download');
    }
    const downloadId = randomUUID();
    const token = this.tokens.sign('zip', { userId: actor.userId, downloadId, items } satisfies ZipClaims, TOKEN_TTL_SECONDS);
    return { url: `/api/downloads/zip?t=${token}`, downloadId, fileName: `Mixroom-${new Date().toISOString().slice(0, 10)}.zip` };
  }

  /** Entries of the archive; the claims are re-checked against current access. */
  private async entries(actor: Actor, items: Ref[]): Promise<Entry[]> {
    const files: { id: string; folder: string }[] = [];
    for (const item of items) {
      if (item.kind === 'project') {
        await this.projectsService.resolve(actor, item.id, 'download');
        files.push({ id: item.id, folder: '' });
      } else {
        const { group } = await this.groupsService.resolve(actor, item.id);
        files.push(...(await this.subtreeFiles(group.id)));
      }
    }
    const downloadable = [];
    for (const file of files) {
      const project = await this.db.query.projects.findFirst({ where: (p, { eq: equals }) => equals(p.id, file.id) });
      if (project && projectCapabilities(await this.access.roleFor(actor.userId, project), project.enableDownload).canDownload) downloadable.push(file);
    }
    return this.entriesFor(downloadable);
  }

  /** Live projects below a folder (not in trashed sub-folders), each with its folder path in the archive. */
  async subtreeFiles(groupId: string): Promise<{ id: string; folder: string }[]> {
    const subtree = await this.db
      .select({ id: groups.id, name: groups.name })
      .from(groups)
      .where(and(sql`${groups.path} @> ${uuidArray([groupId])}`, eq(groups.flag, 'NONE')));
    const names = new Map(subtree.map((g) => [g.id, safeName(g.name)]));
    const files = await this.db
      .select({ id: projects.id, path: projects.path })
      .from(projects)
      .where(and(sql`${projects.path} @> ${uuidArray([groupId])}`, eq(projects.flag, 'NONE'), isNull(projects.parentProjectId)));
    return files.flatMap((file) => {
      const folders = file.path.slice(file.path.indexOf(groupId), -1);
      if (folders.some((id) => !names.has(id))) return []; // inside a trashed sub-folder
      return [{ id: file.id, folder: `${folders.map((id) => names.get(id)).join('/')}/` }];
    });
  }

  /** Archive entries for projects, each as its latest version's original file. */
  async entriesFor(files: { id: string; folder: string }[]): Promise<Entry[]> {
    const taken = new Set<string>();
    const entries: Entry[] = [];
    for (const file of files) {
      const project = await this.db.query.projects.findFirst({ where: (p, { eq: equals }) => equals(p.id, file.id) });
      const [latest] = project ? await this.versions.list(file.id) : [];
      if (!project || !latest || latest.status === 'uploading') continue;
      const extension = latest.fileExtension ? `.${latest.fileExtension}` : '';
      entries.push({
        path: uniquePath(taken, `${file.folder}${safeName(project.name)}${extension}`),
        blobKey: latest.blobKey,
        size: latest.fileSize,
        mtime: latest.createdAt,
      });
    }
    return entries;
  }

  signPublic(payload: { token: string; folder: string | null }): string {
    return `/api/public/zip?t=${this.tokens.sign('public-zip', payload, TOKEN_TTL_SECONDS)}`;
  }

  verifyPublic(token: string): { token: string; folder: string | null } | null {
    return this.tokens.verify('public-zip', token);
  }

  async stream(token: string): Promise<{ body: Readable; size: number; fileName: string }> {
    const claims = this.tokens.verify<ZipClaims>('zip', token);
    if (!claims) throw new AppError(403, 'SIGNATURE', 'This download link is invalid or has expired.');
    const actor: Actor = { userId: claims.userId, isAdmin: false, email: '', displayName: '' };
    const entries = await this.entries(actor, claims.items);
    return this.streamEntries(entries, `user:${claims.userId}`, claims.downloadId);
  }

  /** Streams entries as a stored ZIP; progress goes to `topic` (when there is a user to tell). */
  async streamEntries(entries: Entry[], topic: string | null, downloadId: string): Promise<{ body: Readable; size: number; fileName: string }> {
    if (entries.length === 0) throw AppError.notFound('There is nothing to download here.');

    const zip = new ZipFile();
    for (const entry of entries) {
      zip.addReadStreamLazy(entry.path, { size: entry.size, compress: false, mtime: entry.mtime }, (done) => {
        this.blobs.get(entry.blobKey).then(
          (stream) => done(null, stream),
          (error: unknown) => done(error, new PassThrough()),
        );
      });
    }
    const size = await new Promise<number>((resolve) => zip.end({ forceZip64Format: false, comment: '' }, ((total: number) => resolve(total)) as () => void));

    let sent = 0;
    const publish = (percent: number) =>
      topic ? this.bus.publish({ topic, type: 'download.progress', data: { downloadId, percent } }).catch(() => undefined) : Promise.resolve();
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
    return { body: (zip.outputStream as Readable).pipe(counter), size, fileName: `Mixroom-${new Date().toISOString().slice(0, 10)}.zip` };
  }
}
