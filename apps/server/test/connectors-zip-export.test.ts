import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorTransfer } from '@mixroom/contracts';
import { systemClock } from '../src/platform/clock/clock';
import { createDrive } from '../src/platform/drives/create-drive';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { connectorSteps } from './helpers/connector-steps';
import { inviteOf } from './helpers/invite';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startS3 } from './helpers/s3';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { writeWav } from './helpers/wav';
import { startWebdav, type TestWebdav } from './helpers/webdav';

type Name = 'alice' | 'bob' | 'carol' | 'dave';

let server: TestServer;
let dav: TestWebdav;
let s3: Awaited<ReturnType<typeof startS3>>;
let failing: Server;
const tokens = new Map<Name, string>();
const ids = new Map<Name, string>();
const connectors = new Map<string, string>();
const work = mkdtempSync(join(tmpdir(), 'mixroom-zip-export-'));

const as = (name: Name) => storageClient(server.url, tokens.get(name)!);
const api = (name: Name, path: string, init: { method?: string; body?: unknown } = {}) =>
  call(server.url, path, { ...init, token: tokens.get(name)! });
const { finished } = connectorSteps(api, 120_000);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * A WebDAV server whose disk fills mid-write: every call goes through to the real server, except a
 * PUT, which is answered 507 Insufficient Storage once 64 KiB of its body arrived (and reaches the
 * real server not at all).
 */
function startFailingDav(target: TestWebdav): Promise<Server> {
  const upstream = new URL(target.url);
  const created = createServer((incoming, outgoing) => {
    if (incoming.method === 'PUT') {
      let received = 0;
      incoming.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received < 64 * 1024 || outgoing.headersSent) return;
        outgoing.writeHead(507, { 'content-length': 0 });
        outgoing.flushHeaders();
      });
      // The connection stays open while the client sends (closing it early would race the refusal
      // with a reset, and the client might see either).
      incoming.on('end', () => outgoing.end());
      incoming.on('close', () => outgoing.end());
      return;
    }
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => created.listen(0, '127.0.0.1', () => resolve(created)));
}

async function link(name: Name, body: object): Promise<string> {
  const linked = await api(name, '/api/connectors', { method: 'POST', body });
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
  return linked.body.id as string;
}
const davBody = (url: string) => ({ kind: 'webdav', url, username: dav.username, password: dav.password });

/** Every file of a ZIP as the `unzip` tool extracts it: path inside the archive → SHA-256. */
function unzipped(zip: Buffer): Map<string, string> {
  const dir = mkdtempSync(join(work, 'unzip-'));
  writeFileSync(join(dir, 'archive.zip'), zip);
  const out = join(dir, 'out');
  execFileSync('unzip', ['-q', join(dir, 'archive.zip'), '-d', out]);
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(out, path), sha256(readFileSync(path)));
    }
  };
  walk(out);
  return files;
}

const under = (prefix: string, files: Map<string, string>) =>
  new Map([...files].map(([path, hash]) => [`${prefix}${path}`, hash]));

/** The world: Alice's folder "Album ✓" with two levels of sub-folders and a project at each level. */
const world = {
  album: '',
  mixes: '',
  alt: '',
  /** Path below the album → SHA-256 of the source file, for each project. */
  expected: new Map<string, string>(),
  /** The archive path of the project Bob (a viewer) may not download. */
  offLimits: '',
  daves: '',
};

beforeAll(async () => {
  [dav, s3] = await Promise.all([startWebdav(), startS3()]);
  failing = await startFailingDav(dav);
  server = await startTestServer({ CONNECTORS_ENABLED: 'webdav,s3', CONNECTORS_ALLOW_HOSTS: '127.0.0.1' });
  for (const name of ['alice', 'bob', 'carol', 'dave'] as const) {
    const token = (
      await signInThroughOidc(server.url, { email: `${name}@example.com`, password: `${name} zip pass 1` })
    ).access_token;
    tokens.set(name, token);
    ids.set(name, JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string);
  }
  const alice = as('alice');
  world.album = (await alice.createFolder('Album ✓', null)).id;
  world.mixes = (await alice.createFolder('Mixes', world.album)).id;
  world.alt = (await alice.createFolder('Alt takes', world.mixes)).id;
  const sources = [
    { path: makeAudio('Intro.wav', { seconds: 2, dir: work }), folder: world.album, at: '', download: true },
    { path: join(work, 'Main mix.wav'), folder: world.mixes, at: 'Mixes/', download: true },
    {
      path: makeAudio('Vocal take.flac', { seconds: 1, codec: 'flac', dir: work }),
      folder: world.alt,
      at: 'Mixes/Alt takes/',
      download: false,
    },
  ];
  await writeWav(sources[1]!.path, 3 * 1024 * 1024 + 7);
  for (const source of sources) {
    const { ticket } = await alice.upload(source.path, source.folder);
    const { project } = await alice.project(ticket.project.id);
    const path = `${source.at}${project.name}${source.path.slice(source.path.lastIndexOf('.'))}`;
    world.expected.set(path, sha256(readFileSync(source.path)));
    if (source.download)
      await alice.api(`/api/projects/${project.id}`, { method: 'PATCH', body: { enableDownload: true } });
    else world.offLimits = path;
  }
  // Bob joins the album as a viewer: he may download only where the project allows it.
  await as('bob').api('/api/join-requests', {
    method: 'POST',
    body: { type: 'group', id: world.album, invite: await inviteOf(alice, 'group', world.album) },
  });
  await alice.api(`/api/join-requests/${world.album}/${ids.get('bob')}/approve`, { method: 'POST' });
  // Dave has a folder of his own, for the drive that fails.
  world.daves = (await as('dave').createFolder('Daves', null)).id;
  await as('dave').upload(makeAudio('Solo.wav', { seconds: 2, dir: work }), world.daves);

  const port = (failing.address() as { port: number }).port;
  connectors.set('alice-dav', await link('alice', davBody(dav.url)));
  connectors.set('bob-dav', await link('bob', davBody(dav.url)));
  connectors.set('carol-dav', await link('carol', davBody(dav.url)));
  connectors.set('dave-failing', await link('dave', davBody(`http://127.0.0.1:${port}/`)));
  connectors.set('alice-s3', await link('alice', s3.drive));
}, 180_000);

afterAll(async () => {
  await server?.close();
  await Promise.all([dav?.stop(), s3?.stop(), new Promise((resolve) => failing?.close(resolve))]);
  rmSync(work, { recursive: true, force: true });
});

const saveFolder = (name: Name, connector: string, groupId: string, folder: string) =>
  api(name, `/api/connectors/${connectors.get(connector)}/folder-exports`, {
    method: 'POST',
    body: { groupId, folder },
  });

describe('"Save to…" on a folder writes it as one ZIP', () => {
  it('to WebDAV: every entry is its version file, byte for byte, under its sub-folders', async () => {
    mkdirSync(join(dav.directory, 'Backups'), { recursive: true });
    const answer = await saveFolder('alice', 'alice-dav', world.album, '/Backups');
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const started = answer.body.transfer as ConnectorTransfer;
    expect(started).toMatchObject({
      direction: 'export',
      fileName: 'Album ✓.zip',
      groupId: world.album,
      versionId: null,
      projectId: null,
      status: 'running',
    });
    const done = await finished('alice', started.id);
    const zip = readFileSync(join(dav.directory, 'Backups', 'Album ✓.zip'));
    // The length announced at request time is the archive's, to the byte.
    expect(done).toMatchObject({ status: 'done', error: null, bytesTotal: zip.length, bytesDone: zip.length });
    expect(started.bytesTotal).toBe(zip.length);
    // As the browser's ZIP of the folder: everything under the folder's own name.
    expect(unzipped(zip)).toEqual(under('Album ✓/', world.expected));

    // Saving again never replaces the first archive: the second takes the next free name.
    const again = await saveFolder('alice', 'alice-dav', world.album, '/Backups/');
    expect((again.body.transfer as ConnectorTransfer).fileName).toBe('Album ✓ (2).zip');
    expect(await finished('alice', (again.body.transfer as ConnectorTransfer).id)).toMatchObject({ status: 'done' });
    expect(readFileSync(join(dav.directory, 'Backups', 'Album ✓ (2).zip')).equals(zip)).toBe(true);
    expect(readFileSync(join(dav.directory, 'Backups', 'Album ✓.zip')).equals(zip)).toBe(true);

    // The copy shows in the caller's list of copies, as the Activities panel reads it.
    const { body } = await api('alice', '/api/connectors/transfers');
    expect((body.transfers as ConnectorTransfer[]).map((t) => t.fileName)).toEqual(
      expect.arrayContaining(['Album ✓.zip', 'Album ✓ (2).zip']),
    );
  }, 180_000);

  it('to an S3 bucket: read back from the bucket, every entry is its version file', async () => {
    const answer = await saveFolder('alice', 'alice-s3', world.mixes, '/');
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const transfer = answer.body.transfer as ConnectorTransfer;
    expect(transfer.fileName).toBe('Mixes.zip');
    expect(await finished('alice', transfer.id)).toMatchObject({ status: 'done', error: null });
    const drive = createDrive(s3.drive, { allowHosts: ['127.0.0.1'], timeoutMs: 10_000 }, systemClock);
    const read = await drive.read('/Mixes.zip');
    expect(read.size).toBe(transfer.bytesTotal);
    // A sub-folder's archive starts at that folder: the album's other project is not in it.
    const below = new Map([...world.expected].filter(([path]) => path.startsWith('Mixes/')));
    expect(below.size).toBe(2);
    expect(unzipped(await buffer(read.body))).toEqual(below);
  }, 180_000);

  it('gives a viewer a ZIP without the project whose downloads are off, and refuses a folder of only such projects', async () => {
    mkdirSync(join(dav.directory, 'Bob'), { recursive: true });
    const answer = await saveFolder('bob', 'bob-dav', world.album, '/Bob');
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(await finished('bob', (answer.body.transfer as ConnectorTransfer).id)).toMatchObject({ status: 'done' });
    const expected = new Map([...world.expected].filter(([path]) => path !== world.offLimits));
    expect(expected.size).toBe(2);
    expect(unzipped(readFileSync(join(dav.directory, 'Bob', 'Album ✓.zip')))).toEqual(under('Album ✓/', expected));

    // The same text as the browser's ZIP of that folder, before anything is written.
    const nothing = await saveFolder('bob', 'bob-dav', world.alt, '/Bob');
    const browser = await api('bob', '/api/downloads/zip', {
      method: 'POST',
      body: { items: [{ kind: 'group', id: world.alt }] },
    });
    expect(nothing.status).toBe(403);
    expect(nothing.body.error).toEqual(browser.body.error);
    expect(readdirSync(join(dav.directory, 'Bob'))).toEqual(['Album ✓.zip']);
  }, 180_000);

  it("refuses an outsider, someone else's account and a folder that does not exist", async () => {
    mkdirSync(join(dav.directory, 'Carol'), { recursive: true });
    const outsider = await saveFolder('carol', 'carol-dav', world.album, '/Carol');
    expect(outsider.status).toBe(403);
    const nowhere = await saveFolder('carol', 'carol-dav', '00000000-0000-4000-8000-000000000000', '/Carol');
    expect(nowhere.status).toBe(404);
    // Alice's own folder into Carol's account: no such account, for Alice.
    const theirs = await saveFolder('alice', 'carol-dav', world.album, '/Carol');
    expect(theirs.status).toBe(404);
    const signedOut = await call(server.url, `/api/connectors/${connectors.get('alice-dav')}/folder-exports`, {
      method: 'POST',
      body: { groupId: world.album, folder: '/' },
    });
    expect(signedOut.status).toBe(401);
    expect(readdirSync(join(dav.directory, 'Carol'))).toEqual([]);
    expect((await api('carol', '/api/connectors/transfers')).body.transfers).toEqual([]);
  });

  it('refuses a target folder the account does not have, a file as target, and bad input, with clear answers', async () => {
    const missing = await saveFolder('alice', 'alice-dav', world.album, '/No such folder');
    expect(missing).toMatchObject({ status: 400, body: { error: { code: 'NO_SUCH_FOLDER' } } });
    expect(missing.body.error?.message).toMatch(/not in the linked account/);
    const file = await saveFolder('alice', 'alice-dav', world.album, '/Backups/Album ✓.zip');
    expect(file).toMatchObject({ status: 400, body: { error: { code: 'NOT_A_FOLDER' } } });
    const climbing = await saveFolder('alice', 'alice-dav', world.album, '/../etc');
    expect(climbing.status).toBe(400);
    const noGroup = await api('alice', `/api/connectors/${connectors.get('alice-dav')}/folder-exports`, {
      method: 'POST',
      body: { groupId: 'album', folder: '/' },
    });
    expect(noGroup.status).toBe(400);
  });

  it('marks the copy failed with a clear reason when the drive fails mid-write, and leaves nothing there', async () => {
    mkdirSync(join(dav.directory, 'Dave'), { recursive: true });
    const answer = await saveFolder('dave', 'dave-failing', world.daves, '/Dave');
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const transfer = await finished('dave', (answer.body.transfer as ConnectorTransfer).id);
    expect(transfer).toMatchObject({ status: 'failed', error: 'This file is too large for the storage provider.' });
    expect(transfer.bytesDone).toBeLessThan(transfer.bytesTotal);
    expect(readdirSync(join(dav.directory, 'Dave'))).toEqual([]);
    expect(existsSync(join(dav.directory, 'Daves.zip'))).toBe(false);
    // The failed copy stays in Dave's list with its reason, for the Activities panel.
    const { body } = await api('dave', '/api/connectors/transfers');
    expect(body.transfers).toEqual([expect.objectContaining({ id: transfer.id, status: 'failed' })]);
  }, 120_000);

  it('refuses before writing when a file of the folder is gone from the store: the drive gets nothing', async () => {
    const carol = as('carol');
    const folder = await carol.createFolder('Lost', null);
    const { ticket } = await carol.upload(makeAudio('Gone.wav', { seconds: 1, dir: work }), folder.id);
    await waitFor(
      async () => (await carol.project(ticket.project.id)).versions.every((v) => v.status !== 'processing'),
      {
        what: 'processing',
        timeoutMs: 60_000,
      },
    );
    // The stored file is lost (a disk fault): the request, which reads no file, is accepted; the copy
    // checks every file before its first byte goes out.
    const stored = join(server.dataDir, 'blobs', 'objects', 'projects', ticket.project.id);
    expect(existsSync(stored)).toBe(true);
    rmSync(stored, { recursive: true });
    const answer = await saveFolder('carol', 'carol-dav', folder.id, '/Carol');
    expect(answer.status).toBe(202);
    const transfer = await finished('carol', (answer.body.transfer as ConnectorTransfer).id);
    expect(transfer).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/could not be read, so nothing was saved/),
    });
    expect(readdirSync(join(dav.directory, 'Carol'))).toEqual([]);
  }, 120_000);
});
