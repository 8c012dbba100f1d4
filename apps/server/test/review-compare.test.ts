import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VersionDifference } from '@mixroom/contracts';
import { versionDifferences } from '../src/db/schema';
import { stageJobId } from '../src/platform/jobs/staged-job';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { bassMix, bounceOf, CHANGE, changedPair } from './helpers/changed-pair';
import { inviteOf } from './helpers/invite';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

/**
 * Comparing versions: the "what changed" lane of two bounces (found where it is, after lining up
 * their starts), against a reference track of another project, never for someone who can't see
 * both; and the project's other users told of a verdict on the channels they chose.
 */
type Name = 'ana' | 'ed' | 'vic' | 'sam';
let server: TestServer;
const tokens = new Map<Name, string>();
const as = (name: Name) => storageClient(server.url, tokens.get(name)!);
const idOf = (name: Name) =>
  JSON.parse(Buffer.from(tokens.get(name)!.split('.')[1]!, 'base64url').toString()).sub as string;
let folderId: string;
let projectId: string;
const ids = { a: '', b: '', privateRef: '', samsOwn: '' };

const lane = (name: Name, versionId: string, other: string) =>
  call(server.url, `/api/versions/${versionId}/difference?with=${other}`, { token: tokens.get(name)! });

async function ready(projectOf: string, count: number, name: Name = 'ana') {
  return waitFor(
    async () => {
      const { versions } = await as(name).project(projectOf);
      return versions.length === count && versions.every((v) => v.status === 'ready') ? versions : null;
    },
    { what: 'processing', timeoutMs: 90_000 },
  );
}

beforeAll(async () => {
  server = await startTestServer();
  for (const name of ['ana', 'ed', 'vic', 'sam'] as const) {
    const account = { email: `${name}@compare.test`, password: `${name}-password-long`, displayName: name };
    tokens.set(name, (await signInThroughOidc(server.url, account)).access_token);
  }
  folderId = (await as('ana').createFolder('Mastering', null)).id;
  for (const name of ['ed', 'vic'] as const) {
    await as(name).api('/api/join-requests', {
      method: 'POST',
      body: { type: 'group', id: folderId, invite: await inviteOf(as('ana'), 'group', folderId) },
    });
    await as('ana').api(`/api/join-requests/${folderId}/${idOf(name)}/approve`, { method: 'POST' });
  }
  await as('ana').api(`/api/share/group/${folderId}/users/${idOf('ed')}`, {
    method: 'PUT',
    body: { permission: 'EDITOR' },
  });
  const pair = changedPair();
  const { ticket } = await as('ana').upload(pair.a, folderId);
  projectId = ticket.project.id;
  await as('ana').addVersion(projectId, pair.b, 'Vocal up');
  // A reference in a folder only Ana sees, and a project of Sam's, who sees nothing of Ana's.
  const hidden = await as('ana').createFolder('Private', null);
  const reference = await as('ana').upload(makeAudio('Reference.wav', { seconds: 3 }), hidden.id);
  const own = await as('sam').upload(makeAudio('Sam.wav', { seconds: 3 }), null);
  const versions = await ready(projectId, 2);
  ids.a = versions.find((v) => v.number === 1)!.id;
  ids.b = versions.find((v) => v.number === 2)!.id;
  ids.privateRef = (await ready(reference.ticket.project.id, 1))[0]!.id;
  ids.samsOwn = (await ready(own.ticket.project.id, 1, 'sam'))[0]!.id;
}, 180_000);
afterAll(() => server?.close());

describe('what changed between versions', () => {
  it('a job aligns B to A (12 ms later) and marks the one stretch turned up by 3 dB, nothing else', async () => {
    // The open review screen hears the job's progress and its end on the project's topic.
    const socket = await connectRealtime(server.url);
    await socket.auth(tokens.get('vic')!);
    expect((await socket.subscribe(`project:${projectId}`)).type).toBe('subscribed');
    const first = await lane('vic', ids.a, ids.b);
    expect(first.status).toBe(200);
    expect((first.body as unknown as VersionDifference).status).toBe('pending');
    const ticks = () =>
      socket
        .events()
        .flatMap((e) => (e.type === 'difference.progress' ? [e.data] : []))
        .filter((d) => d.versionId === ids.a && d.otherVersionId === ids.b);
    await waitFor(() => ticks().some((d) => d.status === 'ready'), {
      what: 'the lane’s ready event',
      timeoutMs: 60_000,
    });
    socket.close();
    const progress = ticks().map((d) => d.progress);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    const done = (await lane('vic', ids.a, ids.b)).body as unknown as VersionDifference;
    expect(done.status).toBe('ready');
    expect(done.alignment).toBe('shifted');
    expect(Math.abs(done.offsetSeconds! - CHANGE.offsetSeconds)).toBeLessThan(0.001);
    expect(done.everywhere).toBe(false);
    expect(done.regions).toHaveLength(1);
    expect(Math.abs(done.regions[0]!.start - CHANGE.start)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(done.regions[0]!.end - CHANGE.end)).toBeLessThanOrEqual(0.25);
    // The lane covers A's 12 s; outside the change it stays far below the threshold.
    expect(done.levels.length * done.windowSeconds!).toBeCloseTo(12, 0);
    const outside = done.levels.filter((_, i) => {
      const t = i * done.windowSeconds!;
      return t < CHANGE.start - 0.25 || t > CHANGE.end + 0.25;
    });
    expect(Math.max(...outside)).toBeLessThan(done.thresholdDb);
    // A stricter minimum length leaves the two-second change out.
    const strict = await call(server.url, `/api/versions/${ids.a}/difference?with=${ids.b}&minSeconds=3`, {
      token: tokens.get('ed')!,
    });
    expect((strict.body as unknown as VersionDifference).regions).toEqual([]);
  });

  it('two bounces from sample 0, B quieter and brighter throughout: no offset claimed, the change said as one over the whole file', async () => {
    const a = bassMix();
    const b = bounceOf(a, 'Bass mix mastered.wav', 'volume=-1.8dB,highshelf=f=8000:g=4');
    const { ticket } = await as('ana').upload(a, folderId);
    await as('ana').addVersion(ticket.project.id, b, 'Quieter, brighter');
    const [first, second] = (await ready(ticket.project.id, 2)).sort((x, y) => x.number - y.number);
    const done = await waitFor(
      async () => {
        const body = (await lane('ana', first!.id, second!.id)).body as unknown as VersionDifference;
        return body.status === 'ready' ? body : null;
      },
      { what: 'the lane', timeoutMs: 90_000 },
    );
    expect(done.alignment).not.toBe('shifted');
    expect(done.offsetSeconds).toBeNull();
    expect(done.everywhere).toBe(true);
    expect(Math.abs(done.overall!.levelDb - -1.8)).toBeLessThanOrEqual(0.2);
    expect(done.overall!.bands.at(-1)).toMatchObject({ fromHz: 8000, db: expect.any(Number) });
    expect(done.overall!.bands.at(-1)!.db).toBeGreaterThan(1.5);
  });

  it('against a reference track of another project the actor sees; never one they cannot see', async () => {
    const reference = await lane('ana', ids.a, ids.privateRef);
    expect(reference.status).toBe(200);
    expect((reference.body as unknown as VersionDifference).otherVersionId).toBe(ids.privateRef);
    // Vic sees the project but not Ana's private folder: the reference reads as no such version.
    const hidden = await lane('vic', ids.a, ids.privateRef);
    expect(hidden.status).toBe(404);
    expect(JSON.stringify(hidden.body)).not.toContain('Reference');
    // Sam sees neither side of Ana's versions, whichever one he names first.
    expect([403, 404]).toContain((await lane('sam', ids.a, ids.b)).status);
    expect((await lane('sam', ids.samsOwn, ids.b)).status).toBe(404);
    expect((await lane('sam', ids.samsOwn, ids.samsOwn)).status).toBe(400);
  });

  it('a lane left pending without a job (lost with its node) is queued again by the next request, at once', async () => {
    // B against A, never asked for: its row says pending, and no job of its stage exists.
    const pair = { versionId: ids.b, otherVersionId: ids.a };
    const stage = 'review.compute-difference';
    const jobId = stageJobId(stage, `${pair.versionId}:${pair.otherVersionId}`);
    await server.context.database.db.insert(versionDifferences).values({ ...pair, updatedAt: new Date(0) });
    expect(await server.context.jobs.state(stage, jobId)).toBeNull();
    expect(((await lane('vic', ids.b, ids.a)).body as unknown as VersionDifference).status).toBe('pending');
    await waitFor(
      async () => ((await lane('vic', ids.b, ids.a)).body as unknown as VersionDifference).status === 'ready',
      { what: 'the lane queued again', timeoutMs: 60_000 },
    );
    expect(await server.context.jobs.state(stage, jobId)).toBe('completed');
  });

  it('a collaborator removed from the folder can no longer read the lane', async () => {
    expect((await lane('vic', ids.a, ids.b)).status).toBe(200);
    await as('ana').api(`/api/share/group/${folderId}/users/${idOf('vic')}`, { method: 'DELETE' });
    expect([403, 404]).toContain((await lane('vic', ids.a, ids.b)).status);
    expect([403, 404]).toContain((await lane('vic', ids.samsOwn, ids.a)).status);
  });
});

describe('verdict notices', () => {
  it('the project’s other users are told on the channels they chose; the one who set it is not', async () => {
    await as('ed').api('/api/me/notifications', { method: 'PUT', body: { email: false, push: false, inApp: true } });
    const sockets = await Promise.all(
      (['ana', 'ed'] as const).map(async (name) => {
        const socket = await connectRealtime(server.url);
        await socket.auth(tokens.get(name)!);
        await socket.subscribe(`user:${idOf(name)}`);
        return { name, socket };
      }),
    );
    const mails = join(server.dataDir, 'outbox');
    const mailed = async () => {
      const files = await readdir(mails).catch(() => [] as string[]);
      return Promise.all(files.map((f) => readFile(join(mails, f), 'utf8')));
    };
    await as('ed').api(`/api/versions/${ids.b}/approval`, { method: 'PUT', body: { approval: 'approved' } });
    const notice = await waitFor(() => sockets[0]!.socket.events().find((e) => e.type === 'notice'), {
      what: 'Ana’s notice',
    });
    expect(notice.data).toEqual({
      title: 'Review',
      body: 'ed approved v2 of “Mix A”.',
      url: `/version/${projectId}/2`,
    });
    // Ana takes e-mail too; Ed set the verdict and hears nothing of it.
    await waitFor(
      async () =>
        (await mailed()).find((m) => m.includes('ana@compare.test') && m.includes('Subject: Mixroom: Review')),
      { what: 'Ana’s mail' },
    );
    await as('ana').api(`/api/versions/${ids.b}/approval`, { method: 'PUT', body: { approval: 'needs_changes' } });
    await waitFor(() => sockets[1]!.socket.events().find((e) => e.type === 'notice'), { what: 'Ed’s notice' });
    expect(sockets[0]!.socket.events().filter((e) => e.type === 'notice')).toHaveLength(1);
    for (const { socket } of sockets) socket.close();
  });
});
