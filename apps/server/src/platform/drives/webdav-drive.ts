import type { Readable } from 'node:stream';
import type { ByteRange } from '../blob/blob-store';
import {
  lastSegment,
  normalisePath,
  sortEntries,
  type Drive,
  type DriveAccount,
  type DriveEntry,
  type DriveListing,
  type DriveRead,
} from './drive';
import { DriveError } from './drive-error';
import { checkProviderUrl, discard, driveFetch, FILE_ANSWER_BYTES, readText, type DriveNetwork } from './drive-http';
import { elements, has, text } from './xml-reader';

export interface WebdavCredentials {
  /** The WebDAV root, e.g. https://cloud.example.com/remote.php/dav/files/alice/ on Nextcloud. */
  url: string;
  username: string;
  /** An app password, preferably: it can be revoked on the server without changing the account's. */
  password: string;
}

const PROPFIND_BODY = Buffer.from(
  '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>' +
    '<d:resourcetype/><d:getcontentlength/><d:getlastmodified/><d:getcontenttype/>' +
    '</d:prop></d:propfind>',
);

/** Nextcloud, ownCloud or any WebDAV server (RFC 4918), with Basic authentication. */
export class WebdavDrive implements Drive {
  readonly searchable = false;
  private readonly root: URL;
  private readonly authorization: string;

  constructor(
    private readonly credentials: WebdavCredentials,
    private readonly network: DriveNetwork,
  ) {
    const root = checkProviderUrl(credentials.url, network);
    if (!root.pathname.endsWith('/')) root.pathname += '/';
    root.search = '';
    root.hash = '';
    this.root = root;
    this.authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  }

  private urlOf(path: string): URL {
    const segments = normalisePath(path).split('/').filter(Boolean).map(encodeURIComponent);
    return new URL(segments.join('/'), this.root);
  }

  private async propfind(path: string, depth: 0 | 1, signal?: AbortSignal): Promise<string> {
    const answer = await driveFetch(this.urlOf(path), this.network, {
      method: 'PROPFIND',
      headers: { authorization: this.authorization, depth: String(depth), 'content-type': 'application/xml' },
      body: PROPFIND_BODY,
      ...(signal ? { signal } : {}),
    });
    if (answer.status !== 207) {
      discard(answer);
      throw DriveError.fromStatus(answer.status);
    }
    return readText(answer);
  }

  /** The path of an href below the root, or null for an href outside it. */
  private pathOfHref(href: string): string | null {
    const url = new URL(href, this.root);
    if (!url.pathname.startsWith(this.root.pathname)) return null;
    const relative = url.pathname.slice(this.root.pathname.length);
    try {
      return normalisePath(relative.split('/').map(decodeURIComponent).join('/'));
    } catch {
      return null;
    }
  }

  private entriesOf(xml: string): DriveEntry[] {
    const entries: DriveEntry[] = [];
    for (const response of elements(xml, 'response')) {
      const href = text(response, 'href');
      const path = href ? this.pathOfHref(href) : null;
      if (path === null) continue;
      // Only the properties a server found (status 200) describe the item.
      const found = elements(response, 'propstat').find((p) => /\s200\s/.test(` ${text(p, 'status') ?? ''} `));
      const props = found ?? response;
      const folder = has(elements(props, 'resourcetype')[0] ?? '', 'collection');
      const length = text(props, 'getcontentlength');
      const modified = text(props, 'getlastmodified');
      const modifiedAt =
        modified && !Number.isNaN(Date.parse(modified)) ? new Date(Date.parse(modified)).toISOString() : null;
      entries.push({
        path,
        name: lastSegment(path) || '/',
        kind: folder ? 'folder' : 'file',
        size: folder || length === null || !/^\d+$/.test(length) ? null : Number(length),
        modifiedAt,
        contentType: folder ? null : text(props, 'getcontenttype'),
      });
    }
    return entries;
  }

  async account(): Promise<DriveAccount> {
    const [self] = this.entriesOf(await this.propfind('/', 0));
    if (self?.kind !== 'folder') throw DriveError.refused('This address is not a WebDAV folder.');
    return { name: `${this.credentials.username} on ${this.root.host}` };
  }

  async list(path: string, options: { search?: string; signal?: AbortSignal } = {}): Promise<DriveListing> {
    const folder = normalisePath(path);
    const entries = this.entriesOf(await this.propfind(folder, 1, options.signal)).filter((e) => e.path !== folder);
    const search = options.search?.trim().toLowerCase();
    return {
      path: folder,
      entries: sortEntries(search ? entries.filter((e) => e.name.toLowerCase().includes(search)) : entries),
    };
  }

  async stat(path: string, signal?: AbortSignal): Promise<DriveEntry> {
    const [entry] = this.entriesOf(await this.propfind(path, 0, signal));
    if (!entry) throw DriveError.notFound();
    return entry;
  }

  async read(path: string, options: { range?: ByteRange; signal?: AbortSignal } = {}): Promise<DriveRead> {
    const { range, signal } = options;
    const answer = await driveFetch(this.urlOf(path), this.network, {
      headers: {
        authorization: this.authorization,
        'accept-encoding': 'identity',
        ...(range ? { range: `bytes=${range.start}-${range.end}` } : {}),
      },
      maxBytes: FILE_ANSWER_BYTES,
      ...(signal ? { signal } : {}),
    });
    const length = Number(answer.headers['content-length']);
    if (answer.status === 206 && range) {
      const total = Number(/\/(\d+)$/.exec(String(answer.headers['content-range'] ?? ''))?.[1]);
      // Some servers answer "bytes a-b/*" (size unknown): the file's properties say it.
      const size = Number.isFinite(total) ? total : ((await this.stat(path, signal).catch(() => null))?.size ?? null);
      if (size === null) {
        discard(answer);
        throw DriveError.fromStatus(416);
      }
      return { body: answer.body, length, size };
    }
    if (answer.status === 200 && !range && Number.isFinite(length)) return { body: answer.body, length, size: length };
    discard(answer);
    if (answer.status === 200) throw DriveError.fromStatus(range ? 416 : 411);
    throw DriveError.fromStatus(answer.status);
  }

  async write(path: string, body: Readable, size: number, signal?: AbortSignal): Promise<void> {
    const answer = await driveFetch(this.urlOf(path), this.network, {
      method: 'PUT',
      headers: {
        authorization: this.authorization,
        'content-length': String(size),
        'content-type': 'application/octet-stream',
      },
      body,
      ...(signal ? { signal } : {}),
    });
    discard(answer);
    if (answer.status !== 200 && answer.status !== 201 && answer.status !== 204)
      throw DriveError.fromStatus(answer.status);
  }

  /** DELETE; a file already gone (404) is what was wanted. */
  async discard(path: string, signal?: AbortSignal): Promise<void> {
    const answer = await driveFetch(this.urlOf(path), this.network, {
      method: 'DELETE',
      headers: { authorization: this.authorization },
      ...(signal ? { signal } : {}),
    });
    discard(answer);
    if (answer.status !== 200 && answer.status !== 204 && answer.status !== 404)
      throw DriveError.fromStatus(answer.status);
  }

  async makeFolder(path: string, signal?: AbortSignal): Promise<void> {
    const answer = await driveFetch(this.urlOf(path), this.network, {
      method: 'MKCOL',
      headers: { authorization: this.authorization },
      ...(signal ? { signal } : {}),
    });
    discard(answer);
    // 405: something is there already (a folder, as the caller then finds when it writes into it).
    if (answer.status !== 201 && answer.status !== 405) throw DriveError.fromStatus(answer.status);
  }
}
