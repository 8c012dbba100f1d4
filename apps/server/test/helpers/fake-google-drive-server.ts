import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { bearerOf, json, readBody, type LocalOAuthServer } from './oauth-server';

const FOLDER = 'application/vnd.google-apps.folder';

/**
 * A query's clauses joined by 'and', read as Drive's query language reads them: a value is a string
 * between single quotes in which a backslash escapes the next character (a quote or a backslash).
 * A quote left open is an error (null); the caller refuses any clause it does not know.
 */
function splitAnd(q: string): string[] | null {
  const clauses: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < q.length; i += 1) {
    const c = q[i]!;
    if (quoted && c === '\\') {
      current += c + (q[i + 1] ?? '');
      i += 1;
      continue;
    }
    if (c === "'") quoted = !quoted;
    if (!quoted && /^\s+and\s+/i.test(q.slice(i)) && current.trim()) {
      clauses.push(current.trim());
      current = '';
      i += (/^\s+and\s+/i.exec(q.slice(i))?.[0].length ?? 1) - 1;
      continue;
    }
    current += c;
  }
  if (quoted) return null;
  clauses.push(current.trim());
  return clauses;
}

/** A name's words, lower-cased: the runs of letters and digits. */
const words = (value: string) => value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

interface GFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  content: Buffer | null;
  modifiedTime: string;
  trashed: boolean;
  /** The shared drive it is in; null in My Drive. A drive's root has the drive's own id. */
  driveId: string | null;
}

/**
 * A local server following the Google Drive API v3 as documented: about?fields=user; files.list with
 * the query language's clauses Mixroom uses ("'<id>' in parents", "name = '…'", "name contains '…'",
 * "trashed = false", joined by "and"; values quoted with ' and escaped with a backslash, anything
 * else a 400), "name contains" matching word prefixes as Drive documents, only the `fields` asked
 * for (parents among them), and opaque pageToken paging bound to its query (a small page size, so
 * paging is exercised); My Drive's root has an id of its own with 'root' as an alias; files.get
 * with fields or alt=media and Range; files.create for folders; resumable uploads (a session URI in
 * Location; the file exists or changes only when its PUT completes with the announced length); and
 * files shared from folders the user can't see; shared drives (drives.list; files.list with
 * corpora=drive and driveId or corpora=allDrives, each refused without includeItemsFromAllDrives;
 * items of a shared drive invisible to files.get, uploads and creates without supportsAllDrives, and
 * left out of the default corpus, My Drive). Tokens are checked with the authorization server; a bad
 * one answers 401.
 */
export class LocalGoogleDriveServer {
  private server: Server | null = null;
  url = '';
  private readonly files = new Map<string, GFile>();
  /** Shared drives the user is a member of: id → name. */
  private readonly drives = new Map<string, string>();
  private readonly uploads = new Map<
    string,
    { fileId: string | null; name: string; parents: string[]; length: number }
  >();
  /** Calls ("GET /drive/v3/files/<id>?alt=media", "PUT /upload/…") whose answer is never sent. */
  hang: ((call: string) => boolean) | null = null;
  pageSize = 2;
  readonly calls: string[] = [];
  /** The next whole media download stops after this many bytes and its connection is cut (then null again). */
  cutNextDownloadAfter: number | null = null;
  /** Each media download's Range header, in order. */
  readonly downloads: { range: string | null }[] = [];
  /** My Drive's own id: Drive names it in `parents`; 'root' is only an alias a request may use. */
  readonly rootId = `0A${randomBytes(9).toString('base64url')}Uk9PVA`;

  constructor(
    private readonly oauth: LocalOAuthServer,
    private readonly accounts: Record<string, { displayName: string; email: string }>,
  ) {
    this.files.set(this.rootId, this.make(this.rootId, 'My Drive', FOLDER, [], null));
  }

  private make(id: string, name: string, mimeType: string, parents: string[], content: Buffer | null): GFile {
    const driveId = parents.map((p) => this.files.get(p)?.driveId ?? null).find(Boolean) ?? null;
    return { id, name, mimeType, parents, content, modifiedTime: new Date().toISOString(), trashed: false, driveId };
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      void this.handle(request, response).catch((error: unknown) => json(response, 500, { error: String(error) }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** A shared drive of that name (made on first use); its id is also its root folder's. */
  drive(name: string): string {
    const known = [...this.drives].find(([, n]) => n === name)?.[0];
    if (known) return known;
    const id = `0A${randomBytes(9).toString('base64url')}`;
    this.drives.set(id, name);
    this.files.set(id, { ...this.make(id, name, FOLDER, [], null), driveId: id });
    return id;
  }

  /** Adds a file or folder by path (folders made on the way); a Google Doc has no bytes (`content` null, its own type). */
  put(
    path: string,
    content: Buffer | null,
    mimeType = content === null ? FOLDER : 'audio/wav',
    /** In this shared drive rather than My Drive. */
    inDrive?: string,
  ): string {
    let parent = inDrive ? this.drive(inDrive) : this.rootId;
    const parts = path.split('/').filter(Boolean);
    for (const [index, name] of parts.entries()) {
      const last = index === parts.length - 1;
      const found = [...this.files.values()].find((f) => f.parents.includes(parent) && f.name === name && !f.trashed);
      if (found && !last) {
        parent = found.id;
        continue;
      }
      const id = found?.id ?? randomBytes(12).toString('base64url');
      this.files.set(id, this.make(id, name, last ? mimeType : FOLDER, [parent], last ? content : null));
      parent = id;
    }
    return parent;
  }

  /**
   * A file shared with the user from someone else's folder: files.list finds it, but its parent is
   * not the user's to see (files.get answers 404), so it has no path in My Drive.
   */
  putShared(name: string, content: Buffer): void {
    const id = randomBytes(12).toString('base64url');
    this.files.set(id, this.make(id, name, 'audio/wav', [`0B${randomBytes(9).toString('base64url')}`], content));
  }

  private idOf(id: string): string {
    return id === 'root' ? this.rootId : id;
  }

  /** The bytes of the file at a path (in My Drive, or in the shared drive named), or null. */
  file(path: string, inDrive?: string): Buffer | null {
    let current: GFile | undefined = this.files.get(inDrive ? this.drive(inDrive) : this.rootId);
    for (const name of path.split('/').filter(Boolean))
      current = [...this.files.values()].find(
        (f) => current && f.parents.includes(current.id) && f.name === name && !f.trashed,
      );
    return current?.content ?? null;
  }

  /** A file's fields as Drive gives them: those `fields` asks for, or Drive's short default set. */
  private resource(f: GFile, fields = 'kind,id,name,mimeType') {
    const all: Record<string, unknown> = {
      kind: 'drive#file',
      id: f.id,
      name: f.name,
      mimeType: f.mimeType,
      modifiedTime: f.modifiedTime,
      // Drive gives parents only when asked; 'root' is never among them, My Drive's own id is.
      parents: f.parents,
      ...(f.driveId ? { driveId: f.driveId } : {}),
      // Google documents size as an int64 in a string, absent for folders and Google Docs.
      ...(f.content !== null ? { size: String(f.content.length) } : {}),
    };
    const wanted = fields.split(',').map((name) => name.trim());
    return Object.fromEntries(Object.entries(all).filter(([name]) => wanted.includes(name)));
  }

  /** The fields asked for each file of a files.list answer: "nextPageToken,files(a,b)" gives "a,b". */
  private listFields(fields: string | null): string | undefined {
    return fields ? /files\(([^)]*)\)/.exec(fields)?.[1] : undefined;
  }

  /** The query clauses Mixroom sends, joined by 'and'; anything else is a 400 as Google answers. */
  private matcher(q: string): ((f: GFile) => boolean) | null {
    const tests: ((f: GFile) => boolean)[] = [];
    const literal = String.raw`'((?:\\.|[^'\\])*)'`;
    const unescape = (s: string) => s.replace(/\\(.)/g, '$1');
    const clauses = splitAnd(q);
    if (!clauses) return null;
    for (const clause of clauses) {
      let m: RegExpExecArray | null;
      if ((m = new RegExp(`^${literal}\\s+in\\s+parents$`).exec(clause.trim()))) {
        const id = this.idOf(unescape(m[1]!));
        tests.push((f) => f.parents.includes(id));
      } else if ((m = new RegExp(`^name\\s*=\\s*${literal}$`).exec(clause.trim()))) {
        const name = unescape(m[1]!);
        tests.push((f) => f.name === name);
      } else if ((m = new RegExp(`^name\\s+contains\\s+${literal}$`).exec(clause.trim()))) {
        // As Drive documents it: "contains" on a name matches word prefixes. The name and the
        // value are split into words at every character that is not a letter or digit, and each
        // word of the value must start some word of the name (case-insensitive).
        const wanted = words(unescape(m[1]!));
        tests.push((f) => wanted.length > 0 && wanted.every((w) => words(f.name).some((n) => n.startsWith(w))));
      } else if (/^trashed\s*=\s*false$/.test(clause.trim())) tests.push((f) => !f.trashed);
      else return null;
    }
    return (f) => tests.every((t) => t(f));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    this.calls.push(`${request.method} ${url.pathname}`);
    const body = await readBody(request);
    if (this.hang?.(`${request.method} ${url.pathname}${url.searchParams.get('alt') === 'media' ? '?alt=media' : ''}`))
      return;
    const account = this.oauth.validate(bearerOf(request));
    if (!account)
      return json(response, 401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });
    const notFound = () => json(response, 404, { error: { code: 404, message: 'File not found.' } });
    const path = url.pathname;
    if (request.method === 'GET' && path === '/drive/v3/about') {
      if (url.searchParams.get('fields') !== 'user')
        return json(response, 400, { error: { message: 'fields required' } });
      const who = this.accounts[account]!;
      return json(response, 200, {
        user: { kind: 'drive#user', displayName: who.displayName, emailAddress: who.email, me: true },
      });
    }
    if (request.method === 'GET' && path === '/drive/v3/drives') return this.drivesList(url, response);
    if (request.method === 'GET' && path === '/drive/v3/files') {
      const matches = this.matcher(url.searchParams.get('q') ?? '');
      if (!matches) return json(response, 400, { error: { code: 400, message: 'Invalid Value' } });
      const q = url.searchParams.get('q') ?? '';
      const corpus = this.corpus(url.searchParams);
      if (typeof corpus === 'string') return json(response, 400, { error: { code: 400, message: corpus } });
      const all = [...this.files.values()]
        .filter((f) => f.id !== this.rootId && !this.drives.has(f.id) && corpus(f) && matches(f))
        .sort((a, b) => a.id.localeCompare(b.id));
      // A page token is opaque and holds its query: Drive refuses one sent with another query.
      let start = 0;
      const token = url.searchParams.get('pageToken');
      if (token) {
        const held = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { q: string; start: number };
        if (held.q !== q) return json(response, 400, { error: { code: 400, message: 'Invalid pageToken' } });
        start = held.start;
      }
      const size = Math.min(Number(url.searchParams.get('pageSize') ?? '100'), this.pageSize);
      const page = all.slice(start, start + size);
      const next = start + size < all.length ? { q, start: start + size } : null;
      return json(response, 200, {
        kind: 'drive#fileList',
        files: page.map((f) => this.resource(f, this.listFields(url.searchParams.get('fields')))),
        ...(next ? { nextPageToken: Buffer.from(JSON.stringify(next)).toString('base64url') } : {}),
      });
    }
    const one = /^\/drive\/v3\/files\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && one) {
      const file = this.files.get(this.idOf(decodeURIComponent(one[1]!)));
      if (!file || file.trashed || !this.visible(file, url.searchParams)) return notFound();
      if (url.searchParams.get('alt') !== 'media')
        return json(response, 200, this.resource(file, url.searchParams.get('fields') ?? undefined));
      if (file.content === null)
        return json(response, 403, {
          error: { code: 403, message: 'Only files with binary content can be downloaded.' },
        });
      return this.media(request, response, file.content);
    }
    if (request.method === 'POST' && path === '/drive/v3/files') {
      const meta = JSON.parse(body.toString('utf8')) as { name: string; mimeType?: string; parents?: string[] };
      if (!this.parentsVisible(meta.parents, url.searchParams)) return notFound();
      const id = randomBytes(12).toString('base64url');
      this.files.set(
        id,
        this.make(
          id,
          meta.name,
          meta.mimeType ?? 'application/octet-stream',
          (meta.parents ?? ['root']).map((id) => this.idOf(id)),
          meta.mimeType === FOLDER ? null : Buffer.alloc(0),
        ),
      );
      return json(response, 200, { id });
    }
    const upload = /^\/upload\/drive\/v3\/files(?:\/([^/]+))?$/.exec(path);
    if (upload && url.searchParams.get('uploadType') === 'resumable') {
      const uploadId = url.searchParams.get('upload_id');
      if (!uploadId && (request.method === 'POST' || request.method === 'PATCH')) {
        const meta = body.length ? (JSON.parse(body.toString('utf8')) as { name?: string; parents?: string[] }) : {};
        const fileId = upload[1] ? decodeURIComponent(upload[1]) : null;
        const replaced = fileId ? this.files.get(fileId) : undefined;
        if (fileId && (!replaced || !this.visible(replaced, url.searchParams))) return notFound();
        if (!this.parentsVisible(meta.parents, url.searchParams)) return notFound();
        const length = Number(request.headers['x-upload-content-length']);
        const id = randomBytes(12).toString('base64url');
        const parents = (meta.parents ?? ['root']).map((p) => this.idOf(p));
        this.uploads.set(id, { fileId, name: meta.name ?? '', parents, length });
        response.writeHead(200, { location: `${this.url}/upload/drive/v3/files?uploadType=resumable&upload_id=${id}` });
        return void response.end();
      }
      const session = uploadId ? this.uploads.get(uploadId) : undefined;
      if (request.method === 'PUT' && session) {
        if (Number.isFinite(session.length) && body.length !== session.length)
          return json(response, 400, { error: { code: 400, message: 'Content length does not match.' } });
        this.uploads.delete(uploadId!);
        const id = session.fileId ?? randomBytes(12).toString('base64url');
        const existing = this.files.get(id);
        this.files.set(id, {
          ...(existing ?? this.make(id, session.name, 'application/octet-stream', session.parents, null)),
          content: body,
          modifiedTime: new Date().toISOString(),
        });
        return json(response, 200, this.resource(this.files.get(id)!));
      }
      return notFound();
    }
    json(response, 404, { error: { code: 404, message: `No such endpoint ${request.method} ${path}` } });
  }

  /** Items of a shared drive exist for a call only when it says supportsAllDrives=true. */
  private visible(file: GFile, params: URLSearchParams): boolean {
    return file.driveId === null || params.get('supportsAllDrives') === 'true';
  }

  private parentsVisible(parents: string[] | undefined, params: URLSearchParams): boolean {
    return (parents ?? []).every((id) => {
      const parent = this.files.get(this.idOf(id));
      return parent !== undefined && this.visible(parent, params);
    });
  }

  /** Which items a files.list looks at (its `corpora`), or the error Drive answers with. */
  private corpus(params: URLSearchParams): ((f: GFile) => boolean) | string {
    const corpora = params.get('corpora') ?? 'user';
    const allDrives = params.get('includeItemsFromAllDrives') === 'true' && params.get('supportsAllDrives') === 'true';
    if (corpora === 'user') return (f) => f.driveId === null;
    if (!allDrives) return 'includeItemsFromAllDrives and supportsAllDrives must be true for this corpus.';
    if (corpora === 'allDrives') return () => true;
    const driveId = params.get('driveId');
    if (corpora === 'drive' && driveId && this.drives.has(driveId)) return (f) => f.driveId === driveId;
    return 'Invalid corpora or driveId.';
  }

  private drivesList(url: URL, response: ServerResponse): void {
    const all = [...this.drives].map(([id, name]) => ({ kind: 'drive#drive', id, name }));
    const start = Number(url.searchParams.get('pageToken') ?? '0');
    const size = Math.min(Number(url.searchParams.get('pageSize') ?? '10'), this.pageSize);
    const next = start + size < all.length ? String(start + size) : null;
    json(response, 200, {
      kind: 'drive#driveList',
      drives: all.slice(start, start + size),
      ...(next ? { nextPageToken: next } : {}),
    });
  }

  private media(request: IncomingMessage, response: ServerResponse, data: Buffer): void {
    this.downloads.push({ range: request.headers.range ?? null });
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(request.headers.range ?? ''));
    if (range) {
      const start = Number(range[1]);
      const end = Math.min(range[2] ? Number(range[2]) : data.length - 1, data.length - 1);
      response.writeHead(206, {
        'content-range': `bytes ${start}-${end}/${data.length}`,
        'content-length': end - start + 1,
      });
      return void response.end(data.subarray(start, end + 1));
    }
    response.writeHead(200, { 'content-length': data.length, 'content-type': 'application/octet-stream' });
    if (this.cutNextDownloadAfter !== null) {
      const cut = this.cutNextDownloadAfter;
      this.cutNextDownloadAfter = null;
      return void response.write(data.subarray(0, cut), () => response.socket?.destroy());
    }
    response.end(data);
  }
}
