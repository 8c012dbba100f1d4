import { PassThrough } from 'node:stream';
import { LIMITS } from '@mixroom/shared';
import type { DataExport } from '@mixroom/contracts';
import { ZipFile } from 'yazl';
import { z } from 'zod';
import { AppError } from '../../http/app-error';
import type { BlobStore } from '../../platform/blob/blob-store';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { JobContext, JobType } from '../../platform/jobs/job-definition';
import type { Outbox } from '../../platform/jobs/outbox';
import type { TokenSigner } from '../../platform/secrets/token-signer';
import { sendMailJob } from '../../platform/mail/mail.jobs';
import type { ExportArchive, UserDataContribution } from '../user-data';
import { dataExportReadyMail } from './account.mails';
import type { AccountRepository, DataExportRow } from './account.repository';

export const dataExportJob = {
  name: 'account.export',
  schema: z.object({ exportId: z.uuid() }),
  retryLimit: 2,
  expireInSeconds: 3600,
} satisfies JobType;

const TOKEN_PURPOSE = 'data-export';

/** Where a user's archives are stored; account deletion removes everything under it. */
export const exportPrefix = (userId: string) => `exports/${userId}/`;
const DAY_MS = 86_400_000;

type Entry =
  | { kind: 'bytes'; path: string; bytes: Buffer }
  | { kind: 'blob'; path: string; key: string; size: number; mtime: Date };

/** Collects what the modules contribute; nothing is read from the store until the ZIP is written. */
class CollectedArchive implements ExportArchive {
  readonly entries: Entry[] = [];
  private readonly used = new Set<string>();

  json(path: string, value: unknown): void {
    this.add({ kind: 'bytes', path, bytes: Buffer.from(JSON.stringify(value, null, 2)) });
  }
  text(path: string, text: string): void {
    this.add({ kind: 'bytes', path, bytes: Buffer.from(text) });
  }
  blob(path: string, key: string, size: number, mtime: Date): void {
    this.add({ kind: 'blob', path, key, size, mtime });
  }

  /** Two entries never share a path: the later one gets " (2)" before its extension. */
  private add(entry: Entry): void {
    let path = entry.path;
    for (let n = 2; this.used.has(path.toLowerCase()); n++) path = entry.path.replace(/(\.[^./]+)?$/, ` (${n})$1`);
    this.used.add(path.toLowerCase());
    this.entries.push({ ...entry, path });
  }
}

export interface DataExportDeps {
  repository: AccountRepository;
  blobs: BlobStore;
  clock: Clock;
  outbox: Outbox;
  tokens: TokenSigner;
  publicUrl: string;
  contributions: () => UserDataContribution[];
}

/** "Download my data": a job gathers every module's part into a ZIP and mails a signed link to it. */
export class DataExportService {
  constructor(private readonly deps: DataExportDeps) {}

  async list(actor: Actor): Promise<DataExport[]> {
    return (await this.deps.repository.exportsOf(actor.userId)).map((row) => this.present(row));
  }

  /** One archive at a time; the job is recorded with the row, so a crash can't lose it. */
  async start(actor: Actor): Promise<DataExport> {
    const row = await this.deps.repository.transaction(async (tx) => {
      if (await this.deps.repository.activeExport(actor.userId, tx))
        throw AppError.conflict('An archive of your data is already being made.', 'EXPORT_RUNNING');
      const created = await this.deps.repository.insertExport(tx, actor.userId, this.deps.clock.now());
      await this.deps.outbox.job(tx, dataExportJob, { exportId: created.id }, { topic: `user:${actor.userId}` });
      return created;
    });
    this.deps.outbox.kick();
    return this.present(row);
  }

  /** The signed link's target: a short-lived URL of the archive itself. */
  async downloadUrl(exportId: string, token: string): Promise<string> {
    const claims = this.deps.tokens.verify<{ id: string }>(TOKEN_PURPOSE, token);
    const row = await this.deps.repository.findExport(exportId);
    if (!claims || claims.id !== exportId || !row) throw AppError.notFound('This download link is not valid.');
    if (!row.blobKey || !row.expiresAt || row.expiresAt <= this.deps.clock.now())
      throw new AppError(410, 'EXPORT_EXPIRED', 'This archive has expired. Please ask for a new one in Settings.');
    return this.deps.blobs.signDownloadUrl(row.blobKey, {
      expiresInSeconds: 600,
      fileName: `mixroom-data-${row.createdAt.toISOString().slice(0, 10)}.zip`,
      contentType: 'application/zip',
    });
  }

  async run(exportId: string, context: Pick<JobContext, 'progress'>): Promise<void> {
    const row = await this.deps.repository.findExport(exportId);
    if (!row || row.status === 'ready') return;
    await this.deps.repository.updateExport(exportId, { status: 'running', progress: 0 });
    try {
      const archive = new CollectedArchive();
      for (const contribution of this.deps.contributions()) await contribution.export?.(row.userId, archive);
      const key = `${exportPrefix(row.userId)}${exportId}.zip`;
      const size = await this.write(archive, key, async (percent) => {
        await this.deps.repository.updateExport(exportId, { progress: percent });
        await context.progress(percent);
      });
      const now = this.deps.clock.now();
      const expiresAt = new Date(now.getTime() + LIMITS.dataExportTtlDays * DAY_MS);
      await this.deps.repository.transaction(async (tx) => {
        await this.deps.repository.updateExport(
          exportId,
          {
            status: 'ready',
            progress: 100,
            blobKey: key,
            sizeBytes: size,
            finishedAt: now,
            expiresAt,
          },
          tx,
        );
        const [user] = await this.deps.repository.contactsOf([row.userId], tx);
        if (user)
          await this.deps.outbox.job(tx, sendMailJob, {
            to: user.email,
            ...dataExportReadyMail(user.displayName, this.link(exportId, expiresAt), LIMITS.dataExportTtlDays),
          });
        await this.deps.outbox.event(tx, {
          topic: `user:${row.userId}`,
          type: 'user.updated',
          data: { userId: row.userId },
        });
      });
      this.deps.outbox.kick();
    } catch (error) {
      await this.deps.repository.updateExport(exportId, {
        status: 'failed',
        error: error instanceof Error ? error.message.slice(0, 500) : 'failed',
      });
      throw error;
    }
  }

  /** Removes archives past their expiry (the rows stay, as a record that one was made). */
  async purgeExpired(): Promise<number> {
    const expired = await this.deps.repository.expiredExports(this.deps.clock.now());
    for (const row of expired) {
      if (row.blobKey) await this.deps.blobs.delete(row.blobKey).catch(() => undefined);
      await this.deps.repository.updateExport(row.id, { blobKey: null });
    }
    return expired.length;
  }

  /** Streams the ZIP into the store, reading each blob only when its turn comes. */
  private async write(archive: CollectedArchive, key: string, progress: (percent: number) => Promise<void>) {
    const zip = new ZipFile();
    const total = archive.entries.reduce((sum, e) => sum + (e.kind === 'blob' ? e.size : e.bytes.length), 0) || 1;
    let done = 0;
    let reported = 0;
    for (const entry of archive.entries) {
      if (entry.kind === 'bytes') {
        zip.addBuffer(entry.bytes, entry.path);
        done += entry.bytes.length;
        continue;
      }
      zip.addReadStreamLazy(entry.path, { size: entry.size, mtime: entry.mtime, compress: false }, (callback) => {
        this.deps.blobs.get(entry.key).then(
          (stream) => {
            // yazl pipes the stream without listening for its errors: one unheard would end the process.
            stream.once('error', (error: Error) => zip.emit('error', error));
            done += entry.size;
            const percent = Math.min(99, Math.floor((done / total) * 100));
            if (percent >= reported + 5) {
              reported = percent;
              void progress(percent).catch(() => undefined);
            }
            callback(null, stream);
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null as never),
        );
      });
    }
    zip.end();
    const body = new PassThrough();
    let size = 0;
    zip.outputStream.on('data', (chunk: Buffer) => (size += chunk.length));
    zip.outputStream.pipe(body);
    // A blob that can't be read fails the whole archive instead of leaving the upload waiting.
    const fail = (error: Error) => body.destroy(error);
    // The store may still be preparing (a folder to make) when a read fails: until its pipeline
    // listens, this listener hears the error, and the pipeline then rejects on the destroyed body.
    body.on('error', () => undefined);
    zip.outputStream.on('error', fail);
    zip.on('error', fail);
    await this.deps.blobs.put(key, body, 'application/zip');
    return size;
  }

  private link(exportId: string, expiresAt: Date): string {
    const ttl = Math.max(60, Math.ceil((expiresAt.getTime() - this.deps.clock.now().getTime()) / 1000));
    const token = this.deps.tokens.sign(TOKEN_PURPOSE, { id: exportId }, ttl);
    return `${this.deps.publicUrl}/api/exports/${exportId}/download?token=${encodeURIComponent(token)}`;
  }

  private present(row: DataExportRow): DataExport {
    const live = row.status === 'ready' && row.blobKey && row.expiresAt && row.expiresAt > this.deps.clock.now();
    return {
      id: row.id,
      status: row.status,
      progress: row.progress,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      sizeBytes: row.sizeBytes,
      downloadUrl: live && row.expiresAt ? this.link(row.id, row.expiresAt) : null,
    };
  }
}
