import type { Readable } from 'node:stream';
import type { UploadSession } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import type { BlobStore, PartialBlob } from '../../platform/blob/blob-store';
import type { Clock } from '../../platform/clock/clock';
import type { UploadRow, UploadsRepository } from './uploads.repository';

/** S3's floor for every part but the last, and its ceiling on part count. */
export const MIN_PART_SIZE = 5 * 1024 * 1024;
export const MAX_PARTS = 10_000;
/** 16 MiB parts: small enough to resume cheaply and to run several in parallel. */
export const DEFAULT_PART_SIZE = 16 * 1024 * 1024;

export function choosePartSize(size: number, preferred = DEFAULT_PART_SIZE): number {
  return Math.max(MIN_PART_SIZE, preferred, Math.ceil(size / MAX_PARTS));
}

const partCount = (upload: Pick<UploadRow, 'size' | 'partSize'>) =>
  Math.max(1, Math.ceil(upload.size / upload.partSize));

export interface UploadsServiceDeps {
  repository: UploadsRepository;
  store: BlobStore;
  /** The lifetime of signed part URLs (SIGNED_URL_TTL_SECONDS). */
  signedUrlTtlSeconds: number;
  clock: Clock;
}

/**
 * Resumable multipart uploads straight to the blob store. The database records every finished part
 * with its ETag, so a client that lost its tab, its network or the server asks for the session and
 * sends only the parts still missing. Features (projects, transfers) create sessions for blob keys
 * they choose; this service only checks ownership and completeness.
 */
export class UploadsService {
  constructor(private readonly deps: UploadsServiceDeps) {}

  async start(ownerId: string, blobKey: string, size: number, partSize = choosePartSize(size)): Promise<UploadSession> {
    if (!Number.isInteger(size) || size <= 0) throw AppError.badRequest('The file is empty.', 'EMPTY_FILE');
    if (partSize < MIN_PART_SIZE || Math.ceil(size / partSize) > MAX_PARTS)
      throw AppError.badRequest('Invalid part size.');
    const driverUploadId = await this.deps.store.createMultipart(blobKey, { partSize, size });
    const row = await this.deps.repository.create({ ownerId, blobKey, driverUploadId, size, partSize });
    return this.present(row, []);
  }

  private async owned(ownerId: string, uploadId: string): Promise<UploadRow> {
    const upload = await this.deps.repository.find(uploadId);
    if (!upload || upload.ownerId !== ownerId) throw AppError.notFound('No such upload.');
    return upload;
  }

  private async open(ownerId: string, uploadId: string): Promise<UploadRow> {
    const upload = await this.owned(ownerId, uploadId);
    if (upload.status !== 'open') throw AppError.conflict('Upload aborted', 'UPLOAD_CLOSED');
    return upload;
  }

  async get(ownerId: string, uploadId: string): Promise<UploadSession> {
    const upload = await this.owned(ownerId, uploadId);
    return this.present(upload, await this.deps.repository.parts(uploadId));
  }

  async partUrl(ownerId: string, uploadId: string, partNumber: number): Promise<{ url: string }> {
    const upload = await this.open(ownerId, uploadId);
    const count = partCount(upload);
    if (partNumber < 1 || partNumber > count) throw AppError.badRequest(`Part ${partNumber} is out of range.`);
    const contentLength = partNumber < count ? upload.partSize : upload.size - upload.partSize * (count - 1);
    const url = await this.deps.store.signPartUrl(upload.blobKey, upload.driverUploadId, partNumber, {
      expiresInSeconds: this.deps.signedUrlTtlSeconds,
      contentLength,
    });
    return { url };
  }

  async recordPart(
    ownerId: string,
    uploadId: string,
    part: { partNumber: number; etag: string; size: number },
  ): Promise<void> {
    const upload = await this.open(ownerId, uploadId);
    const count = partCount(upload);
    if (part.partNumber < 1 || part.partNumber > count)
      throw AppError.badRequest(`Part ${part.partNumber} is out of range.`);
    const expected = part.partNumber < count ? upload.partSize : upload.size - upload.partSize * (count - 1);
    if (part.size !== expected)
      throw AppError.badRequest(`Part ${part.partNumber} should hold ${expected} bytes, not ${part.size}.`);
    // The client's word is checked against the store: a file recorded larger than its bytes would
    // promise downloads and ZIPs a length they can never deliver.
    const stored = await this.deps.store.storedPartSize(
      upload.blobKey,
      upload.driverUploadId,
      part.partNumber,
      part.etag,
    );
    if (stored !== null && stored !== part.size)
      throw AppError.conflict(
        `Part ${part.partNumber} holds ${stored} bytes, not ${part.size}. Send the part again.`,
        'PART_SIZE_MISMATCH',
      );
    await this.deps.repository.recordPart({ uploadId, ...part });
  }

  /**
   * The server itself fills an open session with a whole file (a file it made: an AI tool's output,
   * a recording), instead of a browser sending parts. The multipart session is dropped and the body
   * stored at the session's key; `complete` then checks and closes it like any other.
   */
  async storeWhole(ownerId: string, uploadId: string, body: Readable): Promise<void> {
    const upload = await this.open(ownerId, uploadId);
    // The browser's multipart session goes unused; dropping it is best effort, as in abortSession
    // (some S3-compatible stores, s3rver among them, lack AbortMultipartUpload).
    await this.deps.store.abortMultipart(upload.blobKey, upload.driverUploadId).catch(() => undefined);
    await this.deps.store.put(upload.blobKey, body);
    await this.deps.repository.setStatus(uploadId, 'stored');
  }

  /**
   * As storeWhole, with the bytes written by `fill` into the store's local file for the upload,
   * kept across attempts (a copy resumes where the last one was cut). False, with the session
   * open, when the store keeps no local files or `fill` wrote nothing after all: the caller then
   * streams.
   */
  async fillWhole(
    ownerId: string,
    uploadId: string,
    fill: (partial: PartialBlob) => Promise<number | null>,
  ): Promise<boolean> {
    const { store } = this.deps;
    if (!store.fillMultipart) return false;
    const upload = await this.open(ownerId, uploadId);
    if (!(await store.fillMultipart(upload.blobKey, upload.driverUploadId, fill))) return false;
    await this.deps.repository.setStatus(uploadId, 'stored');
    return true;
  }

  /** Completes only when every part is recorded; returns the finished blob's key. */
  async complete(ownerId: string, uploadId: string): Promise<{ blobKey: string; size: number }> {
    const stored = await this.owned(ownerId, uploadId);
    if (stored.status === 'stored') return this.checkSize(stored);
    const upload = await this.open(ownerId, uploadId);
    const parts = await this.deps.repository.parts(uploadId);
    const missing = partCount(upload) - parts.length;
    if (missing > 0) throw AppError.conflict(`${missing} part(s) are still missing.`, 'PARTS_MISSING');
    try {
      await this.deps.store.completeMultipart(upload.blobKey, upload.driverUploadId, parts);
    } catch (error) {
      throw AppError.conflict(
        `The upload could not be assembled: ${error instanceof Error ? error.message : String(error)}. Send the file again.`,
        'ASSEMBLY_FAILED',
      );
    }
    return this.checkSize(upload);
  }

  /**
   * Whatever the store (S3 checks part lengths only if they were signed), the file must be the size
   * recorded: it is what quotas count and what a download or ZIP announces before its first byte.
   */
  private async checkSize(upload: UploadRow): Promise<{ blobKey: string; size: number }> {
    const uploadId = upload.id;
    const info = await this.deps.store.head(upload.blobKey);
    if (info && info.size !== upload.size) {
      await this.deps.repository.setStatus(uploadId, 'aborted');
      await this.deps.store.delete(upload.blobKey).catch(() => undefined);
      throw AppError.conflict(
        `The stored file holds ${info.size} bytes where ${upload.size} were announced. Send the file again.`,
        'SIZE_MISMATCH',
      );
    }
    await this.deps.repository.setStatus(uploadId, 'completed');
    return { blobKey: upload.blobKey, size: upload.size };
  }

  async abort(ownerId: string, uploadId: string): Promise<void> {
    await this.owned(ownerId, uploadId);
    await this.abortSession(uploadId);
  }

  /**
   * Ends a session whoever opened it; the caller has decided the actor may (e.g. the owner of the
   * folder a collaborator is uploading into).
   */
  async abortSession(uploadId: string): Promise<void> {
    const upload = await this.deps.repository.find(uploadId);
    if (!upload || (upload.status !== 'open' && upload.status !== 'stored')) return;
    // Close the session first so no part is accepted any more. Dropping the stored parts is best
    // effort: some S3-compatible stores lack AbortMultipartUpload, and S3 lifecycle rules expire
    // leftover parts anyway. A file the server stored whole goes with its session.
    await this.deps.repository.setStatus(uploadId, 'aborted');
    if (upload.status === 'stored') return void (await this.deps.store.delete(upload.blobKey).catch(() => undefined));
    await this.deps.store.abortMultipart(upload.blobKey, upload.driverUploadId).catch(() => undefined);
  }

  /**
   * Ends every open session of an account being erased, and every session writing into its items:
   * a multipart upload's stored parts are not blobs yet, so deleting the items' keys leaves them.
   */
  async abortForErasure(ownerId: string, prefixes: string[]): Promise<number> {
    const open = await this.deps.repository.openOfOrUnder(ownerId, prefixes);
    for (const upload of open) await this.abortSession(upload.id);
    return open.length;
  }

  /** Aborts uploads nobody touched for `maxAgeMs` (run by the maintenance job). */
  async abortStale(maxAgeMs: number): Promise<number> {
    const stale = await this.deps.repository.staleOpen(new Date(this.deps.clock.now().getTime() - maxAgeMs));
    for (const upload of stale) {
      await this.deps.store.abortMultipart(upload.blobKey, upload.driverUploadId).catch(() => undefined);
      await this.deps.repository.setStatus(upload.id, 'aborted');
    }
    return stale.length;
  }

  private present(upload: UploadRow, parts: { partNumber: number; etag: string; size: number }[]): UploadSession {
    return {
      id: upload.id,
      size: upload.size,
      partSize: upload.partSize,
      partCount: partCount(upload),
      // A session the server filled itself reads as open until it completes: no part is missing.
      status: upload.status === 'stored' ? 'open' : upload.status,
      parts: parts.map(({ partNumber, etag, size }) => ({ partNumber, etag, size })),
    };
  }
}
