import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v2 as webdav } from 'webdav-server';
import { freePort } from './free-port';

export interface TestWebdav {
  /** The WebDAV root as a user types it into Settings. */
  url: string;
  username: string;
  password: string;
  /** The folder on disk the server serves: tests put files here directly. */
  directory: string;
  stop(): Promise<void>;
}

/** A real WebDAV server (npm webdav-server) on loopback, serving a temporary folder, with Basic auth. */
export async function startWebdav(): Promise<TestWebdav> {
  const directory = mkdtempSync(join(tmpdir(), 'mixroom-webdav-'));
  const port = await freePort();
  const users = new webdav.SimpleUserManager();
  const user = users.addUser('alice', 'app-password-1', false);
  const privileges = new webdav.SimplePathPrivilegeManager();
  privileges.setRights(user, '/', ['all']);
  const server = new webdav.WebDAVServer({
    hostname: '127.0.0.1',
    port,
    httpAuthentication: new webdav.HTTPBasicAuthentication(users, 'Mixroom tests'),
    privilegeManager: privileges,
    requireAuthentification: true,
  });
  await server.setFileSystemAsync('/', new webdav.PhysicalFileSystem(directory));
  await new Promise<void>((resolve) => server.start(() => resolve()));
  return {
    url: `http://127.0.0.1:${port}/`,
    username: 'alice',
    password: 'app-password-1',
    directory,
    stop: async () => {
      await new Promise<void>((resolve) => server.stop(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * A WebDAV server that lies: it lists big.wav at 20 GB (more than any free plan holds) and short.wav
 * at 1,000 bytes, then sends 900 bytes for it (a file that changed between listing and copy).
 */
export function startBrokenDav(): Promise<Server> {
  const entry = (name: string, size: number) =>
    `<d:response><d:href>/${name}</d:href><d:propstat><d:prop><d:resourcetype/><d:getcontentlength>${size}</d:getcontentlength></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
  const folder = `<d:response><d:href>/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
  const created = createServer((request, response) => {
    const name = (request.url ?? '/').slice(1);
    if (request.method === 'PROPFIND') {
      const body =
        name === ''
          ? folder + entry('big.wav', 20e9) + entry('short.wav', 1000)
          : entry(name, name === 'big.wav' ? 20e9 : 1000);
      response.writeHead(207, { 'content-type': 'application/xml' });
      response.end(`<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">${body}</d:multistatus>`);
      return;
    }
    response.writeHead(200, { 'content-length': 900 });
    response.end(Buffer.alloc(900));
  });
  return new Promise((resolve) => created.listen(0, '127.0.0.1', () => resolve(created)));
}
