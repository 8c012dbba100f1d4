import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type BlobInfo, type BlobStore, type ByteRange, type CompletedPart, type DownloadSignOptions, type SignOptions } from './blob-store';
import type { UrlSigner } from './url-signer';

const expiry = (o: SignOptions) => Math.floor(Date.now() / 1000) + o.expiresInSeconds;

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

  /** Writes to a temporary file and renames, so a reader never sees half a blob. */
  private async writeAtomically(target: string, body: Buffer | Readable, hash?: ReturnType<typeof createHash>): Promise<number> {
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.tmp`;
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        hash?.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, counter, createWriteStream(temp));
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return size;
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
    await stat(path);
    return createReadStream(path, range ? { start: range.start, end: range.end } : {});
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
    if (prefix.endsWith('/') && prefix.length > 1) await rm(this.path(prefix.slice(0, -1)), { recursive: true, force: true });
    return keys.length;
  }

  private async list(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const nested = await Promise.all(
      entries.map(async (e): Promise<string[]> => (e.isDirectory() ? this.list(join(dir, e.name)) : [relative(this.objects, join(dir, e.name))])),
    );
    return nested.flat().filter((k) => !k.endsWith('.tmp'));
  }

  async signUploadUrl(key: string, options: SignOptions): Promise<string> {
    assertSafeKey(key);
    return this.signer.sign({ action: 'put', key, expires: expiry(options) });
  }

  async signDownloadUrl(key: string, options: DownloadSignOptions): Promise<string> {
    assertSafeKey(key);
    return this.signer.sign({
      action: 'get',
      key,
      expires: expiry(options),
      ...(options.fileName ? { fileName: options.fileName } : {}),
      ...(options.contentType ? { contentType: options.contentType } : {}),
    });
  }

  async createMultipart(key: string): Promise<string> {
    assertSafeKey(key);
    const uploadId = randomUUID();
    await mkdir(this.partDir(uploadId), { recursive: true });
    await writeFile(join(this.partDir(uploadId), 'key'), key);
    return uploadId;
  }

  async signPartUrl(key: string, uploadId: string, partNumber: number, options: SignOptions): Promise<string> {
    assertSafeKey(key);
    return this.signer.sign({ action: 'part', key, uploadId, partNumber, expires: expiry(options) });
  }

  /** Stores one part (called by the signed part URL route) and returns its ETag, an MD5 as on S3. */
  async writePart(key: string, uploadId: string, partNumber: number, body: Readable): Promise<string> {
    const dir = this.partDir(uploadId);
    const owner = await readFile(join(dir, 'key'), 'utf8').catch(() => null);
    if (owner !== key) throw new Error('No such upload');
    const md5 = createHash('md5');
    await this.writeAtomically(join(dir, `${partNumber}.part`), body, md5);
    const etag = `"${md5.digest('hex')}"`;
    await writeFile(join(dir, `${partNumber}.etag`), etag);
    return etag;
  }

  async completeMultipart(key: string, uploadId: string, parts: CompletedPart[]): Promise<void> {
    const dir = this.partDir(uploadId);
    const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    for (const part of ordered) {
      const stored = await readFile(join(dir, `${part.partNumber}.etag`), 'utf8').catch(() => null);
      if (stored === null || stored.replaceAll('"', '') !== part.etag.replaceAll('"', '')) {
        throw new Error(`Part ${part.partNumber} is missing or its ETag does not match`);
      }
    }
    const files = ordered.map((p) => join(dir, `${p.partNumber}.part`));
    await this.writeAtomically(this.path(key), Readable.from(concatFiles(files)));
    await rm(dir, { recursive: true, force: true });
  }

  async abortMultipart(_key: string, uploadId: string): Promise<void> {
    await rm(this.partDir(uploadId), { recursive: true, force: true });
  }

  async check(): Promise<void> {
    await mkdir(this.objects, { recursive: true });
    await stat(this.objects);
  }
}

async function* concatFiles(files: string[]): AsyncGenerator<Buffer> {
  for (const file of files) {
    for await (const chunk of createReadStream(file)) yield chunk as Buffer;
  }
}
