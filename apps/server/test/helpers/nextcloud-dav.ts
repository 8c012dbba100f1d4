import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v2 as webdav } from 'webdav-server';
import { elements, text } from '../../src/platform/drives/xml-reader';
import { freePort } from './free-port';

export interface TestNextcloud {
  /** The server's base, e.g. http://127.0.0.1:1234 (Nextcloud's addresses are below it). */
  base: string;
  /** The user's files as Nextcloud shows them in its WebDAV settings. */
  filesUrl: string;
  /** The older address of the same files. */
  legacyUrl: string;
  /** The login name, an e-mail address: not the user's id (`alice`). */
  username: string;
  password: string;
  directory: string;
  /** Addresses asked for the current user principal, newest last. */
  principals: string[];
  /** SEARCH bodies received, newest last. */
  searches: string[];
  /** Answer SEARCH with this status instead (501: no search; 403: a proxy that blocks the method). */
  searchRefusal: number | null;
  stop(): Promise<void>;
}

/** The user's id, in every /files/ and /principals/ address. */
const USER = 'alice';
/** What she signs in with: an e-mail login, so her id is not her login name (as with LDAP or e-mail logins). */
const LOGIN = 'alice@cloud.example';
const PASSWORD = 'app-password-1';

/** The RFC 5323 `like` literal as a pattern: `%` any run, `_` one character, `\` escapes the next. */
function likePattern(literal: string): RegExp {
  let source = '';
  for (let i = 0; i < literal.length; i += 1) {
    const c = literal[i]!;
    if (c === '\\' && i + 1 < literal.length) source += literal[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (c === '%') source += '.*';
    else if (c === '_') source += '.';
    else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  // Nextcloud matches names without regard to case.
  return new RegExp(`^${source}$`, 'is');
}

/** Every file and folder below `folder`, as paths relative to the user's files root. */
function walk(root: string, folder: string): { path: string; folder: boolean; size: number; mtime: Date }[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    const stat = statSync(join(root, path));
    const here = { path, folder: entry.isDirectory(), size: stat.size, mtime: stat.mtime };
    return entry.isDirectory() ? [here, ...walk(root, path)] : [here];
  });
}

const escapeXml = (value: string) => value.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);

/**
 * A local server that follows Nextcloud's documented WebDAV: the user's files at
 * /remote.php/dav/files/alice/ (and the older /remote.php/webdav/), served by webdav-server with Basic
 * authentication, and SEARCH at /remote.php/dav/ as Nextcloud's developer manual describes it
 * (basicsearch: a scope `/files/<user>/…` of depth infinity, `like` on displayname without regard to
 * case, `nresults`; a 207 multistatus of hrefs below /remote.php/dav/files/<user>/). Another user's
 * scope is refused with 403, a request without the user's credentials with 401.
 */
export async function startNextcloudDav(): Promise<TestNextcloud> {
  const directory = mkdtempSync(join(tmpdir(), 'mixroom-nextcloud-'));
  const port = await freePort();
  const users = new webdav.SimpleUserManager();
  const user = users.addUser(LOGIN, PASSWORD, false);
  const privileges = new webdav.SimplePathPrivilegeManager();
  privileges.setRights(user, '/', ['all']);
  const dav = new webdav.WebDAVServer({
    httpAuthentication: new webdav.HTTPBasicAuthentication(users, 'Nextcloud'),
    privilegeManager: privileges,
    requireAuthentification: true,
  });
  await dav.setFileSystemAsync(`/remote.php/dav/files/${USER}`, new webdav.PhysicalFileSystem(directory));
  await dav.setFileSystemAsync('/remote.php/webdav', new webdav.PhysicalFileSystem(directory));
  const searches: string[] = [];
  const state: { searchRefusal: number | null } = { searchRefusal: null };

  const basic = `Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}`;
  const principals: string[] = [];
  /** PROPFIND of the DAV root for the current user principal (RFC 5397), as Nextcloud answers it. */
  const principal = async (request: IncomingMessage, response: ServerResponse) => {
    for await (const chunk of request) void chunk;
    principals.push(request.url ?? '');
    if (request.headers.authorization !== basic) return void response.writeHead(401).end();
    response
      .writeHead(207, { 'content-type': 'application/xml; charset=utf-8' })
      .end(
        `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/remote.php/dav/</d:href><d:propstat><d:prop><d:current-user-principal><d:href>/remote.php/dav/principals/users/${USER}/</d:href></d:current-user-principal></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`,
      );
  };

  const search = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    searches.push(body);
    const expected = basic;
    if (request.headers.authorization !== expected) return void response.writeHead(401).end();
    if (state.searchRefusal !== null) return void response.writeHead(state.searchRefusal).end();
    if (!/^\/remote\.php\/dav\/?$/.test(request.url ?? '')) return void response.writeHead(405).end();
    const scope = decodeURIComponent(text(body, 'href') ?? '');
    const literal = text(elements(body, 'like')[0] ?? '', 'literal');
    const own = `/files/${USER}`;
    if (literal === null || text(body, 'depth') !== 'infinity') return void response.writeHead(400).end();
    if (scope !== own && !scope.startsWith(`${own}/`)) return void response.writeHead(403).end();
    const limit = Number(text(body, 'nresults') ?? Infinity);
    const pattern = likePattern(literal);
    const below = scope.slice(own.length);
    const hits = walk(directory, below)
      .filter((item) => pattern.test(item.path.slice(item.path.lastIndexOf('/') + 1)))
      .slice(0, limit);
    const responses = hits.map((item) => {
      const href = `/remote.php/dav/files/${USER}${item.path.split('/').map(encodeURIComponent).join('/')}${item.folder ? '/' : ''}`;
      const name = item.path.slice(item.path.lastIndexOf('/') + 1);
      const props = item.folder
        ? '<d:resourcetype><d:collection/></d:resourcetype>'
        : `<d:resourcetype/><d:getcontentlength>${item.size}</d:getcontentlength><d:getcontenttype>application/octet-stream</d:getcontenttype>`;
      return `<d:response><d:href>${escapeXml(href)}</d:href><d:propstat><d:prop><d:displayname>${escapeXml(name)}</d:displayname>${props}<d:getlastmodified>${item.mtime.toUTCString()}</d:getlastmodified></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
    });
    response
      .writeHead(207, { 'content-type': 'application/xml; charset=utf-8' })
      .end(`<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">${responses.join('')}</d:multistatus>`);
  };

  // webdav-server types its request entry point as any; this is its documented signature.
  const executeRequest = dav.executeRequest as (request: IncomingMessage, response: ServerResponse) => void;
  const server = createServer((request, response) => {
    if (request.method === 'SEARCH') return void search(request, response);
    if (request.method === 'PROPFIND' && /^\/remote\.php\/dav\/?$/.test(request.url ?? ''))
      return void principal(request, response);
    executeRequest.call(dav, request, response);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${port}`;
  return Object.assign(state, {
    base,
    filesUrl: `${base}/remote.php/dav/files/${USER}/`,
    legacyUrl: `${base}/remote.php/webdav/`,
    username: LOGIN,
    password: PASSWORD,
    principals,
    directory,
    searches,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  });
}
