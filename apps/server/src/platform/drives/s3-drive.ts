import type { Readable } from 'node:stream';
import type { ByteRange } from '../blob/blob-store';
import type { Clock } from '../clock/clock';
import type { OutboundResponse } from '../net/outbound-fetch';
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
} from './drive';
import { DriveError } from './drive-error';
import { checkProviderUrl, discard, driveFetch, FILE_ANSWER_BYTES, readText, type DriveNetwork } from './drive-http';
import { awsEncode, EMPTY_PAYLOAD, signV4, UNSIGNED_PAYLOAD } from './sigv4';
import { elements, text } from './xml-reader';

export interface S3Credentials {
  /** e.g. https://s3.eu-central-1.amazonaws.com, https://minio.example.com */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Listing pages read for one folder at most (1,000 keys each): a bigger folder shows its first 10,000. */
const MAX_LIST_PAGES = 10;

/**
 * An S3-compatible bucket (AWS, MinIO, Ceph, Wasabi, Backblaze B2...) with access keys, addressed
 * path-style (`endpoint/bucket/key`), which every compatible server accepts. "Folders" are the key
 * prefixes up to a '/', as S3 consoles show them.
 */
export class S3Drive implements Drive {
  readonly searchable = false;
  private readonly endpoint: URL;

  constructor(
    private readonly credentials: S3Credentials,
    private readonly network: DriveNetwork,
    private readonly clock: Clock,
  ) {
    this.endpoint = checkProviderUrl(credentials.endpoint, network);
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(credentials.bucket))
      throw DriveError.refused('This is not a valid bucket name.');
  }

  private keyOf(path: string): string {
    return normalisePath(path).slice(1);
  }

  private urlOf(key: string, query: Record<string, string> = {}): URL {
    const base = this.endpoint.pathname.replace(/\/$/, '');
    const url = new URL(this.endpoint.origin);
    url.pathname = `${base}/${this.credentials.bucket}/${key.split('/').map(awsEncode).join('/')}`;
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url;
  }

  /** SigV4 headers for one request (the host header is the HTTP client's to send). */
  private signed(method: string, url: URL, headers: Record<string, string>, withBody: boolean): Record<string, string> {
    const signed = signV4(
      { ...this.credentials, service: 's3' },
      { method, url, headers, payloadHash: withBody ? UNSIGNED_PAYLOAD : EMPTY_PAYLOAD },
      this.clock.now(),
    );
    delete signed.host;
    return signed;
  }

  private async send(
    method: string,
    url: URL,
    options: { headers?: Record<string, string>; body?: Readable; maxBytes?: number; signal?: AbortSignal } = {},
  ): Promise<OutboundResponse> {
    const headers = this.signed(method, url, options.headers ?? {}, options.body !== undefined);
    return driveFetch(url, this.network, {
      method,
      headers,
      ...(options.body ? { body: options.body } : {}),
      ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** S3 says why in an XML body: a wrong key or signature is the user's credentials, a missing bucket its name. */
  private async failure(answer: OutboundResponse): Promise<DriveError> {
    const code = answer.headers['content-type']?.includes('xml')
      ? text(await readText(answer), 'Code')
      : (discard(answer), null);
    if (
      code === 'InvalidAccessKeyId' ||
      code === 'SignatureDoesNotMatch' ||
      (code === 'AccessDenied' && answer.status === 401)
    )
      return DriveError.credentials();
    if (code === 'NoSuchBucket') return DriveError.refused('This bucket does not exist at this address.');
    return DriveError.fromStatus(answer.status);
  }

  private async listPage(prefix: string, token: string | null, signal?: AbortSignal) {
    const query: Record<string, string> = { 'list-type': '2', delimiter: '/', prefix };
    if (token) query['continuation-token'] = token;
    const answer = await this.send('GET', this.urlOf('', query), signal ? { signal } : {});
    if (answer.status !== 200) throw await this.failure(answer);
    return readText(answer);
  }

  async account(): Promise<DriveAccount> {
    await this.listPage('', null);
    return { name: `${this.credentials.bucket} on ${this.endpoint.host}` };
  }

  async list(path: string, options: { search?: string; signal?: AbortSignal } = {}): Promise<DriveListing> {
    const folder = normalisePath(path);
    const prefix = folder === '/' ? '' : `${folder.slice(1)}/`;
    const entries: DriveEntry[] = [];
    let token: string | null = null;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const xml = await this.listPage(prefix, token, options.signal);
      for (const common of elements(xml, 'CommonPrefixes')) {
        const key = text(common, 'Prefix');
        if (!key) continue;
        const entryPath = normalisePath(key);
        entries.push({
          path: entryPath,
          name: lastSegment(entryPath),
          kind: 'folder',
          size: null,
          modifiedAt: null,
          contentType: null,
        });
      }
      for (const content of elements(xml, 'Contents')) {
        const key = text(content, 'Key');
        // A zero-byte "folder/" marker is the folder itself, not a file in it.
        if (!key || key === prefix || key.endsWith('/')) continue;
        const modified = text(content, 'LastModified');
        entries.push({
          path: normalisePath(key),
          name: lastSegment(key),
          kind: 'file',
          size: Number(text(content, 'Size') ?? '0'),
          modifiedAt:
            modified && !Number.isNaN(Date.parse(modified)) ? new Date(Date.parse(modified)).toISOString() : null,
          contentType: null,
        });
      }
      token = text(xml, 'IsTruncated') === 'true' ? text(xml, 'NextContinuationToken') : null;
      if (!token) break;
    }
    const search = options.search?.trim().toLowerCase();
    return {
      path: folder,
      entries: sortEntries(search ? entries.filter((e) => e.name.toLowerCase().includes(search)) : entries),
    };
  }

  async stat(path: string, signal?: AbortSignal): Promise<DriveEntry> {
    const key = this.keyOf(path);
    if (!key) return { path: '/', name: '/', kind: 'folder', size: null, modifiedAt: null, contentType: null };
    // A HEAD has no body: its content-length is the object's size, which the answer cap must not
    // refuse (a file above the small-answer cap could not be imported otherwise).
    const answer = await this.send('HEAD', this.urlOf(key), {
      maxBytes: FILE_ANSWER_BYTES,
      ...(signal ? { signal } : {}),
    });
    discard(answer);
    if (answer.status === 404) {
      const listing = await this.listPage(`${key}/`, null, signal);
      if (elements(listing, 'Contents').length + elements(listing, 'CommonPrefixes').length === 0)
        throw DriveError.notFound();
      return {
        path: normalisePath(key),
        name: lastSegment(key),
        kind: 'folder',
        size: null,
        modifiedAt: null,
        contentType: null,
      };
    }
    if (answer.status !== 200) throw DriveError.fromStatus(answer.status === 403 ? 401 : answer.status);
    const modified = answer.headers['last-modified'];
    return {
      path: normalisePath(key),
      name: lastSegment(key),
      kind: 'file',
      size: Number(answer.headers['content-length']),
      modifiedAt: modified && !Number.isNaN(Date.parse(modified)) ? new Date(Date.parse(modified)).toISOString() : null,
      contentType: answer.headers['content-type'] ?? null,
    };
  }

  /** Signed now: S3 accepts a signature for 15 minutes, so the GET is sent at once. */
  async getRequest(path: string, range?: ByteRange): Promise<DriveGet> {
    const url = this.urlOf(this.keyOf(path));
    const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {};
    return { url, headers: this.signed('GET', url, headers, false) };
  }

  async read(path: string, options: { range?: ByteRange; signal?: AbortSignal } = {}): Promise<DriveRead> {
    const { range, signal } = options;
    const answer = await this.send('GET', this.urlOf(this.keyOf(path)), {
      headers: range ? { range: `bytes=${range.start}-${range.end}` } : {},
      maxBytes: FILE_ANSWER_BYTES,
      ...(signal ? { signal } : {}),
    });
    const length = Number(answer.headers['content-length']);
    if (answer.status === 206 && range) {
      const total = Number(/\/(\d+)$/.exec(String(answer.headers['content-range'] ?? ''))?.[1]);
      return { body: answer.body, length, size: total };
    }
    if (answer.status === 200 && !range) return { body: answer.body, length, size: length };
    if (answer.status === 404) {
      discard(answer);
      throw DriveError.notFound();
    }
    throw await this.failure(answer);
  }

  async write(path: string, body: Readable, size: number, signal?: AbortSignal): Promise<void> {
    const answer = await this.send('PUT', this.urlOf(this.keyOf(path)), {
      headers: { 'content-length': String(size), 'content-type': 'application/octet-stream' },
      body,
      ...(signal ? { signal } : {}),
    });
    if (answer.status !== 200) throw await this.failure(answer);
    discard(answer);
  }

  /** Buckets have no folders: a key's prefix makes one appear, so there is nothing to create. */
  async makeFolder(): Promise<void> {}
}
