import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { EventData } from '@mixroom/contracts';
import { openDatabase, type Database } from '../../src/db/database';
import { projects, users, versions } from '../../src/db/schema';
import { systemClock, type Clock } from '../../src/platform/clock/clock';
import { DiskBlobStore } from '../../src/platform/blob/disk-blob-store';
import { UrlSigner } from '../../src/platform/blob/url-signer';
import { locateMediaTools } from '../../src/platform/media/ffmpeg';
import { TempSpace } from '../../src/platform/temp/temp-space';
import { MediaService } from '../../src/modules/storage/media/media.service';
import type { StorageEvents } from '../../src/modules/storage/storage.events';
import { VersionsRepository, type VersionRow } from '../../src/modules/storage/projects/versions.repository';
import { seedEmbeddedDatabase } from './embedded-database-template';

/**
 * The media job on its own: a real database, disk blob store and ffmpeg, without HTTP, so each
 * test uploads a file by putting it in the store and runs the job as the queue would.
 */
export interface MediaHarness {
  db: Database;
  blobs: DiskBlobStore;
  versions: VersionsRepository;
  media: MediaService;
  /** The job's logger; its lines land in `logs`. */
  log: pino.Logger;
  dataDir: string;
  /** Progress events the job announced, in order. */
  announced: EventData<'version.progress'>[];
  /** Every log line the job wrote, as JSON text. */
  logs: string[];
  /** Stores `path` as a new version of a fresh project and runs the job on it. */
  process(path: string, options?: { onProgress?: (progress: number) => void }): Promise<VersionRow>;
  close(): Promise<void>;
}

export async function startMediaHarness(runtime: { clock?: Clock } = {}): Promise<MediaHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-media-'));
  await seedEmbeddedDatabase(dataDir);
  const db = await openDatabase({ url: null, dataDir, poolSize: 1 });
  const blobs = new DiskBlobStore(join(dataDir, 'blobs'), new UrlSigner(randomBytes(32), 'http://127.0.0.1:1'));
  const versionsRepo = new VersionsRepository(db.db);
  const announced: EventData<'version.progress'>[] = [];
  const hooks: { onProgress?: (progress: number) => void } = {};
  // The job announces progress through the storage events; only that method is used here.
  const events = {
    progress: async (data: EventData<'version.progress'>) => {
      announced.push(data);
      hooks.onProgress?.(data.progress);
    },
  } as unknown as StorageEvents;
  const projectOf = {
    find: async (id: string) => (await db.db.select().from(projects).where(eq(projects.id, id)))[0] ?? null,
  };
  const temp = TempSpace.open(join(dataDir, 'tmp'));
  const media = new MediaService({
    versions: versionsRepo,
    projects: projectOf,
    blobs,
    tools: locateMediaTools({}),
    events,
    temp,
    signTtlSeconds: 600,
    clock: runtime.clock ?? systemClock,
  });
  const logs: string[] = [];
  const log = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString());
        done();
      },
    }),
  );
  const [user] = await db.db
    .insert(users)
    .values({ email: `${randomUUID()}@media.test`, displayName: 'Media' })
    .returning();
  if (!user) throw new Error('no user');

  return {
    db,
    blobs,
    versions: versionsRepo,
    media,
    log,
    dataDir,
    announced,
    logs,
    async process(path, options = {}) {
      const extension = extname(path).slice(1).toLowerCase();
      const projectId = randomUUID();
      const versionId = randomUUID();
      await db.db
        .insert(projects)
        .values({ id: projectId, name: basename(path), type: 'AUDIO', path: [projectId], publisherId: user.id });
      const blobKey = `projects/${projectId}/${versionId}/original.${extension}`;
      await blobs.put(blobKey, createReadStream(path));
      await db.db.insert(versions).values({
        id: versionId,
        projectId,
        number: 1,
        name: basename(path),
        fileName: basename(path),
        fileExtension: extension,
        fileSize: statSync(path).size,
        blobKey,
        status: 'processing',
      });
      hooks.onProgress = options.onProgress;
      await media.process(versionId, { log, progress: async () => undefined });
      const row = await versionsRepo.find(versionId);
      if (!row) throw new Error('version vanished');
      return row;
    },
    async close() {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Decodes a file with ffmpeg to mono 32-bit float samples at `rate`, as a player would hear it. */
export function decodeMono(path: string, rate = 48000): Float32Array {
  const raw = execFileSync(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-i', path, '-ac', '1', '-ar', String(rate), '-f', 'f32le', '-'],
    {
      maxBuffer: 1 << 30,
    },
  );
  return new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4);
}

/** Index of the loudest sample: where a click is. */
export function loudestSample(samples: Float32Array): number {
  let at = 0;
  for (let i = 1; i < samples.length; i++) if (Math.abs(samples[i]!) > Math.abs(samples[at]!)) at = i;
  return at;
}
