import type { Readable } from 'node:stream';
import type { ByteRange } from '../blob/blob-store';
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
import { GdriveFolderPaths, type GoogleParentInfo } from './gdrive-folder-paths';
import { inDrive, listSharedDrives, SHARED_DRIVES, SHARED_DRIVES_ID, type SharedDrive } from './gdrive-shared-drives';
import { revokedOr, type OAuthAppConfig, type OAuthSession } from './oauth-session';

const FOLDER = 'application/vnd.google-apps.folder';
const FIELDS = 'id,name,mimeType,size,modifiedTime';
/** files.list pages a search reads at most: hits outside My Drive are skipped, so a page may add none. */
const SEARCH_PAGES = 10;

interface GoogleFile {
  id: string;
  name: string;
  mimeType?: string;
  size?: string;
  modifiedTime?: string;
  parents?: string[];
  /** The shared drive an item is in (Drive names it; Mixroom carries it down a walked path). */
  driveId?: string;
}

const ROOT: GoogleFile = { id: 'root', name: '', mimeType: FOLDER };
const SHARED_FOLDER: GoogleFile = { id: SHARED_DRIVES_ID, name: SHARED_DRIVES, mimeType: FOLDER };
/** Every files call may touch an item of a shared drive: Drive answers 404 for those without this. */
const ALL_DRIVES = { supportsAllDrives: 'true' };

/** A literal inside a Drive query: backslashes and quotes escaped, as the query language asks. */
const literal = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * A Google Drive (API v3). Drive addresses files by id, not path, so a path is walked from 'root'
 * one name at a time (files.list with "'<parent>' in parents and name = …"); where a folder holds two
 * items of the same name, the first Drive lists is the one used. Shared drives are under the folder
 * "Shared drives" (gdrive-shared-drives.ts). Google Docs, Sheets and the like have no bytes of their
 * own (no size) and can't be copied.
 */
export class GdriveDrive implements RevocableDrive {
  readonly searchable = true;

  constructor(
    private readonly app: OAuthAppConfig,
    private readonly session: OAuthSession,
    private readonly network: DriveNetwork,
  ) {}

  /** The account's shared drives, asked once per driver (a driver serves one request or one job). */
  private drives: Promise<SharedDrive[]> | null = null;

  private sharedDrives(signal?: AbortSignal): Promise<SharedDrive[]> {
    this.drives ??= listSharedDrives((pageToken) =>
      this.json(
        this.api('drives', {
          pageSize: '100',
          fields: 'nextPageToken,drives(id,name)',
          ...(pageToken ? { pageToken } : {}),
        }),
        signal ? { signal } : {},
      ),
    );
    const asked = this.drives;
    // A failed ask is not kept: the next call asks again.
    asked.catch(() => {
      if (this.drives === asked) this.drives = null;
    });
    return asked;
  }

  private async json<T>(url: URL, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
    const answer = await this.session.call((token) =>
      driveFetch(url, this.network, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json; charset=UTF-8' }),
        },
        ...(init.body === undefined ? {} : { body: Buffer.from(JSON.stringify(init.body)) }),
        ...(init.signal ? { signal: init.signal } : {}),
      }),
    );
    const text = await readText(answer);
    if (answer.status !== 200) throw revokedOr(answer.status);
    return JSON.parse(text) as T;
  }

  private api(path: string, query: Record<string, string> = {}): URL {
    const url = new URL(`${this.app.apiUrl}/drive/v3/${path}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url;
  }

  private entryOf(folder: string, f: GoogleFile): DriveEntry {
    const isFolder = f.mimeType === FOLDER;
    const size = f.size === undefined ? null : Number(f.size);
    return {
      path: normalisePath(`${folder}/${f.name}`),
      name: f.name,
      kind: isFolder ? 'folder' : 'file',
      size: isFolder || size === null || !Number.isFinite(size) ? null : size,
      modifiedAt: isFolder ? null : (f.modifiedTime ?? null),
      contentType: isFolder ? null : (f.mimeType ?? null),
    };
  }

  /** One page of a files.list query (in one shared drive when `scope` names one). */
  private page(
    q: string,
    fields: string,
    pageSize: number,
    pageToken: string | null,
    options: { scope?: Record<string, string>; signal?: AbortSignal } = {},
  ) {
    return this.json<{ files?: GoogleFile[]; nextPageToken?: string }>(
      this.api('files', {
        q,
        fields: `nextPageToken,files(${fields})`,
        pageSize: String(pageSize),
        ...(options.scope ?? {}),
        ...(pageToken ? { pageToken } : {}),
      }),
      options.signal ? { signal: options.signal } : {},
    );
  }

  /** Every page of a files.list query among the children of `parent` (its drive's items). */
  private async query(parent: GoogleFile, q: string, signal?: AbortSignal): Promise<GoogleFile[]> {
    const files: GoogleFile[] = [];
    const scope = inDrive(parent.driveId ?? null);
    let pageToken: string | null = null;
    do {
      const page = await this.page(q, FIELDS, 1000, pageToken, { scope, ...(signal ? { signal } : {}) });
      files.push(...(page.files ?? []).map((f) => (parent.driveId ? { ...f, driveId: parent.driveId } : f)));
      pageToken = page.nextPageToken ?? null;
    } while (pageToken);
    return files;
  }

  private async child(parent: GoogleFile, name: string, signal?: AbortSignal): Promise<GoogleFile | null> {
    const q = `${literal(parent.id)} in parents and name = ${literal(name)} and trashed=false`;
    const [found] = await this.query(parent, q, signal);
    return found ?? null;
  }

  /** The file at a path, walked from the root (or a shared drive's); null when a segment is missing. */
  private async resolve(path: string, signal?: AbortSignal): Promise<GoogleFile | null> {
    let segments = normalisePath(path).split('/').filter(Boolean);
    let current = ROOT;
    if (segments[0] === SHARED_DRIVES) {
      const drives = await this.sharedDrives(signal);
      if (drives.length > 0) {
        if (segments.length === 1) return SHARED_FOLDER;
        const drive = drives.find((d) => d.name === segments[1]);
        if (!drive) return null;
        current = { id: drive.id, name: drive.name, mimeType: FOLDER, driveId: drive.id };
        segments = segments.slice(2);
      }
    }
    for (const segment of segments) {
      if (current.mimeType !== FOLDER) return null;
      const next = await this.child(current, segment, signal);
      if (!next) return null;
      current = next;
    }
    return current;
  }

  /** A folder that can hold files: "Shared drives" itself holds only drives. */
  private async folder(path: string, signal?: AbortSignal): Promise<GoogleFile> {
    return this.asFolder(await this.resolve(path, signal));
  }

  private asFolder(folder: GoogleFile | null): GoogleFile {
    if (!folder) throw DriveError.notFound();
    if (folder.mimeType !== FOLDER) throw DriveError.badRequest('Pick a folder.', 'NOT_A_FOLDER');
    if (folder.id === SHARED_DRIVES_ID)
      throw DriveError.badRequest('Pick a folder inside one of the shared drives.', 'NOT_A_FOLDER');
    return folder;
  }

  async account(): Promise<DriveAccount> {
    const answer = await this.json<{ user?: { displayName?: string; emailAddress?: string } }>(
      this.api('about', { fields: 'user' }),
    );
    return { name: answer.user?.emailAddress ?? answer.user?.displayName ?? 'Google Drive' };
  }

  async list(path: string, options: { search?: string; signal?: AbortSignal } = {}): Promise<DriveListing> {
    const folder = normalisePath(path);
    const { signal } = options;
    const search = options.search?.trim();
    const found = await this.resolve(folder, signal);
    if (found?.id === SHARED_DRIVES_ID) {
      const wanted = search?.toLowerCase();
      const drives = (await this.sharedDrives(signal)).filter((d) => !wanted || d.name.toLowerCase().includes(wanted));
      return {
        path: folder,
        entries: sortEntries(drives.map((d) => this.entryOf(folder, { ...d, mimeType: FOLDER }))),
      };
    }
    const parent = this.asFolder(found);
    const q = `${literal(parent.id)} in parents and trashed=false${search ? ` and name contains ${literal(search)}` : ''}`;
    let files = await this.query(parent, q, signal);
    // At the root, the folder "Shared drives" joins My Drive's items where the account has any.
    if (folder === '/' && !search && (await this.sharedDrives(signal)).length > 0)
      files = [...files.filter((f) => f.name !== SHARED_DRIVES), SHARED_FOLDER];
    return { path: folder, entries: sortEntries(files.map((f) => this.entryOf(folder, f))) };
  }

  /**
   * My Drive and every shared drive searched by name: files.list over all drives with "name contains"
   * (Drive matches the start of each word of a name, case-insensitively) and no parent clause. Drive
   * answers with parent ids, so each hit's folder is walked up to My Drive's root or a shared drive's
   * to give its path; files shared with the user from others' folders have none and are left out.
   */
  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DriveSearch> {
    const { limit, signal } = options;
    const q = `name contains ${literal(query)} and trashed = false`;
    const [root, drives] = await Promise.all([
      this.json<{ id: string }>(this.api('files/root', { fields: 'id' }), signal ? { signal } : {}),
      this.sharedDrives(signal),
    ]);
    const tops = new Map([
      [root.id, '/'],
      ['root', '/'],
      ...drives.map((d): [string, string] => [d.id, `/${SHARED_DRIVES}/${d.name}`]),
    ]);
    const folders = new GdriveFolderPaths(tops, (id) =>
      this.json<GoogleParentInfo>(
        this.api(`files/${encodeURIComponent(id)}`, { fields: 'id,name,parents', ...ALL_DRIVES }),
        signal ? { signal } : {},
      ),
    );
    const scope = { corpora: 'allDrives', includeItemsFromAllDrives: 'true', ...ALL_DRIVES };
    const entries: DriveEntry[] = [];
    let pageToken: string | null = null;
    for (let pages = 0; pages < SEARCH_PAGES; pages += 1) {
      const page = await this.page(q, `${FIELDS},parents`, Math.min(limit + 1, 1000), pageToken, {
        scope,
        ...(signal ? { signal } : {}),
      });
      const placed = await Promise.all(
        (page.files ?? []).map(async (f) => {
          const parent = f.parents?.[0];
          const folder = parent ? await folders.pathOf(parent) : null;
          return folder === null ? null : this.entryOf(folder, f);
        }),
      );
      for (const entry of placed) if (entry) entries.push(entry);
      pageToken = page.nextPageToken ?? null;
      if (entries.length > limit || !pageToken) break;
    }
    return { entries: sortEntries(entries.slice(0, limit)), truncated: entries.length > limit || pageToken !== null };
  }

  async stat(path: string, signal?: AbortSignal): Promise<DriveEntry> {
    const normal = normalisePath(path);
    const file = await this.resolve(normal, signal);
    if (!file) throw DriveError.notFound();
    if (normal === '/') return { path: '/', name: '', kind: 'folder', size: null, modifiedAt: null, contentType: null };
    return this.entryOf(normal.slice(0, normal.length - lastSegment(normal).length), file);
  }

  /** The media GET of the file the path names (looked up first), with a token fresh for the next minutes. */
  async getRequest(path: string, range?: ByteRange): Promise<DriveGet> {
    const file = await this.resolve(path);
    if (!file) throw DriveError.notFound();
    if (file.mimeType === FOLDER) throw DriveError.badRequest('This is a folder, not a file.', 'NOT_A_FILE');
    return {
      url: this.api(`files/${encodeURIComponent(file.id)}`, { alt: 'media', ...ALL_DRIVES }),
      headers: {
        authorization: `Bearer ${await this.session.accessToken()}`,
        'accept-encoding': 'identity',
        ...(range ? { range: `bytes=${range.start}-${range.end}` } : {}),
      },
    };
  }

  async read(path: string, options: { range?: ByteRange; signal?: AbortSignal } = {}): Promise<DriveRead> {
    const { range, signal } = options;
    const file = await this.resolve(path, signal);
    if (!file) throw DriveError.notFound();
    if (file.mimeType === FOLDER) throw DriveError.badRequest('This is a folder, not a file.', 'NOT_A_FILE');
    const answer = await this.session.call((token) =>
      driveFetch(this.api(`files/${encodeURIComponent(file.id)}`, { alt: 'media', ...ALL_DRIVES }), this.network, {
        headers: {
          authorization: `Bearer ${token}`,
          'accept-encoding': 'identity',
          ...(range ? { range: `bytes=${range.start}-${range.end}` } : {}),
        },
        maxBytes: FILE_ANSWER_BYTES,
        ...(signal ? { signal } : {}),
      }),
    );
    if (answer.status !== 200 && answer.status !== 206) {
      discard(answer);
      throw revokedOr(answer.status);
    }
    let length = Number(answer.headers['content-length']);
    const size =
      answer.status === 206
        ? Number(/\/(\d+)$/.exec(String(answer.headers['content-range'] ?? ''))?.[1])
        : file.size !== undefined
          ? Number(file.size)
          : length;
    // A chunked answer names no length: the range's bounds or the file's size say it.
    if (!Number.isFinite(length)) length = range ? Math.min(range.end, size - 1) - range.start + 1 : size;
    if (!Number.isFinite(length) || !Number.isFinite(size) || (range && answer.status !== 206)) {
      discard(answer);
      throw DriveError.fromStatus(range ? 416 : 411);
    }
    return { body: answer.body, length, size };
  }

  /**
   * A resumable upload: a session is opened (a new file in the folder, or the existing file of that
   * name replaced), then the bytes go in one PUT. The file's content changes only when the PUT
   * completes, so a failed copy leaves nothing half written.
   */
  async write(path: string, body: Readable, size: number, signal?: AbortSignal): Promise<void> {
    const target = normalisePath(path);
    const name = lastSegment(target);
    const parent = await this.folder(target.slice(0, target.length - name.length) || '/', signal);
    const existing = await this.child(parent, name, signal);
    const url = new URL(
      existing
        ? `${this.app.contentUrl}/upload/drive/v3/files/${encodeURIComponent(existing.id)}`
        : `${this.app.contentUrl}/upload/drive/v3/files`,
    );
    url.searchParams.set('uploadType', 'resumable');
    url.searchParams.set('supportsAllDrives', 'true');
    const opened = await this.session.call((token) =>
      driveFetch(url, this.network, {
        method: existing ? 'PATCH' : 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json; charset=UTF-8',
          'x-upload-content-type': 'application/octet-stream',
          'x-upload-content-length': String(size),
        },
        body: Buffer.from(JSON.stringify(existing ? {} : { name, parents: [parent.id] })),
        ...(signal ? { signal } : {}),
      }),
    );
    discard(opened);
    const location = opened.headers.location;
    if (opened.status !== 200 || typeof location !== 'string')
      throw revokedOr(opened.status === 200 ? 502 : opened.status);
    const sessionUrl = new URL(location, url);
    const sent = await driveFetch(sessionUrl, this.network, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${await this.session.accessToken()}`,
        'content-length': String(size),
        'content-type': 'application/octet-stream',
      },
      body,
      ...(signal ? { signal } : {}),
    });
    discard(sent);
    if (sent.status !== 200 && sent.status !== 201) throw revokedOr(sent.status);
  }

  async makeFolder(path: string, signal?: AbortSignal): Promise<void> {
    const target = normalisePath(path);
    const name = lastSegment(target);
    const parent = await this.folder(target.slice(0, target.length - name.length) || '/', signal);
    if (await this.child(parent, name, signal)) return;
    await this.json(this.api('files', { fields: 'id', ...ALL_DRIVES }), {
      method: 'POST',
      body: { name, mimeType: FOLDER, parents: [parent.id] },
      ...(signal ? { signal } : {}),
    });
  }

  /** POST oauth2.googleapis.com/revoke with the refresh token: it ends every access token with it. */
  async revoke(): Promise<void> {
    const tokens = this.session.current;
    const answer = await driveFetch(new URL(this.app.revokeUrl), this.network, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(new URLSearchParams({ token: tokens.refreshToken ?? tokens.accessToken }).toString()),
    });
    discard(answer);
    if (answer.status !== 200) throw DriveError.fromStatus(answer.status);
  }
}
