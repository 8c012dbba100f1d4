import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertSafeKey,
  BlobMissingError,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type CompletedPart,
  type PartialBlob,
  PartTooLargeError,
  UploadClosedError,
  type DownloadSignOptions,
  type SignOptions,
  type StableSignOptions,
} from './blob-store';
import { holdEarlyErrors } from './early-errors';
import type { UrlSigner } from './url-signer';

const READ_CHUNK = 1024 * 1024;
/** Bytes a blob's file stream holds while a write is on disk (see writeAtomically). */
const WRITE_BUFFER = 1024 * 1024;

const expiry = (o: SignOptions & StableSignOptions, now: number) =>
  Math.floor((o.signedAt?.getTime() ?? now) / 1000) + o.expiresInSeconds;

/** Blobs as files under DATA_DIR/blobs; the app itself serves the signed URLs (disk-blob.routes). */
export class DiskBlobStore implements BlobStore {
  readonly driver = 'disk' as const;
  private readonly objects: string;
  private readonly multipart: string;

  constructor(
    root: string,
    private readonly signer: UrlSigner,
  ) {
    this.objects = join(root, 'objects');
    this.multipart = join(root, 'multipart');
  }

  private path(key: string): string {
    assertSafeKey(key);
    return join(this.objects, key);
  }

  private partDir(uploadId: string): string {
    if (!/^[0-9a-f-]{36}$/.test(uploadId)) throw new Error('Invalid upload id');
    return join(this.multipart, uploadId);
  }

  /**
   * Writes to a temporary file and renames, so a reader never sees half a blob. A stream goes
   * straight into the file (no stage between them): while one write is on disk, the chunks that
   * arrive meanwhile gather, up to WRITE_BUFFER, into the next vectored write, so the source is not
   * paused at every 64 KiB socket chunk.
   */
  private async writeAtomically(target: string, body: Buffer | Readable): Promise<void> {
    holdEarlyErrors(body);
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.tmp`;
    try {
      if (Buffer.isBuffer(body)) await writeFile(temp, body);
      else await pipeline(body, createWriteStream(temp, { highWaterMark: WRITE_BUFFER }));
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** The file behind a key, for local tools (ffmpeg) that read faster from disk than over HTTP. */
  localPath(key: string): string {
    return this.path(key);
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    await this.writeAtomically(this.path(key), body);
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.path(key);
    await stat(path).catch((error: unknown) => {
      throw (error as NodeJS.ErrnoException).code === 'ENOENT' ? new BlobMissingError() : error;
    });
    // 1 MiB reads: whole-file streams (ZIPs, transfers) run near disk speed instead of in 64 KiB steps.
    return createReadStream(path, {
      highWaterMark: READ_CHUNK,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
  }

  async head(key: string): Promise<BlobInfo | null> {
    try {
      const info = await stat(this.path(key));
      return { size: info.size };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = (await this.list(this.objects)).filter((key) => key.startsWith(prefix));
    await Promise.all(keys.map((key) => this.delete(key)));
    // A folder-shaped prefix leaves no empty directories behind.
    if (prefix.endsWith('/') && prefix.length > 1)
      await rm(this.path(prefix.slice(0, -1)), { recursive: true, force: true });
    return keys.length;
  }

  private async list(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const nested = await Promise.all(
      entries.map(async (e): Promise<string[]> =>
        e.isDirectory() ? this.list(join(dir, e.name)) : [relative(this.objects, join(dir, e.name))],
      ),
    );
    return nested.flat().filter((k) => !k.endsWith('.tmp'));
  }

  async signUploadUrl(key: string, options: SignOptions): Promise<string> {
    assertSafeKey(key);
    return this.signer.sign({ action: 'put', key, expires: expiry(options, this.signer.now()) });
  }

  async signDownloadUrl(key: string, options: DownloadSignOptions): Promise<string> {
    assertSafeKey(key);
    return this.signer.sign({
      action: 'get',
      key,
      expires: expiry(options, this.signer.now()),
      ...(options.fileName ? { fileName: options.fileName } : {}),
      ...(options.contentType ? { contentType: options.contentType } : {}),
      ...(options.cacheSeconds !== undefined ? { cacheSeconds: options.cacheSeconds } : {}),
    });
  }

  /**
   * A multipart upload is one data file that every part is written into at its own offset, so
   * completing it is a rename: no concatenation, no second copy of the bytes.
   */
  async createMultipart(key: string, options?: { partSize: number; size?: number }): Promise<string> {
    assertSafeKey(key);
    const uploadId = randomUUID();
    const dir = this.partDir(uploadId);
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'meta.json'),
      JSON.stringify({ key, partSize: options?.partSize ?? 0, size: options?.size ?? null }),
    );
    await writeFile(join(dir, 'data'), '');
    return uploadId;
  }

  async signPartUrl(key: string, uploadId: string, partNumber: number, options: SignOptions): Promise<string> {
    assertSafeKey(key);
    return this.signer.sign({ action: 'part', key, uploadId, partNumber, expires: expiry(options, this.signer.now()) });
  }

  private async meta(key: string, uploadId: string): Promise<{ dir: string; partSize: number; size: number | null }> {
    const dir = this.partDir(uploadId);
    const meta = await readFile(join(dir, 'meta.json'), 'utf8')
      .then((text) => JSON.parse(text) as { key: string; partSize: number; size?: number | null })
      .catch(() => null);
    // Completing or cancelling removes the folder: a late PUT to a part URL still signed is refused, not a 500.
    if (meta?.key !== key || !meta.partSize) throw new UploadClosedError();
    return { dir, partSize: meta.partSize, size: meta.size ?? null };
  }

  /**
   * Stores one part (the signed part URL route) at its offset; returns an ETag naming this write.
   * A body longer than the part's share of the declared size is refused before it spills into the
   * next part's bytes (or past the file, where it would count for nothing against the quota).
   */
  async writePart(key: string, uploadId: string, partNumber: number, body: Readable): Promise<string> {
    const { dir, partSize, size: declared } = await this.meta(key, uploadId);
    const limit =
      declared === null ? partSize : Math.max(0, Math.min(partSize, declared - (partNumber - 1) * partSize));
    if (limit === 0) throw new PartTooLargeError(0);
    const size = await writeAt(join(dir, 'data'), (partNumber - 1) * partSize, body, limit);
    const etag = `"${partNumber}-${size}-${randomUUID().slice(0, 8)}"`;
    // Written after the bytes: an ETag file means the whole part is on disk.
    await writeFile(join(dir, `${partNumber}.etag`), etag);
    return etag;
  }

  async storedPartSize(key: string, uploadId: string, partNumber: number, etag: string): Promise<number | null> {
    const { dir } = await this.meta(key, uploadId);
    const stored = await readFile(join(dir, `${partNumber}.etag`), 'utf8').catch(() => null);
    if (stored === null || stored.replaceAll('"', '') !== etag.replaceAll('"', '')) return 0;
    return Number(stored.replaceAll('"', '').split('-')[1]);
  }

  async completeMultipart(key: string, uploadId: string, parts: CompletedPart[]): Promise<void> {
    const { dir } = await this.meta(key, uploadId);
    let total = 0;
    for (const part of parts) {
      const stored = await readFile(join(dir, `${part.partNumber}.etag`), 'utf8').catch(() => null);
      if (stored === null || stored.replaceAll('"', '') !== part.etag.replaceAll('"', '')) {
        throw new Error(`Part ${part.partNumber} is missing or its ETag does not match`);
      }
      total += Number(stored.replaceAll('"', '').split('-')[1]);
    }
    // A part written twice (a retry) may have left bytes past the end: cut to the real size.
    await truncate(join(dir, 'data'), total);
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    await rename(join(dir, 'data'), target);
    await rm(dir, { recursive: true, force: true });
  }

  /**
   * The upload's data file is filled in place (parts are never sent to such an upload), so bytes
   * an attempt wrote before it was cut are still there for the next; the filler's note sits beside
   * them. Nothing appears under the key until the file is whole.
   */
  async fillMultipart(
    key: string,
    uploadId: string,
    fill: (partial: PartialBlob) => Promise<number | null>,
  ): Promise<boolean> {
    const { dir } = await this.meta(key, uploadId);
    const path = join(dir, 'data');
    const notePath = join(dir, 'fill-note');
    const size = await fill({
      path,
      bytes: (await stat(path)).size,
      note: await readFile(notePath, 'utf8').catch(() => null),
      setNote: (note) => writeFile(notePath, note),
    });
    if (size === null) return false;
    await truncate(path, size);
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    await rename(path, target);
    await rm(dir, { recursive: true, force: true });
    return true;
  }

  async abortMultipart(_key: string, uploadId: string): Promise<void> {
    await rm(this.partDir(uploadId), { recursive: true, force: true });
  }

  async check(): Promise<void> {
    await mkdir(this.objects, { recursive: true });
    await stat(this.objects);
  }
}

/** What one vectored write gathers: socket chunks of 16–64 KiB become one syscall. */
const BATCH_BYTES = 4 * 1024 * 1024;

/** Streams `body` into `path` from `position` on, gathering chunks into large vectored writes. */
async function writeAt(path: string, position: number, body: Readable, limit: number): Promise<number> {
  const handle = await open(path, 'r+');
  try {
    let chunks: Buffer[] = [];
    let pending = 0;
    let written = 0;
    const flush = async () => {
      const { bytesWritten } = await handle.writev(chunks, position + written);
      if (bytesWritten !== pending) throw new Error('Short write to the upload file.');
      written += pending;
      chunks = [];
      pending = 0;
    };
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (written + pending + chunk.length > limit) throw new PartTooLargeError(limit);
      chunks.push(chunk);
      pending += chunk.length;
      if (pending >= BATCH_BYTES) await flush();
    }
    if (pending) await flush();
    return written;
  } finally {
    await handle.close();
  }
}
