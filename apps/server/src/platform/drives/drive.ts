import type { Readable } from 'node:stream';
import type { ByteRange } from '../blob/blob-store';

/** One file or folder in a linked drive, as the browser shows it. Paths start with '/' and name no drive. */
export interface DriveEntry {
  path: string;
  name: string;
  kind: 'file' | 'folder';
  /** Bytes; null for folders and when the provider does not say. */
  size: number | null;
  modifiedAt: string | null;
  contentType: string | null;
}

export interface DriveListing {
  path: string;
  entries: DriveEntry[];
}

export interface DriveSearch {
  entries: DriveEntry[];
  /** More matched than the limit: the user should type more of the name. */
  truncated: boolean;
}

export interface DriveRead {
  body: Readable;
  /** Bytes the body will carry (the range's length for a ranged read). */
  length: number;
  /** The whole file's size. */
  size: number;
}

/**
 * A read as one plain GET that can be sent again from elsewhere (another thread): the URL and the
 * headers that authorise it, already signed. It carries credentials: it never leaves the server.
 */
export interface DriveGet {
  url: URL;
  headers: Record<string, string>;
}

/** What linking proved: the account's name as the provider tells it, shown in Settings. */
export interface DriveAccount {
  name: string;
}

/**
 * One linked storage account (a WebDAV server, an S3 bucket, a Dropbox or Google Drive), as every
 * part of the server uses it: the connectors module knows no provider's wire format. Every call goes
 * through the guarded outbound fetch; failures are DriveErrors with a message a user can act on.
 */
export interface Drive {
  /** Checks the credentials with one cheap call and names the account. */
  account(): Promise<DriveAccount>;
  /** A folder's direct children, folders first then by name; `search` keeps those whose name matches. */
  list(path: string, options?: { search?: string; signal?: AbortSignal }): Promise<DriveListing>;
  /** True when the provider offers `search` over the whole account (else only a folder is filtered). */
  readonly searchable: boolean;
  /**
   * Files and folders anywhere in the account whose name matches `query` by the provider's own rules,
   * each with its full path; at most `limit`. Absent where the provider offers no search; null when
   * the server turned out not to offer it after all (the open folder is filtered instead).
   */
  search?(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DriveSearch | null>;
  stat(path: string, signal?: AbortSignal): Promise<DriveEntry>;
  read(path: string, options?: { range?: ByteRange; signal?: AbortSignal }): Promise<DriveRead>;
  /**
   * The GET that `read` sends (with a fresh token where the provider wants one, the file's id looked
   * up where paths are not addresses), for a copy that moves the bytes on a thread of its own.
   */
  getRequest?(path: string, range?: ByteRange): Promise<DriveGet>;
  /** Writes `size` bytes from `body` to `path`, replacing a file there; parent folders must exist. */
  write(path: string, body: Readable, size: number, signal?: AbortSignal): Promise<void>;
  /** Creates a folder (and nothing when it exists). */
  makeFolder(path: string, signal?: AbortSignal): Promise<void>;
  /**
   * Removes what a failed `write` may have left at `path`, on providers whose writes are not atomic
   * (a WebDAV server may keep the part of a PUT it got). Absent where a cut write leaves nothing
   * (S3, Dropbox's and Google's uploads). Only for paths Mixroom chose to be new.
   */
  discard?(path: string, signal?: AbortSignal): Promise<void>;
}

/** A drive whose access ends on the provider's side when unlinked (OAuth tokens are revoked). */
export interface RevocableDrive extends Drive {
  revoke(): Promise<void>;
}

/** Sorts a listing as the browser shows it: folders first, then by name (case-insensitive). */
export function sortEntries(entries: DriveEntry[]): DriveEntry[] {
  return [...entries].sort((a, b) =>
    a.kind === b.kind ? a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) : a.kind === 'folder' ? -1 : 1,
  );
}

/** Normalises a user's path: leading '/', no trailing '/', no '.', '..' or empty segments. */
export function normalisePath(path: string): string {
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) throw new Error('A path may not climb out of its drive');
  return `/${segments.join('/')}`;
}

export function lastSegment(path: string): string {
  return path.split('/').filter(Boolean).pop() ?? '';
}
