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
