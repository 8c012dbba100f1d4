import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/platform/clock/clock';
import { createDrive } from '../src/platform/drives/create-drive';
import type { Drive } from '../src/platform/drives/drive';
import { DriveError } from '../src/platform/drives/drive-error';
import { call } from './helpers/api';
import { startNextcloudDav, type TestNextcloud } from './helpers/nextcloud-dav';
import { userWithLinkedWebdav } from './helpers/connector-steps';
import { startTestServer, type TestServer } from './helpers/test-server';
import { startWebdav, type TestWebdav } from './helpers/webdav';

/**
 * Nextcloud's whole-account search (RFC 5323 SEARCH at /remote.php/dav/), against a local server
 * that follows Nextcloud's developer manual (webdav-server for the files, SEARCH as documented), and
 * the fallback to the open folder where a WebDAV server offers no search.
 */
const network = { allowHosts: ['127.0.0.1'], timeoutMs: 5000 };
let cloud: TestNextcloud;
let plain: TestWebdav;

const FILES = [
  '/Take 1.wav',
  '/Sessions/Bass take.wav',
  '/Sessions/Album/Vocal TAKE 3.wav',
  '/Sessions/Album/Retakes/',
  '/Archive/2019/Old take.flac',
  '/Archive/Notes.txt',
  '/Archive/100% take_b.wav',
  '/Archive/100x takeXb.wav',
];

const davAt = (url: string, password = cloud.password): Drive =>
  createDrive({ kind: 'webdav', url, username: cloud.username, password }, network, systemClock);
const paths = (entries: { path: string }[]) => entries.map((e) => e.path).sort();

beforeAll(async () => {
  [cloud, plain] = await Promise.all([startNextcloudDav(), startWebdav()]);
  for (const file of FILES) {
    const at = join(cloud.directory, file);
    if (file.endsWith('/')) mkdirSync(at, { recursive: true });
    else {
      mkdirSync(dirname(at), { recursive: true });
      writeFileSync(at, Buffer.alloc(file.length));
    }
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([cloud?.stop(), plain?.stop()]);
});

describe('Nextcloud: a search covers the whole linked folder', () => {
  it('finds names containing the words at any depth, without regard to case, each with its path', async () => {
    const drive = davAt(cloud.filesUrl);
    expect(drive.searchable).toBe(true);
    const found = await drive.search!('take', { limit: 100 });
    expect(found?.truncated).toBe(false);
    expect(paths(found!.entries)).toEqual([
      '/Archive/100% take_b.wav',
      '/Archive/100x takeXb.wav',
      '/Archive/2019/Old take.flac',
      '/Sessions/Album/Retakes',
      '/Sessions/Album/Vocal TAKE 3.wav',
      '/Sessions/Bass take.wav',
      '/Take 1.wav',
    ]);
    expect(found!.entries.find((e) => e.path === '/Sessions/Album/Retakes')?.kind).toBe('folder');
    expect(found!.entries.find((e) => e.path === '/Take 1.wav')).toMatchObject({
      kind: 'file',
      size: '/Take 1.wav'.length,
    });
    // One SEARCH to the DAV root, scoped to the user's files, of depth infinity.
    expect(cloud.searches.at(-1)).toContain('<d:href>/files/alice</d:href><d:depth>infinity</d:depth>');
  });

  it('matches % and _ as typed, not as wildcards', async () => {
    const found = await davAt(cloud.filesUrl).search!('100% take_b', { limit: 100 });
    expect(paths(found!.entries)).toEqual(['/Archive/100% take_b.wav']);
  });

  it('says when more matched than it lists', async () => {
    const found = await davAt(cloud.filesUrl).search!('take', { limit: 2 });
    expect(found).toMatchObject({ truncated: true });
    expect(found!.entries).toHaveLength(2);
    expect(cloud.searches.at(-1)).toContain('<d:nresults>3</d:nresults>');
  });

  it('keeps to a linked subfolder, with paths from that folder', async () => {
    const found = await davAt(`${cloud.filesUrl}Sessions/`).search!('take', { limit: 100 });
    expect(paths(found!.entries)).toEqual(['/Album/Retakes', '/Album/Vocal TAKE 3.wav', '/Bass take.wav']);
    expect(cloud.searches.at(-1)).toContain('<d:href>/files/alice/Sessions</d:href>');
  });

  it('works from the older /remote.php/webdav/ address too, asking the server whose files these are', async () => {
    const drive = davAt(cloud.legacyUrl);
    const found = await drive.search!('vocal', { limit: 100 });
    expect(paths(found!.entries)).toEqual(['/Sessions/Album/Vocal TAKE 3.wav']);
    // The login is an e-mail address; the scope names the user's id, which the server told.
    expect(cloud.searches.at(-1)).toContain('<d:href>/files/alice</d:href>');
    expect(cloud.principals).toEqual(['/remote.php/dav/']);
    // Asked once per linked account: the next search goes straight to SEARCH.
    await drive.search!('bass', { limit: 100 });
    expect(cloud.principals).toHaveLength(1);
    // A hit opens as a file of the linked account.
    expect(await drive.stat(found!.entries[0]!.path)).toMatchObject({
      kind: 'file',
      size: '/Sessions/Album/Vocal TAKE 3.wav'.length,
    });
  });

  it('refuses wrong credentials with the drive error users see', async () => {
    const error = await davAt(cloud.filesUrl, 'wrong').search!('take', { limit: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriveError);
    expect(error).toMatchObject({ code: 'DRIVE_CREDENTIALS' });
  });

  it('answers null where the server turns out not to offer SEARCH (unknown method, blocked by a proxy, unknown scope)', async () => {
    for (const status of [501, 405, 403, 404, 400]) {
      cloud.searchRefusal = status;
      try {
        expect(await davAt(cloud.filesUrl).search!('take', { limit: 100 })).toBeNull();
      } finally {
        cloud.searchRefusal = null;
      }
    }
  });
});

describe('another WebDAV server', () => {
  it('offers no whole-account search: a search filters the open folder', async () => {
    const drive = createDrive(
      { kind: 'webdav', url: plain.url, username: plain.username, password: plain.password },
      network,
      systemClock,
    );
    expect(drive.searchable).toBe(false);
    expect('search' in drive && drive.search !== undefined).toBe(false);
  });
});

describe('browsing a linked Nextcloud through the API', () => {
  let server: TestServer;
  let token: string;
  let id: string;
  beforeAll(async () => {
    server = await startTestServer({ CONNECTORS_ENABLED: 'webdav', CONNECTORS_ALLOW_HOSTS: '127.0.0.1' });
    ({ token, connectorId: id } = await userWithLinkedWebdav(server.url, 'alice@cloud.test', {
      ...cloud,
      url: cloud.filesUrl,
    }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  const browse = (search: string) =>
    call(server.url, `/api/connectors/${id}/files?path=/Sessions&search=${encodeURIComponent(search)}`, { token });

  it('searches the whole account, and falls back to the open folder when SEARCH is refused', async () => {
    const whole = await browse('take');
    expect(whole.body).toMatchObject({ searchable: true, scope: 'account', truncated: false });
    expect(paths(whole.body.entries as { path: string }[])).toContain('/Archive/2019/Old take.flac');

    cloud.searchRefusal = 501;
    try {
      const folder = await browse('take');
      expect(folder.body).toMatchObject({ searchable: false, scope: 'folder' });
      expect(paths(folder.body.entries as { path: string }[])).toEqual(['/Sessions/Bass take.wav']);
    } finally {
      cloud.searchRefusal = null;
    }
  });
});
