import type { Readable } from 'node:stream';
import type { ByteRange } from '../blob/blob-store';
import {
  lastSegment,
  normalisePath,
  sortEntries,
  type Drive,
  type DriveAccount,
  type DriveEntry,
  type DriveGet,
  type DriveListing,
  type DriveRead,
  type DriveSearch,
} from './drive';
import { DriveError } from './drive-error';
import { checkProviderUrl, discard, driveFetch, FILE_ANSWER_BYTES, readText, type DriveNetwork } from './drive-http';
import {
  legacyPrincipalUrl,
  PRINCIPAL_BODY,
  searchBody,
  userIdOfPrincipal,
  webdavSearchTarget,
  type WebdavSearchTarget,
} from './webdav-search';
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

/**
 * Nextcloud, ownCloud or any WebDAV server (RFC 4918), with Basic authentication. Nextcloud and
 * ownCloud, known by their addresses, are searched whole (RFC 5323 SEARCH); elsewhere a search
 * filters the open folder.
 */
export class WebdavDrive implements Drive {
  readonly searchable: boolean;
  readonly search?: (query: string, options: { limit: number; signal?: AbortSignal }) => Promise<DriveSearch | null>;
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
    const target = webdavSearchTarget(root, credentials.username);
    this.searchable = target !== null;
    const principal = legacyPrincipalUrl(root);
    if (principal)
      this.search = async (query, options) =>
        this.searchAt(await this.legacyTarget(principal, options.signal), query, options);
    else if (target) this.search = (query, options) => this.searchAt(target, query, options);
  }

  /** The older address's search target, once its user's id is known (asked once per drive). */
  private legacyTargetFound: WebdavSearchTarget | null = null;

  private async legacyTarget(principal: URL, signal?: AbortSignal): Promise<WebdavSearchTarget> {
    if (this.legacyTargetFound) return this.legacyTargetFound;
    const answer = await driveFetch(principal, this.network, {
      method: 'PROPFIND',
      headers: { authorization: this.authorization, depth: '0', 'content-type': 'application/xml' },
      body: PRINCIPAL_BODY,
      ...(signal ? { signal } : {}),
    });
    if (answer.status === 401) {
      discard(answer);
      throw DriveError.fromStatus(401);
    }
    let xml = '';
    if (answer.status === 207) xml = await readText(answer);
    else discard(answer);
    const href = text(elements(xml, 'current-user-principal')[0] ?? '', 'href');
    // A server that does not say keeps the login name as the id: where that is wrong, the scope is
    // unknown to it and the search falls back to the open folder.
    const userId = (href && userIdOfPrincipal(href)) ?? this.credentials.username;
    const target = webdavSearchTarget(this.root, userId)!;
    if (href) this.legacyTargetFound = target;
    return target;
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

  /** The path of an href below the root (as `rootPath` spells it), or null for an href outside it. */
  private pathOfHref(href: string, rootPath: string): string | null {
    // Compared segment by segment once decoded: servers encode the same name differently (`@` raw
    // or as %40, %c3 or %C3), so the encoded strings of one path need not match.
    const segments = (path: string) => path.split('/').filter(Boolean).map(decodeURIComponent);
    try {
      const root = segments(rootPath);
      const item = segments(new URL(href, this.root).pathname);
      if (item.length < root.length || root.some((segment, i) => item[i] !== segment)) return null;
      return normalisePath(item.slice(root.length).join('/'));
    } catch {
      return null;
    }
  }

  private entriesOf(xml: string, rootPath = this.root.pathname): DriveEntry[] {
    const entries: DriveEntry[] = [];
    for (const response of elements(xml, 'response')) {
      const href = text(response, 'href');
      const path = href ? this.pathOfHref(href, rootPath) : null;
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

  /**
   * Names containing `query` anywhere below the linked folder, at most `limit` (one more is asked
   * for, to tell a cut list). A server that turns out not to offer it answers null, and the open
   * folder is filtered instead.
   */
  private async searchAt(
    target: WebdavSearchTarget,
    query: string,
    options: { limit: number; signal?: AbortSignal },
  ): Promise<DriveSearch | null> {
    const answer = await driveFetch(target.endpoint, this.network, {
      method: 'SEARCH',
      headers: { authorization: this.authorization, 'content-type': 'text/xml; charset=utf-8' },
      body: searchBody(target.scope, query, options.limit + 1),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // Not offered after all: the method unknown or refused (a proxy or firewall that blocks SEARCH
    // answers 403 or 400), or the scope unknown (a login name that is not the user's id).
    if ([400, 403, 404, 405, 501].includes(answer.status)) {
      discard(answer);
      return null;
    }
    if (answer.status !== 207) {
      discard(answer);
      throw DriveError.fromStatus(answer.status);
    }
    const hits = sortEntries(this.entriesOf(await readText(answer), target.hrefRoot).filter((e) => e.path !== '/'));
    return { entries: hits.slice(0, options.limit), truncated: hits.length > options.limit };
  }

  async stat(path: string, signal?: AbortSignal): Promise<DriveEntry> {
    const [entry] = this.entriesOf(await this.propfind(path, 0, signal));
    if (!entry) throw DriveError.notFound();
    return entry;
  }

  async getRequest(path: string, range?: ByteRange): Promise<DriveGet> {
    return {
      url: this.urlOf(path),
      headers: {
        authorization: this.authorization,
        'accept-encoding': 'identity',
        ...(range ? { range: `bytes=${range.start}-${range.end}` } : {}),
      },
    };
  }

  async read(path: string, options: { range?: ByteRange; signal?: AbortSignal } = {}): Promise<DriveRead> {
    const { range, signal } = options;
    const get = await this.getRequest(path, range);
    const answer = await driveFetch(get.url, this.network, {
      headers: get.headers,
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
