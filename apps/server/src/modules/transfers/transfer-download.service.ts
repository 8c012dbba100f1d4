import { createHash } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import { AppError } from '../../http/app-error';
import type { BlobStore } from '../../platform/blob/blob-store';
import { exactLength } from '../../platform/blob/exact-length';
import { parseRange } from '../../platform/blob/range';
import { uniquePath, type ZipEntry } from '../storage';
import type { TransferAccessService } from './transfer-access.service';
import type { TransfersRepository } from './transfers.repository';

/** What a route sends: status, headers, body, and what to record once the response ends. */
export interface Download {
  status: 200 | 206 | 416;
  headers: Record<string, string | number>;
  body: Readable | null;
  /** Called once with the bytes that left and whether the response finished. */
  settle(sent: number, finished: boolean): Promise<void>;
}

/** The archive's own file of checksums, in the format `sha256sum -c` reads. */
export const CHECKSUMS_FILE = 'checksums.sha256';

export interface ZipWriter {
  streamEntries(
    entries: ZipEntry[],
    topic: string | null,
    downloadId: string,
  ): Promise<{ body: Readable; size: number; fileName: string }>;
}

const contentDisposition = (fileName: string) =>
  `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

export interface TransferDownloadDeps {
  access: TransferAccessService;
  repository: TransfersRepository;
  blobs: BlobStore;
  zip: ZipWriter;
}

/**
 * The bytes of a transfer: one file with Range (a download manager may split or resume it), or all
 * files as one streamed ZIP that ends with checksums.sha256. Each is logged for the sender.
 */
export class TransferDownloadService {
  constructor(private readonly deps: TransferDownloadDeps) {}

  async file(token: string, grantToken: string, fileId: string, rangeHeader: string | undefined): Promise<Download> {
    const { grant, record } = await this.deps.access.file(token, grantToken, fileId);
    const { version } = record;
    const size = version.fileSize;
    const range = parseRange(rangeHeader, size);
    const common = {
      'Accept-Ranges': 'bytes',
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': contentDisposition(version.fileName),
      ...(record.file.sha256
        ? { 'Repr-Digest': `sha-256=:${Buffer.from(record.file.sha256, 'hex').toString('base64')}:` }
        : {}),
    };
    if (range === 'unsatisfiable')
      return {
        status: 416,
        headers: { ...common, 'Content-Range': `bytes */${size}` },
        body: null,
        settle: async () => {},
      };
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    const entryId = await this.deps.access.logStart(grant, fileId, version.fileName, start > 0);
    const body =
      size === 0
        ? Readable.from([])
        : pipeline(
            await this.deps.blobs.get(version.blobKey, { start, end }),
            exactLength(end - start + 1),
            () => undefined,
          );
    return {
      status: range ? 206 : 200,
      headers: {
        ...common,
        'Content-Length': end - start + 1,
        ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
      },
      body,
      // The entry counts the bytes of the file delivered across its responses, each once.
      settle: (sent, finished) => this.deps.access.logEnd(grant, entryId, { start, sent, size, finished }),
    };
  }

  /**
   * Every file as one ZIP (stored entries, so its size is known before the first byte), with
   * checksums.sha256 last: each file's hash from its upload, or computed from the bytes as they pass
   * when the checksum job has not run yet.
   */
  async zipAll(token: string, grantToken: string): Promise<Download> {
    const grant = await this.deps.access.grant(token, grantToken);
    const { transfer } = grant;
    const files = (await this.deps.repository.files(transfer.id)).filter((f) => f.version.status !== 'uploading');
    if (files.length === 0) throw AppError.notFound('There is nothing to download here.');
    const taken = new Set([CHECKSUMS_FILE.toLowerCase()]);
    const hashes = new Map<string, string>();
    const entries: ZipEntry[] = files.map(({ file, version }) => {
      const path = uniquePath(taken, `${file.path ? `${file.path}/` : ''}${version.fileName}`);
      if (file.sha256) hashes.set(path, file.sha256);
      return {
        path,
        blobKey: version.blobKey,
        size: version.fileSize,
        mtime: version.createdAt,
        open: async () => {
          const source = await this.deps.blobs.get(version.blobKey);
          if (file.sha256) return source;
          const hash = createHash('sha256');
          // pipeline forwards a read error to the archive, which ends the response (pipe would leave it unheard).
          return pipeline(
            source,
            new Transform({
              transform(chunk: Buffer, _encoding, callback) {
                hash.update(chunk);
                callback(null, chunk);
              },
              flush(callback) {
                hashes.set(path, hash.digest('hex'));
                callback();
              },
            }),
            () => undefined,
          );
        },
      };
    });
    // Each line is "<64 hex>  <path>\n": its length is known now, its content once every file has passed.
    const checksumSize = entries.reduce((sum, e) => sum + 64 + 2 + Buffer.byteLength(e.path) + 1, 0);
    entries.push({
      path: CHECKSUMS_FILE,
      blobKey: '',
      size: checksumSize,
      mtime: transfer.sentAt ?? transfer.createdAt,
      open: async () =>
        Readable.from([
          Buffer.from(
            entries
              .slice(0, -1)
              .map((e) => `${hashes.get(e.path) ?? '0'.repeat(64)}  ${e.path}\n`)
              .join(''),
          ),
        ]),
    });
    const zip = await this.deps.zip.streamEntries(entries, null, transfer.id);
    const entryId = await this.deps.access.logStart(grant, null, 'All files (ZIP)', false);
    return {
      status: 200,
      headers: {
        'Content-Type': 'application/zip',
        'Content-Length': zip.size,
        'Content-Disposition': contentDisposition(`${transfer.name}.zip`),
      },
      body: zip.body,
      settle: (sent, finished) => this.deps.access.logEnd(grant, entryId, { start: 0, sent, size: zip.size, finished }),
    };
  }
}
