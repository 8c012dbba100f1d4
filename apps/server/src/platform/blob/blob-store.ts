import { MESSAGES } from '@mixroom/shared';
import { DomainError } from '../errors/domain-error';
import type { Readable } from 'node:stream';

export interface ByteRange {
  start: number;
  /** Inclusive, as in HTTP Range. */
  end: number;
}

export interface BlobInfo {
  size: number;
}

export interface SignOptions {
  expiresInSeconds: number;
}

/**
 * Signing as of a given instant makes a URL a pure function of its key, options and that instant:
 * callers that round the instant hand out the byte-identical URL again and again, so browsers
 * reuse what they cached for it instead of downloading it anew.
 */
export interface StableSignOptions {
  /** Sign as of this instant instead of now; `expiresInSeconds` counts from it. */
  signedAt?: Date;
  /** Browsers may keep the response this long (Cache-Control: private, max-age). */
  cacheSeconds?: number;
}

export interface DownloadSignOptions extends SignOptions, StableSignOptions {
  /** Offered to the browser as the saved file's name (Content-Disposition). */
  fileName?: string;
  contentType?: string;
}

/** An upload's local file as fillMultipart hands it to its filler. */
export interface PartialBlob {
  path: string;
  /** Bytes earlier attempts left at the file's start (0 for a new upload). */
  bytes: number;
  /** What the filler noted about their source (the file's version at the provider), or null. */
  note: string | null;
  setNote(note: string): Promise<void>;
}

export interface CompletedPart {
  partNumber: number;
  etag: string;
}

/**
 * Where file bytes live. Browsers move bytes directly through signed URLs with either driver, so
 * an app node carries no file bytes in the scaled setup. Keys are server-chosen ids, never names.
 */
export interface BlobStore {
  readonly driver: 'disk' | 's3';
  put(key: string, body: Buffer | Readable, contentType?: string): Promise<void>;
  /**
   * Fills a multipart upload's bytes as one local file, across attempts, for a copy that writes on
   * a thread of its own straight to disk: what an attempt wrote stays for the next one (a copy
   * resumes from it) until `fill` answers the file's whole size (it then becomes the key's blob) or
   * the upload is aborted (it goes with it). `fill` answers null when it wrote nothing after all:
   * the partial stays and fillMultipart answers false. Absent where blobs are not local files (S3).
   */
  fillMultipart?(
    key: string,
    uploadId: string,
    fill: (partial: PartialBlob) => Promise<number | null>,
  ): Promise<boolean>;
  get(key: string, range?: ByteRange): Promise<Readable>;
  head(key: string): Promise<BlobInfo | null>;
  delete(key: string): Promise<void>;
  /** Deletes every blob whose key starts with the prefix. */
  deletePrefix(prefix: string): Promise<number>;
  signUploadUrl(key: string, options: SignOptions): Promise<string>;
  signDownloadUrl(key: string, options: DownloadSignOptions): Promise<string>;
  /** `partSize` lets a store place parts directly (the disk driver writes each at its offset). */
  /** `size` is the whole file's declared size: no part may hold more than its share of it. */
  createMultipart(key: string, options?: { partSize: number; size?: number }): Promise<string>;
  /** `contentLength`, where the driver can sign it, makes the store refuse a body of another size. */
  signPartUrl(
    key: string,
    uploadId: string,
    partNumber: number,
    options: SignOptions & { contentLength?: number },
  ): Promise<string>;
  completeMultipart(key: string, uploadId: string, parts: CompletedPart[]): Promise<void>;
  /**
   * The bytes the store holds for a part written with `etag`, or null when it can't tell cheaply
   * (S3 refuses a body whose length differs from the signed one, so there it is never wrong).
   */
  storedPartSize(key: string, uploadId: string, partNumber: number, etag: string): Promise<number | null>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /** A cheap round trip for the health check. */
  check(): Promise<void>;
}

/** Keys are ours, but guard the disk driver against traversal anyway. */
export function assertSafeKey(key: string): void {
  if (
    !/^[A-Za-z0-9][A-Za-z0-9._/-]{0,511}$/.test(key) ||
    key.split('/').some((s) => s === '..' || s === '.' || s === '')
  ) {
    throw new Error(`Invalid blob key: ${key}`);
  }
}

/**
 * `get` of a key that holds nothing (never written, or removed between a listing and the read):
 * a missing file, answered 404 wherever it surfaces, never a server error.
 */
export class BlobMissingError extends DomainError {
  constructor() {
    super(404, 'NOT_FOUND', MESSAGES.notFound);
  }
}

/** A part sent to an upload that was completed or cancelled: its URL may still be signed, but nothing lands. */
export class UploadClosedError extends DomainError {
  constructor() {
    super(410, 'UPLOAD_CLOSED', 'This upload is already finished or was cancelled: the part was not stored.');
  }
}

/** A part's body is longer than the share of the declared size it was signed for (answers 413). */
export class PartTooLargeError extends DomainError {
  constructor(readonly limit: number) {
    super(413, 'PART_TOO_LARGE', `This part may hold at most ${limit} bytes.`);
  }
}
