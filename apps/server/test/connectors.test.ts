import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorTransfer, Task, Version } from '@mixroom/contracts';
import { versions } from '../src/db/schema';
import { systemClock } from '../src/platform/clock/clock';
import { createDrive } from '../src/platform/drives/create-drive';
import { call } from './helpers/api';
import { connectorSteps } from './helpers/connector-steps';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startS3, TEST_BUCKET } from './helpers/s3';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { writeWav } from './helpers/wav';
import { startBrokenDav, startWebdav, type TestWebdav } from './helpers/webdav';

let server: TestServer;
let dav: TestWebdav;
let s3: Awaited<ReturnType<typeof startS3>>;
let broken: Server;
let brokenUrl: string;
let alice: string;
let bob: string;
const accounts = {
  alice: { email: 'alice@example.com', password: 'correct horse battery 1' },
  bob: { email: 'bob@example.com', password: 'correct horse battery 2' },
};

const BIG = 200 * 1024 * 1024;

beforeAll(async () => {
  [dav, s3, broken] = await Promise.all([startWebdav(), startS3(), startBrokenDav()]);
  const address = broken.address();
  brokenUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  server = await startTestServer({
    CONNECTORS_ENABLED: 'webdav,s3',
    CONNECTORS_ALLOW_HOSTS: '127.0.0.1',
    // Below the 200 MB mix, so an AI tool refuses it as too large while a version takes it.
    TOOLS_LINK_MAX_BYTES: String(100 * 1024 * 1024),
  });
  await signInThroughOidc(server.url, accounts.alice);
  await signInThroughOidc(server.url, accounts.bob);
}, 120_000);
// Fresh tokens for every test: the 200 MB copy and its processing can outlast an access token.
beforeEach(async () => {
  alice = (await signInThroughOidc(server.url, accounts.alice, 'signin')).access_token;
  bob = (await signInThroughOidc(server.url, accounts.bob, 'signin')).access_token;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await Promise.all([dav?.stop(), s3?.stop(), new Promise((resolve) => broken?.close(resolve))]);
});

/** One call as a user; a token that expired during a long wait is renewed by signing in again. */
async function api(token: string, path: string, init: { method?: string; body?: unknown } = {}) {
  const answer = await call(server.url, path, { ...init, token });
  const who = token === alice ? 'alice' : token === bob ? 'bob' : null;
  if (answer.status !== 401 || !who) return answer;
  const fresh = (await signInThroughOidc(server.url, accounts[who], 'signin')).access_token;
  if (who === 'alice') alice = fresh;
  else bob = fresh;
  return call(server.url, path, { ...init, token: fresh });
}

const { newProject, finished, versionsOf, sha256Of, saveTo } = connectorSteps(api, 240_000);

let davId: string;

describe('linking', () => {
  it('lists the enabled kinds and nothing linked at first', async () => {
    const { status, body } = await api(alice, '/api/connectors');
    expect(status).toBe(200);
    expect(body).toEqual({ available: ['webdav', 's3'], linked: [] });
  });

  it('refuses wrong credentials, private addresses and bad URLs with clear errors, and stores nothing', async () => {
    const base = { kind: 'webdav', username: dav.username, password: dav.password };
    const wrong = await api(alice, '/api/connectors', {
      method: 'POST',
      body: { ...base, url: dav.url, password: 'nope' },
    });
    expect(wrong).toMatchObject({ status: 422, body: { error: { code: 'DRIVE_CREDENTIALS' } } });
    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      `https://localhost:${new URL(dav.url).port}/`,
      'https://10.0.0.7/',
    ]) {
      const refused = await api(alice, '/api/connectors', { method: 'POST', body: { ...base, url } });
      expect(refused.status).toBe(422);
      expect(refused.body.error?.message).toMatch(/private network/);
    }
    const plain = await api(alice, '/api/connectors', {
      method: 'POST',
      body: { ...base, url: 'http://cloud.example.com/' },
    });
    expect(plain.body.error?.message).toMatch(/https/);
    const garbage = await api(alice, '/api/connectors', { method: 'POST', body: { ...base, url: 'not a url' } });
    expect(garbage).toMatchObject({ status: 422, body: { error: { code: 'DRIVE_URL' } } });
    const unknown = await api(alice, '/api/connectors', { method: 'POST', body: { kind: 'ftp', url: 'x' } });
    expect(unknown.status).toBe(400);
    expect((await api(alice, '/api/connectors')).body.linked).toEqual([]);
  });

  it('links a WebDAV account once, shows its name and never its password', async () => {
    const linked = await api(alice, '/api/connectors', {
      method: 'POST',
      body: { kind: 'webdav', url: dav.url, username: dav.username, password: dav.password },
    });
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({ kind: 'webdav', accountName: `alice on 127.0.0.1:${new URL(dav.url).port}` });
    davId = linked.body.id as string;
    const again = await api(alice, '/api/connectors', {
      method: 'POST',
      body: { kind: 'webdav', url: dav.url, username: dav.username, password: dav.password },
    });
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'ALREADY_LINKED' } } });
    const listing = await api(alice, '/api/connectors');
    expect(JSON.stringify(listing.body)).not.toContain(dav.password);
  });

  it("keeps one user's account from everyone else", async () => {
    expect((await api(bob, `/api/connectors/${davId}/files?path=/`)).status).toBe(404);
    expect((await api(bob, `/api/connectors/${davId}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call(server.url, `/api/connectors/${davId}/files`)).status).toBe(401);
    expect((await api(bob, '/api/connectors')).body.linked).toEqual([]);
  });
});

describe('import from WebDAV', () => {
  let wav: { size: number; sha256: string };

  beforeAll(async () => {
    mkdirSync(join(dav.directory, 'Sessions', 'Album'), { recursive: true });
    wav = await writeWav(join(dav.directory, 'Sessions', 'Album', 'Final Mix.wav'), BIG);
  }, 120_000);

  it('browses folders with sizes and filters by name', async () => {
    const root = await api(alice, `/api/connectors/${davId}/files?path=/`);
    expect(root.body).toMatchObject({ path: '/', searchable: false, entries: [{ name: 'Sessions', kind: 'folder' }] });
    const album = await api(alice, `/api/connectors/${davId}/files?path=${encodeURIComponent('/Sessions/Album')}`);
    expect(album.body.entries).toEqual([
      expect.objectContaining({
        name: 'Final Mix.wav',
        kind: 'file',
        size: wav.size,
        path: '/Sessions/Album/Final Mix.wav',
      }),
    ]);
    // WebDAV offers no search here: the name filters the open folder.
    const none = await api(alice, `/api/connectors/${davId}/files?path=/Sessions/Album&search=stem`);
    expect(none.body).toEqual({
      path: '/Sessions/Album',
      searchable: false,
      scope: 'folder',
      truncated: false,
      entries: [],
    });
    const climbing = await api(alice, `/api/connectors/${davId}/files?path=/../etc`);
    expect(climbing.status).toBe(400);
  });

  it('copies a 200 MB WAV on the server with bounded memory; the version processes and is the same file', async () => {
    const projectId = await newProject(alice, 'From the cloud');
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 50);
    const started = Date.now();
    const answer = await api(alice, `/api/connectors/${davId}/imports`, {
      method: 'POST',
      body: { path: '/Sessions/Album/Final Mix.wav', projectId, versionName: 'Cloud mix' },
    });
    expect(answer.status).toBe(202);
    expect(answer.body.version).toMatchObject({ status: 'uploading', name: 'Cloud mix' });
    const transfer = await finished(alice, (answer.body.transfer as ConnectorTransfer).id);
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;
    console.info(
      `connector import: ${wav.size} bytes in ${seconds.toFixed(1)} s (${(wav.size / 1e6 / seconds).toFixed(1)} MB/s), rss +${((rssPeak - rssBefore) / 1e6).toFixed(0)} MB`,
    );
    expect(transfer).toMatchObject({ status: 'done', bytesDone: wav.size, bytesTotal: wav.size, error: null });
    // Streamed, never gathered. This process also runs the test's WebDAV server and the copy's own
    // thread, whose freed buffers wait for a collection (+68–105 MB measured); a copy that gathered
    // the file would add all of it on top.
    expect(rssPeak - rssBefore).toBeLessThan(wav.size * 0.75);
    const versionId = (answer.body.version as Version).id;
    const ready = await waitFor(
      async () => (await versionsOf(alice, projectId))?.find((v) => v.id === versionId && v.status === 'ready'),
      { timeoutMs: 300_000, what: 'the imported version to be processed' },
    );
    expect(ready).toMatchObject({ fileName: 'Final Mix.wav', fileSize: wav.size });
    expect(await sha256Of(alice, versionId)).toBe(wav.sha256);
    const preview = await api(alice, `/api/versions/${versionId}/preview`);
    expect(preview.status).toBeLessThan(400);
  }, 600_000);

  it('refuses a file gone since it was listed, a folder, and a file beyond the plan, before a byte moves', async () => {
    const projectId = await newProject(alice, 'Nothing yet');
    const gone = await api(alice, `/api/connectors/${davId}/imports`, {
      method: 'POST',
      body: { path: '/Sessions/Album/deleted.wav', projectId, versionName: 'v1' },
    });
    expect(gone).toMatchObject({ status: 404, body: { error: { code: 'DRIVE_NOT_FOUND' } } });
    const folder = await api(alice, `/api/connectors/${davId}/imports`, {
      method: 'POST',
      body: { path: '/Sessions', projectId, versionName: 'v1' },
    });
    expect(folder).toMatchObject({ status: 400, body: { error: { code: 'NOT_A_FILE' } } });
    expect(await versionsOf(alice, projectId)).toEqual([]);
  });

  it("gives an AI tool its input from the linked folder, for the account's owner only", async () => {
    mkdirSync(join(dav.directory, 'Sessions', 'Takes'), { recursive: true });
    await writeWav(join(dav.directory, 'Sessions', 'Takes', 'Vocal take.wav'), 3 * 48_000 * 4 + 44);
    const start = (token: string, input: Record<string, unknown>) =>
      api(token, '/api/tools/tasks', { method: 'POST', body: { tool: 'stems', mode: 'TWOSTEMS', input } });

    // Someone else's account is no account; a name the tools don't take and a file too large for
    // them (the 200 MB mix, over this server's 100 MB cap) are refused before a task exists.
    const bobs = await start(bob, { connectorId: davId, path: '/Sessions/Takes/Vocal take.wav' });
    expect(bobs.status).toBe(404);
    const refusals = [
      await start(alice, { connectorId: davId, path: '/Sessions/Takes/notes.txt' }),
      await start(alice, { connectorId: davId, path: '/Sessions/Album/Final Mix.wav' }),
    ];
    expect(refusals.map((r) => [r.status, r.body.error?.code])).toEqual([
      [400, 'EXTENSION_NOT_SUPPORTED'],
      [413, 'FILE_TOO_LARGE'],
    ]);
    expect((await api(alice, '/api/tools/tasks')).body.items).toEqual([]);

    const task = await start(alice, { connectorId: davId, path: '/Sessions/Takes/Vocal take.wav' });
    expect(task.status).toBe(201);
    const created = task.body as unknown as Task;
    expect(created.input).toEqual({ source: 'connector', fileName: 'Vocal take.wav', versionId: null });
    expect(created.figures.inputDurationSeconds).toBeCloseTo(3, 1);
    const tasks = (await api(alice, '/api/tools/tasks')).body as unknown as { items: Task[] };
    expect(tasks.items.map((t) => t.id)).toEqual([task.body.id]);
  });
});

describe('a copy that fails leaves nothing behind', () => {
  let brokenId: string;

  beforeAll(async () => {
    const linked = await api(bob, '/api/connectors', {
      method: 'POST',
      body: { kind: 'webdav', url: brokenUrl, username: 'bob', password: 'secret' },
    });
    expect(linked.status).toBe(201);
    brokenId = linked.body.id as string;
  });

  it('refuses a file larger than the plan holds before copying', async () => {
    const projectId = await newProject(bob, 'Too big');
    const answer = await api(bob, `/api/connectors/${brokenId}/imports`, {
      method: 'POST',
      body: { path: '/big.wav', projectId, versionName: 'v1' },
    });
    expect(answer).toMatchObject({ status: 413, body: { error: { code: 'STORAGE_LIMIT' } } });
    expect(await versionsOf(bob, projectId)).toEqual([]);
  });

  it('drops the version and its file when the provider sends other bytes than it listed', async () => {
    const projectId = await newProject(bob, 'Changed file');
    const answer = await api(bob, `/api/connectors/${brokenId}/imports`, {
      method: 'POST',
      body: { path: '/short.wav', projectId, versionName: 'v1' },
    });
    expect(answer.status).toBe(202);
    const transfer = await finished(bob, (answer.body.transfer as ConnectorTransfer).id);
    expect(transfer).toMatchObject({ status: 'failed', error: expect.stringMatching(/changed/) });
    // The project had only this version: it goes with it, as a cancelled upload's does.
    expect(await versionsOf(bob, projectId)).toBeNull();
    const blobs = join(server.dataDir, 'blobs', 'objects', 'projects', projectId);
    expect(existsSync(blobs)).toBe(false);
  });
});

describe('S3-compatible bucket', () => {
  it('links with access keys, browses, imports a WAV and saves a version back', async () => {
    const drive = createDrive(s3.drive, { allowHosts: ['127.0.0.1'], timeoutMs: 10_000 }, systemClock);
    const local = join(dav.directory, 'bucket-take.wav');
    const wav = await writeWav(local, 8 * 1024 * 1024);
    await drive.write('/Takes/bucket take.wav', createReadStream(local), statSync(local).size);

    const link = (accessKeyId: string, secretAccessKey: string) =>
      api(alice, '/api/connectors', {
        method: 'POST',
        body: { kind: 's3', endpoint: s3.env.S3_ENDPOINT, bucket: TEST_BUCKET, accessKeyId, secretAccessKey },
      });
    const wrong = await link('WRONG', 'x');
    expect(wrong).toMatchObject({ status: 422, body: { error: { code: 'DRIVE_CREDENTIALS' } } });
    const linked = await link('S3RVER', 'S3RVER');
    expect(linked).toMatchObject({
      status: 201,
      body: { kind: 's3', accountName: expect.stringContaining(TEST_BUCKET) },
    });
    const id = linked.body.id as string;
    const takes = await api(alice, `/api/connectors/${id}/files?path=/Takes`);
    expect(takes.body.entries).toEqual([expect.objectContaining({ name: 'bucket take.wav', size: wav.size })]);

    const projectId = await newProject(alice, 'From the bucket');
    const answer = await api(alice, `/api/connectors/${id}/imports`, {
      method: 'POST',
      body: { path: '/Takes/bucket take.wav', projectId, versionName: 'Take' },
    });
    expect(answer.status).toBe(202);
    expect(await finished(alice, (answer.body.transfer as ConnectorTransfer).id)).toMatchObject({ status: 'done' });
    const versionId = (answer.body.version as Version).id;
    expect(await sha256Of(alice, versionId)).toBe(wav.sha256);

    // "Save to…": the version written back into another folder of the bucket, then onto WebDAV.
    await waitFor(async () => (await versionsOf(alice, projectId))?.find((v) => v.status === 'ready'), {
      timeoutMs: 120_000,
    });
    const saved = await saveTo(alice, id, versionId, '/');
    expect(saved.status).toBe(202);
    expect(await finished(alice, (saved.body.transfer as ConnectorTransfer).id)).toMatchObject({ status: 'done' });
    const back = await drive.read('/bucket take.wav');
    const hash = createHash('sha256');
    for await (const chunk of back.body) hash.update(chunk as Buffer);
    expect(hash.digest('hex')).toBe(wav.sha256);

    mkdirSync(join(dav.directory, 'Exports'), { recursive: true });
    const toDav = await saveTo(alice, davId, versionId, '/Exports');
    expect(await finished(alice, (toDav.body.transfer as ConnectorTransfer).id)).toMatchObject({ status: 'done' });
    expect(
      createHash('sha256')
        .update(readFileSync(join(dav.directory, 'Exports', 'bucket take.wav')))
        .digest('hex'),
    ).toBe(wav.sha256);
    // Saved again, it never replaces the first copy: it takes a name of its own.
    const again = await saveTo(alice, davId, versionId, '/Exports');
    expect((again.body.transfer as ConnectorTransfer).fileName).toBe('bucket take (2).wav');
    expect(await finished(alice, (again.body.transfer as ConnectorTransfer).id)).toMatchObject({ status: 'done' });
    expect(readFileSync(join(dav.directory, 'Exports', 'bucket take.wav')).length).toBe(wav.size);
    // A copy cut short (the stored file lost half its bytes): webdav-server keeps what a PUT brought
    // until then; the failed export removes it, so no half file is left with the user.
    const [stored] = await server.context.database.db.select().from(versions).where(eq(versions.id, versionId));
    truncateSync(join(server.dataDir, 'blobs', 'objects', stored!.blobKey), Math.floor(wav.size / 2));
    const cut = await saveTo(alice, davId, versionId, '/Exports');
    // Lost bytes of our own are no provider's hiccup: the copy fails at once, saying so, untried again.
    expect(await finished(alice, (cut.body.transfer as ConnectorTransfer).id)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('stored copy of this file is incomplete'),
    });
    expect(readdirSync(join(dav.directory, 'Exports')).sort()).toEqual(['bucket take (2).wav', 'bucket take.wav']);
    // Saving into a folder that is not there is refused up front.
    const nowhere = await saveTo(alice, davId, versionId, '/Nowhere');
    expect(nowhere).toMatchObject({ status: 400, body: { error: { code: 'NO_SUCH_FOLDER' } } });
    // Bob may not save Alice's version: he holds no role on it.
    const theft = await saveTo(bob, davId, versionId, '/');
    expect(theft.status).toBe(403);
  }, 300_000);
});

describe('unlinking', () => {
  it('erases the account: browsing it is refused afterwards', async () => {
    const unlinked = await api(alice, `/api/connectors/${davId}`, { method: 'DELETE' });
    // A WebDAV password has nothing to revoke at the provider.
    expect([unlinked.status, unlinked.body]).toEqual([200, { providerRevoked: null }]);
    expect((await api(alice, `/api/connectors/${davId}/files`)).status).toBe(404);
    expect((await api(alice, `/api/connectors/${davId}`, { method: 'DELETE' })).status).toBe(404);
    expect((await api(alice, '/api/connectors')).body.linked).toEqual([expect.objectContaining({ kind: 's3' })]);
  });
});
