import type { Readable } from 'node:stream';
import type { ByteRange } from '../blob/blob-store';
import type { OutboundResponse } from '../net/outbound-fetch';
import {
  lastSegment,
  normalisePath,
  sortEntries,
  type DriveAccount,
  type DriveEntry,
  type DriveGet,
  type DriveListing,
  type DriveRead,
  type DriveSearch,
  type RevocableDrive,
} from './drive';
import { DriveError } from './drive-error';
import { discard, driveFetch, FILE_ANSWER_BYTES, readText, type DriveNetwork } from './drive-http';
import { ChunkReader } from './read-chunk';
import { revokedOr, type OAuthAppConfig, type OAuthSession } from './oauth-session';

/** Dropbox's single-call upload takes at most 150 MB; larger files go through an upload session. */
export const DROPBOX_SINGLE_UPLOAD_BYTES = 150 * 1024 * 1024;
/** Bytes per upload-session call: a multiple of 4 MiB, as Dropbox asks. */
export const DROPBOX_CHUNK_BYTES = 8 * 1024 * 1024;

interface DropboxMetadata {
  '.tag'?: string;
  name?: string;
  path_display?: string;
  size?: number;
  server_modified?: string;
}

/**
 * Dropbox's header arguments must be ASCII: every other character is written as a \u escape, as
 * Dropbox documents for Dropbox-API-Arg.
 */
function headerArg(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A Dropbox account through its HTTP API v2: RPC calls (JSON in and out) on the API host, file bytes
 * on the content host. Paths are Dropbox's own ('' is the root). Errors come as 409 with an
 * error_summary; a missing path is `path/not_found/…` or `path_lookup/not_found/…`.
 */
export class DropboxDrive implements RevocableDrive {
  readonly searchable = true;

  constructor(
    private readonly app: OAuthAppConfig,
    private readonly session: OAuthSession,
    private readonly network: DriveNetwork,
    private readonly options: { singleUploadBytes?: number; chunkBytes?: number } = {},
  ) {}

  /** An RPC call: JSON body (or none), JSON answer; a 401 refreshes the token once. */
  private async rpc<T>(route: string, args: unknown, signal?: AbortSignal): Promise<T> {
    const answer = await this.session.call((token) =>
      driveFetch(new URL(`${this.app.apiUrl}/2/${route}`), this.network, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          ...(args === null ? {} : { 'content-type': 'application/json' }),
        },
        ...(args === null ? {} : { body: Buffer.from(JSON.stringify(args)) }),
        ...(signal ? { signal } : {}),
      }),
    );
    const text = await readText(answer);
    if (answer.status !== 200) throw this.errorOf(answer.status, text);
    return JSON.parse(text) as T;
  }

  private errorOf(status: number, text: string): DriveError {
    if (status === 409 && /not_found/.test(text)) return DriveError.notFound();
    if (status === 409 && /insufficient_space/.test(text)) return DriveError.fromStatus(507);
    if (status === 409) return new DriveError(422, 'DRIVE_CONFLICT', DriveError.fromStatus(403).message);
    return revokedOr(status);
  }

  private entryOf(m: DropboxMetadata): DriveEntry {
    const folder = m['.tag'] === 'folder';
    return {
      path: normalisePath(m.path_display ?? `/${m.name ?? ''}`),
      name: m.name ?? lastSegment(m.path_display ?? ''),
      kind: folder ? 'folder' : 'file',
      size: folder ? null : typeof m.size === 'number' ? m.size : null,
      modifiedAt: folder ? null : (m.server_modified ?? null),
      contentType: null,
    };
  }

  /** Dropbox names the root '' and every other folder by its path. */
  private pathArg(path: string): string {
    const normal = normalisePath(path);
    return normal === '/' ? '' : normal;
  }

  async account(): Promise<DriveAccount> {
    const answer = await this.rpc<{ name?: { display_name?: string }; email?: string }>(
      'users/get_current_account',
      null,
    );
    return { name: answer.email ?? answer.name?.display_name ?? 'Dropbox account' };
  }

  async list(path: string, options: { search?: string; signal?: AbortSignal } = {}): Promise<DriveListing> {
    const folder = normalisePath(path);
    const search = options.search?.trim();
    if (search) {
      const found = await this.find(search, { path: this.pathArg(folder), limit: 1000 }, options.signal);
      return { path: folder, entries: found.entries };
    }
    const entries: DriveEntry[] = [];
    let page = await this.rpc<{ entries: DropboxMetadata[]; cursor: string; has_more: boolean }>(
      'files/list_folder',
      { path: this.pathArg(folder) },
      options.signal,
    );
    for (;;) {
      for (const m of page.entries) if (m['.tag'] === 'file' || m['.tag'] === 'folder') entries.push(this.entryOf(m));
      if (!page.has_more) break;
      page = await this.rpc('files/list_folder/continue', { cursor: page.cursor }, options.signal);
    }
    return { path: folder, entries: sortEntries(entries) };
  }

  /** The whole account searched by name (files/search_v2 without a path scope). */
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DriveSearch> {
    return this.find(query, { path: null, limit: options.limit }, options.signal);
  }

  /**
   * files/search_v2, names only (Dropbox's own matching), below `path` or everywhere when null; its
   * pages are followed with files/search/continue_v2 until `limit` hits. Each hit carries its path.
   */
  private async find(
    query: string,
    scope: { path: string | null; limit: number },
    signal?: AbortSignal,
  ): Promise<DriveSearch> {
    type SearchPage = { matches: { metadata?: { metadata?: DropboxMetadata } }[]; has_more: boolean; cursor?: string };
    const entries: DriveEntry[] = [];
    let page = await this.rpc<SearchPage>(
      'files/search_v2',
      {
        query,
        options: {
          ...(scope.path === null ? {} : { path: scope.path }),
          // Dropbox takes 1 to 1000 results a page.
          max_results: Math.min(Math.max(scope.limit + 1, 1), 1000),
          filename_only: true,
        },
      },
      signal,
    );
    for (;;) {
      for (const m of page.matches) {
        const found = m.metadata?.metadata;
        if (found && (found['.tag'] === 'file' || found['.tag'] === 'folder')) entries.push(this.entryOf(found));
      }
      if (entries.length > scope.limit || !page.has_more || !page.cursor) break;
      page = await this.rpc<SearchPage>('files/search/continue_v2', { cursor: page.cursor }, signal);
    }
    return {
      entries: sortEntries(entries.slice(0, scope.limit)),
      truncated: entries.length > scope.limit || page.has_more,
    };
  }

  async stat(path: string, signal?: AbortSignal): Promise<DriveEntry> {
    const normal = normalisePath(path);
    if (normal === '/') return { path: '/', name: '', kind: 'folder', size: null, modifiedAt: null, contentType: null };
    return this.entryOf(await this.rpc<DropboxMetadata>('files/get_metadata', { path: normal }, signal));
  }

  /**
   * The download as one GET (content-download endpoints take GET with the argument in the
   * Dropbox-API-Arg header, and Range), with a token fresh for the next minutes.
   */
  async getRequest(path: string, range?: ByteRange): Promise<DriveGet> {
    return {
      url: new URL(`${this.app.contentUrl}/2/files/download`),
      headers: {
        authorization: `Bearer ${await this.session.accessToken()}`,
        'dropbox-api-arg': headerArg({ path: normalisePath(path) }),
        'accept-encoding': 'identity',
        ...(range ? { range: `bytes=${range.start}-${range.end}` } : {}),
      },
    };
  }

  async read(path: string, options: { range?: ByteRange; signal?: AbortSignal } = {}): Promise<DriveRead> {
    const { range, signal } = options;
    const answer = await this.session.call((token) =>
      driveFetch(new URL(`${this.app.contentUrl}/2/files/download`), this.network, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'dropbox-api-arg': headerArg({ path: normalisePath(path) }),
          'accept-encoding': 'identity',
          ...(range ? { range: `bytes=${range.start}-${range.end}` } : {}),
        },
        maxBytes: FILE_ANSWER_BYTES,
        ...(signal ? { signal } : {}),
      }),
    );
    if (answer.status !== 200 && answer.status !== 206) throw this.errorOf(answer.status, await readText(answer));
    let length = Number(answer.headers['content-length']);
    let size = Number.NaN;
    try {
      size = Number((JSON.parse(String(answer.headers['dropbox-api-result'] ?? '{}')) as DropboxMetadata).size);
    } catch {
      // The size is then read from the range's total below.
    }
    if (!Number.isFinite(size)) size = Number(/\/(\d+)$/.exec(String(answer.headers['content-range'] ?? ''))?.[1]);
    // A chunked answer names no length: the range's bounds or the file's size say it.
    if (!Number.isFinite(length)) length = range ? Math.min(range.end, size - 1) - range.start + 1 : size;
    if (!Number.isFinite(length) || !Number.isFinite(size) || (range && answer.status !== 206)) {
      discard(answer);
      throw DriveError.fromStatus(range ? 416 : 411);
    }
    return { body: answer.body, length, size };
  }

  /** A content call with a streamed or chunked body: it can't be repeated, so a 401 is final. */
  private async content(route: string, arg: unknown, body: Buffer | Readable, size: number, signal?: AbortSignal) {
    const answer: OutboundResponse = await driveFetch(new URL(`${this.app.contentUrl}/2/${route}`), this.network, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await this.session.accessToken()}`,
        'dropbox-api-arg': headerArg(arg),
        'content-type': 'application/octet-stream',
        'content-length': String(size),
      },
      body,
      ...(signal ? { signal } : {}),
    });
    const text = await readText(answer);
    if (answer.status !== 200) throw this.errorOf(answer.status, text);
    return text;
  }

  async write(path: string, body: Readable, size: number, signal?: AbortSignal): Promise<void> {
    const target = normalisePath(path);
    const commit = { path: target, mode: 'overwrite', mute: true };
    if (size <= (this.options.singleUploadBytes ?? DROPBOX_SINGLE_UPLOAD_BYTES)) {
      await this.content('files/upload', commit, body, size, signal);
      return;
    }
    // An upload session: chunks appended in order; the file appears only at finish, so a failed
    // copy leaves nothing half written in the account.
    const chunkBytes = this.options.chunkBytes ?? DROPBOX_CHUNK_BYTES;
    const reader = new ChunkReader(body);
    let offset = 0;
    let sessionId: string | null = null;
    try {
      for (;;) {
        const want = Math.min(chunkBytes, size - offset);
        const chunk = await reader.next(want);
        if (chunk.length < want) throw new DriveError(409, 'FILE_CHANGED', 'The file ended before its size.');
        const last = offset + chunk.length >= size;
        if (sessionId === null) {
          const started = JSON.parse(
            await this.content('files/upload_session/start', { close: false }, chunk, chunk.length, signal),
          ) as { session_id: string };
          sessionId = started.session_id;
          offset += chunk.length;
          if (last) {
            await this.content(
              'files/upload_session/finish',
              { cursor: { session_id: sessionId, offset }, commit },
              Buffer.alloc(0),
              0,
              signal,
            );
            return;
          }
        } else if (last) {
          // The last piece goes with finish; the cursor's offset counts the bytes sent before it.
          await this.content(
            'files/upload_session/finish',
            { cursor: { session_id: sessionId, offset }, commit },
            chunk,
            chunk.length,
            signal,
          );
          return;
        } else {
          await this.content(
            'files/upload_session/append_v2',
            { cursor: { session_id: sessionId, offset }, close: false },
            chunk,
            chunk.length,
            signal,
          );
          offset += chunk.length;
        }
      }
    } finally {
      body.destroy();
    }
  }

  async makeFolder(path: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.rpc('files/create_folder_v2', { path: normalisePath(path), autorename: false }, signal);
    } catch (error) {
      // A conflict: something is there already (a folder, as the caller then finds when it writes into it).
      if (error instanceof DriveError && error.code === 'DRIVE_CONFLICT') return;
      throw error;
    }
  }

  /** POST /2/auth/token/revoke with the access token (refreshed first: an expired token can't revoke). */
  async revoke(): Promise<void> {
    await this.rpc('auth/token/revoke', null);
  }
}
