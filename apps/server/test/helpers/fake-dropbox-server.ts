import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { bearerOf, json, readBody, type LocalOAuthServer } from './oauth-server';

/** A JSON argument that should be a string ('' when it is not). */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

interface Item {
  path: string;
  content: Buffer | null;
  modified: string;
  id: string;
}

/**
 * A local server following Dropbox's documented HTTP API v2 (RPC endpoints on the API host, content
 * endpoints with a Dropbox-API-Arg header on the content host; one server answers both here): the
 * calls Mixroom makes, with Dropbox's rules — Bearer tokens checked with the authorization server
 * (401 `expired_access_token`/`invalid_access_token`), 409 with an error_summary for a missing path,
 * upload sessions that check their offsets and create the file only at finish, Range on download,
 * search_v2 by name (every word of the query in the name; the whole account, or below `path`) with
 * `max_results` and a cursor for `search/continue_v2`, and a page size small enough that
 * `list_folder/continue` and `search/continue_v2` are exercised.
 */
export class LocalDropboxServer {
  private server: Server | null = null;
  url = '';
  private readonly items = new Map<string, Item>();
  private readonly sessions = new Map<string, { data: Buffer[]; offset: number }>();
  private readonly cursors = new Map<string, Item[]>();
  private readonly searches = new Map<string, { items: Item[]; max: number }>();
  /** Routes whose answer is never sent (a provider that times out). */
  hang: ((route: string) => boolean) | null = null;
  pageSize = 2;
  /** Downloads sent chunked, without a Content-Length (as HTTP allows). */
  chunkedDownloads = false;
  /** Calls by route, for the tests (e.g. that a large upload went through a session). */
  readonly calls: string[] = [];
  /** The next whole download stops after this many bytes and its connection is cut (then null again). */
  cutNextDownloadAfter: number | null = null;
  /** Each download's method and Range header, in order. */
  readonly downloads: { method: string; range: string | null }[] = [];

  constructor(
    private readonly oauth: LocalOAuthServer,
    private readonly accounts: Record<string, { displayName: string; email: string }>,
  ) {
    this.items.set('', { path: '', content: null, modified: new Date().toISOString(), id: 'id:root' });
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

  put(path: string, content: Buffer | null): void {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i += 1) {
      const folder = `/${parts.slice(0, i).join('/')}`;
      if (!this.items.has(folder.toLowerCase())) this.put(folder, null);
    }
    this.items.set(path.toLowerCase(), {
      path,
      content,
      modified: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      id: `id:${randomBytes(8).toString('hex')}`,
    });
  }

  file(path: string): Buffer | null {
    return this.items.get(path.toLowerCase())?.content ?? null;
  }

  private metadata(item: Item) {
    const name = item.path.split('/').pop() ?? '';
    return item.content === null
      ? { '.tag': 'folder', name, path_display: item.path, path_lower: item.path.toLowerCase(), id: item.id }
      : {
          '.tag': 'file',
          name,
          path_display: item.path,
          path_lower: item.path.toLowerCase(),
          id: item.id,
          size: item.content.length,
          server_modified: item.modified,
          client_modified: item.modified,
          rev: '0123456789abcdef',
        };
  }

  private children(path: string): Item[] {
    const prefix = path === '' ? '/' : `${path.toLowerCase()}/`;
    return [...this.items.entries()]
      .filter(([key]) => key !== '' && key.startsWith(prefix) && !key.slice(prefix.length).includes('/'))
      .map(([, item]) => item);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const route = new URL(request.url ?? '/', this.url).pathname.replace(/^\/2\//, '');
    this.calls.push(route);
    const body = await readBody(request);
    if (this.hang?.(route)) return;
    // Content-download endpoints also take GET, their argument in the header or the `arg` parameter.
    const get = request.method === 'GET' && route === 'files/download';
    if (request.method !== 'POST' && !get) return json(response, 405, { error_summary: 'method_not_allowed' });
    const account = this.oauth.validate(bearerOf(request));
    if (!account)
      return json(response, 401, {
        error_summary: bearerOf(request) ? 'expired_access_token/' : 'invalid_access_token/',
        error: { '.tag': 'expired_access_token' },
      });
    const content = ['files/download', 'files/upload'].includes(route) || route.startsWith('files/upload_session/');
    let args: Record<string, unknown> = {};
    if (content) {
      const arg = request.headers['dropbox-api-arg'] ?? new URL(request.url ?? '/', this.url).searchParams.get('arg');
      args = JSON.parse(String(arg ?? '{}')) as Record<string, unknown>;
    } else if (body.length > 0) {
      // Dropbox refuses an RPC body that is not declared as JSON.
      if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
        return json(response, 400, { error_summary: 'bad content type' });
      args = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    }
    const notFound = (tag = 'path') => json(response, 409, { error_summary: `${tag}/not_found/..` });
    const lookup = (path: unknown) => this.items.get(text(path).toLowerCase());
    switch (route) {
      case 'users/get_current_account': {
        const who = this.accounts[account]!;
        return json(response, 200, {
          account_id: `dbid:${account}`,
          name: { display_name: who.displayName, given_name: who.displayName, surname: '' },
          email: who.email,
        });
      }
      case 'auth/token/revoke':
        if (this.oauth.failRevocation) return json(response, 503, { error_summary: 'service_unavailable' });
        this.oauth.revoke(bearerOf(request));
        return json(response, 200, null);
      case 'files/list_folder': {
        const folder = lookup(args.path);
        if (!folder || folder.content !== null) return notFound();
        return this.page(response, this.children(folder.path));
      }
      case 'files/list_folder/continue': {
        const rest = this.cursors.get(text(args.cursor));
        if (!rest) return json(response, 409, { error_summary: 'reset/..' });
        return this.page(response, rest);
      }
      case 'files/get_metadata': {
        const item = lookup(args.path);
        return item ? json(response, 200, this.metadata(item)) : notFound();
      }
      case 'files/search_v2': {
        const options = (args.options ?? {}) as { path?: string; max_results?: number; filename_only?: boolean };
        const query = text(args.query).trim();
        if (!query || query.length > 1000) return json(response, 400, { error_summary: 'invalid_argument/' });
        const max = options.max_results ?? 100;
        if (!Number.isInteger(max) || max < 1 || max > 1000)
          return json(response, 400, { error_summary: 'Error in call to API function "files/search_v2"' });
        // No path: the whole account; a path that is not a folder is a 409 like any lookup.
        if (options.path !== undefined && options.path !== '' && lookup(options.path)?.content !== null)
          return notFound();
        const below = `${text(options.path).toLowerCase()}/`;
        // Every word of the query must appear in the name (case-insensitive), in any order.
        const words = query.toLowerCase().split(/\s+/);
        const found = [...this.items.values()]
          .filter((i) => i.path !== '' && i.path.toLowerCase().startsWith(below))
          .filter((i) => words.every((w) => (i.path.split('/').pop() ?? '').toLowerCase().includes(w)))
          .sort((a, b) => a.id.localeCompare(b.id));
        return this.searchPage(response, found, Math.min(max, this.pageSize));
      }
      case 'files/search/continue_v2': {
        const rest = this.searches.get(text(args.cursor));
        if (!rest) return json(response, 409, { error_summary: 'invalid_cursor/' });
        this.searches.delete(text(args.cursor));
        return this.searchPage(response, rest.items, rest.max);
      }
      case 'files/create_folder_v2': {
        if (lookup(args.path)) return json(response, 409, { error_summary: 'path/conflict/folder/..' });
        this.put(String(args.path), null);
        return json(response, 200, { metadata: this.metadata(lookup(args.path)!) });
      }
      case 'files/download':
        return this.download(request, response, lookup(args.path));
      case 'files/upload':
        return this.commit(response, args, body);
      case 'files/upload_session/start': {
        const id = randomBytes(8).toString('hex');
        this.sessions.set(id, { data: [body], offset: body.length });
        return json(response, 200, { session_id: id });
      }
      case 'files/upload_session/append_v2':
      case 'files/upload_session/finish': {
        const cursor = (args.cursor ?? {}) as { session_id?: string; offset?: number };
        const session = this.sessions.get(text(cursor.session_id));
        if (!session) return json(response, 409, { error_summary: 'lookup_failed/not_found/' });
        if (cursor.offset !== session.offset)
          return json(response, 409, {
            error_summary: 'lookup_failed/incorrect_offset/',
            correct_offset: session.offset,
          });
        session.data.push(body);
        session.offset += body.length;
        if (route.endsWith('append_v2')) return json(response, 200, null);
        this.sessions.delete(text(cursor.session_id));
        return this.commit(response, args.commit as Record<string, unknown>, Buffer.concat(session.data));
      }
      default:
        return json(response, 400, { error_summary: `unknown endpoint ${route}` });
    }
  }

  private page(response: ServerResponse, items: Item[]): void {
    const shown = items.slice(0, this.pageSize);
    const rest = items.slice(this.pageSize);
    const cursor = randomBytes(8).toString('hex');
    this.cursors.set(cursor, rest);
    json(response, 200, { entries: shown.map((i) => this.metadata(i)), cursor, has_more: rest.length > 0 });
  }

  /** One page of search matches; the rest wait behind a cursor for search/continue_v2. */
  private searchPage(response: ServerResponse, items: Item[], max: number): void {
    const rest = items.slice(max);
    const cursor = rest.length > 0 ? randomBytes(8).toString('hex') : null;
    if (cursor) this.searches.set(cursor, { items: rest, max });
    json(response, 200, {
      matches: items.slice(0, max).map((i) => ({
        match_type: { '.tag': 'filename' },
        metadata: { '.tag': 'metadata', metadata: this.metadata(i) },
      })),
      has_more: cursor !== null,
      ...(cursor ? { cursor } : {}),
    });
  }

  private commit(response: ServerResponse, args: Record<string, unknown>, data: Buffer): void {
    const path = text(args.path);
    const parent = path.split('/').slice(0, -1).join('/');
    if (!this.items.has(parent.toLowerCase())) return json(response, 409, { error_summary: 'path/not_found/' });
    if (this.items.has(path.toLowerCase()) && args.mode !== 'overwrite')
      return json(response, 409, { error_summary: 'path/conflict/file/' });
    this.put(path, data);
    json(response, 200, this.metadata(this.items.get(path.toLowerCase())!));
  }

  private download(request: IncomingMessage, response: ServerResponse, item: Item | undefined): void {
    this.downloads.push({ method: request.method ?? '', range: request.headers.range ?? null });
    if (!item) return json(response, 409, { error_summary: 'path/not_found/' });
    if (item.content === null) return json(response, 409, { error_summary: 'path/not_file/' });
    const data = item.content;
    const result = JSON.stringify(this.metadata(item));
    const range = /^bytes=(\d+)-(\d*)$/.exec(text(request.headers.range));
    if (range) {
      const start = Number(range[1]);
      const end = Math.min(range[2] ? Number(range[2]) : data.length - 1, data.length - 1);
      response.writeHead(206, {
        'dropbox-api-result': result,
        'content-range': `bytes ${start}-${end}/${data.length}`,
        'content-length': end - start + 1,
      });
      return void response.end(data.subarray(start, end + 1));
    }
    if (this.chunkedDownloads) {
      response.writeHead(200, { 'dropbox-api-result': result });
      response.write(data.subarray(0, data.length >> 1));
      return void response.end(data.subarray(data.length >> 1));
    }
    response.writeHead(200, { 'dropbox-api-result': result, 'content-length': data.length });
    if (this.cutNextDownloadAfter !== null) {
      const cut = this.cutNextDownloadAfter;
      this.cutNextDownloadAfter = null;
      return void response.write(data.subarray(0, cut), () => response.socket?.destroy());
    }
    response.end(data);
  }
}
