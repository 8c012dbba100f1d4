import { parseMidi } from 'midi-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { inviteOf } from './helpers/invite';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

/**
 * Beyond timed comments: comments exported as DAW markers (read back by parsers Mixroom did not
 * write, exact to the millisecond at any sample rate), resolved comments, and version verdicts.
 */
type Name = 'ana' | 'ed' | 'vic';
let server: TestServer;
const tokens = new Map<Name, string>();
const as = (name: Name) => storageClient(server.url, tokens.get(name)!);
const idOf = (name: Name) =>
  JSON.parse(Buffer.from(tokens.get(name)!.split('.')[1]!, 'base64url').toString()).sub as string;
let folderId: string;
const versions: Record<'cd' | 'hires', { projectId: string; versionId: string }> = {
  cd: { projectId: '', versionId: '' },
  hires: { projectId: '', versionId: '' },
};

/** The comments every export must place exactly: a point, a range and a second point. */
const COMMENTS = [
  { type: 'timestamp', startTime: 1.23, text: 'Kick too loud here' },
  { type: 'range', startTime: 2.5, endTime: 4.75, text: 'Vocal, bring it up, "a bit"' },
  { type: 'timestamp', startTime: 0.01, text: 'Click at the start' },
] as const;

async function fileOf(versionId: string, query: string): Promise<Buffer> {
  const response = await fetch(`${server.url}/api/versions/${versionId}/markers?${query}`, {
    headers: { authorization: `Bearer ${tokens.get('vic')!}` },
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

beforeAll(async () => {
  server = await startTestServer();
  for (const name of ['ana', 'ed', 'vic'] as const) {
    tokens.set(
      name,
      (
        await signInThroughOidc(server.url, {
          email: `${name}@verdicts.test`,
          password: `${name}-password-long`,
          displayName: name,
        })
      ).access_token,
    );
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
  for (const [key, sampleRate] of [
    ['cd', 44_100],
    ['hires', 96_000],
  ] as const) {
    const { ticket } = await as('ana').upload(
      makeAudio(`Master ${sampleRate}.wav`, { seconds: 6, sampleRate }),
      folderId,
    );
    versions[key] = { projectId: ticket.project.id, versionId: ticket.version.id };
    await waitFor(async () => (await as('ana').project(ticket.project.id)).versions[0]?.status === 'ready', {
      what: 'processing',
    });
    for (const comment of COMMENTS)
      await as('vic').api(`/api/versions/${ticket.version.id}/comments`, { method: 'POST', body: comment });
  }
}, 180_000);
afterAll(() => server?.close());

describe('comments as DAW markers', () => {
  it.each(['cd', 'hires'] as const)(
    'a Standard MIDI File with a marker at every comment, to the millisecond (%s)',
    async (key) => {
      for (const offsetMs of [0, 2000]) {
        const midi = parseMidi(await fileOf(versions[key].versionId, `format=midi&offsetMs=${offsetMs}`));
        expect(midi.header.format).toBe(0);
        const ticksPerBeat = midi.header.ticksPerBeat!;
        let tick = 0;
        let microsecondsPerBeat = 500_000;
        const markers: { ms: number; text: string }[] = [];
        for (const event of midi.tracks[0]!) {
          tick += event.deltaTime;
          if (event.type === 'setTempo') microsecondsPerBeat = event.microsecondsPerBeat;
          if (event.type === 'marker')
            markers.push({ ms: (tick * microsecondsPerBeat) / ticksPerBeat / 1000, text: event.text });
        }
        const expected = [
          { ms: 10, text: 'vic: Click at the start' },
          { ms: 1230, text: 'vic: Kick too loud here' },
          { ms: 2500, text: 'vic: Vocal, bring it up, "a bit"' },
          { ms: 4750, text: 'End: vic: Vocal, bring it up, "a bit"' },
        ];
        expect(markers.map((m) => m.text)).toEqual(expected.map((e) => e.text));
        markers.forEach((m, i) => expect(Math.abs(m.ms - (expected[i]!.ms + offsetMs))).toBeLessThanOrEqual(1));
      }
    },
  );

  it('a Reaper marker/region CSV and an Audacity label track read back at the same times', async () => {
    const reaper = (await fileOf(versions.hires.versionId, 'format=reaper')).toString('utf8').trim().split('\r\n');
    expect(reaper[0]).toBe('#,Name,Start,End,Length');
    expect(reaper.slice(1)).toEqual([
      'M1,vic: Click at the start,0.010,,',
      'M2,vic: Kick too loud here,1.230,,',
      'R1,"vic: Vocal, bring it up, ""a bit""",2.500,4.750,2.250',
    ]);
    const labels = (await fileOf(versions.cd.versionId, 'format=audacity&offsetMs=1500'))
      .toString('utf8')
      .trim()
      .split('\n');
    expect(labels.map((line) => line.split('\t').slice(0, 2).map(Number))).toEqual([
      [1.51, 1.51],
      [2.73, 2.73],
      [4, 6.25],
    ]);
    const csv = (await fileOf(versions.cd.versionId, 'format=csv')).toString('utf8').trim().split('\r\n');
    expect(csv[0]).toBe('time,end,author,text,replies,resolved');
    expect(csv[2]).toBe('1.230,,vic,Kick too loud here,0,no');
  });
});

describe('resolving comments', () => {
  it('the author or an editor resolves and reopens; a viewer cannot resolve someone else’s; "open only" leaves resolved ones out', async () => {
    const { versionId } = versions.cd;
    const list = async (name: Name) =>
      (
        await as(name).api<{
          comments: { id: string; text: string; resolved: boolean; capabilities: { canResolve: boolean } }[];
        }>(`/api/versions/${versionId}/comments`)
      ).comments;
    const anaComment = await as('ana').api<{ id: string }>(`/api/versions/${versionId}/comments`, {
      method: 'POST',
      body: { type: 'timestamp', startTime: 5, text: 'Publisher remark' },
    });
    const kick = (await list('vic')).find((c) => c.text === 'Kick too loud here')!;
    expect(kick.capabilities.canResolve).toBe(true);
    expect((await list('vic')).find((c) => c.id === anaComment.id)?.capabilities.canResolve).toBe(false);
    expect((await list('ed')).every((c) => c.capabilities.canResolve)).toBe(true);

    expect(
      (
        await call(server.url, `/api/comments/${anaComment.id}/resolved`, {
          method: 'PUT',
          token: tokens.get('vic')!,
          body: { resolved: true },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(server.url, `/api/comments/${kick.id}/resolved`, {
          method: 'PUT',
          token: tokens.get('ed')!,
          body: { resolved: true },
        })
      ).status,
    ).toBe(204);
    expect((await list('vic')).find((c) => c.id === kick.id)?.resolved).toBe(true);
    const open = (await fileOf(versionId, 'format=csv&scope=open')).toString('utf8');
    expect(open).not.toContain('Kick too loud here');
    expect(open).toContain('Click at the start');
    expect(
      (
        await call(server.url, `/api/comments/${kick.id}/resolved`, {
          method: 'PUT',
          token: tokens.get('vic')!,
          body: { resolved: false },
        })
      ).status,
    ).toBe(204);
    expect((await list('ana')).find((c) => c.id === kick.id)?.resolved).toBe(false);
  });
});

describe('version verdicts', () => {
  it('an editor approves, a viewer cannot; tiles show it and everyone who sees the project is told live', async () => {
    const { projectId, versionId } = versions.hires;
    const vic = await connectRealtime(server.url);
    await vic.auth(tokens.get('vic')!);
    await vic.subscribe(`user:${idOf('vic')}`);
    expect(
      (
        await call(server.url, `/api/versions/${versionId}/approval`, {
          method: 'PUT',
          token: tokens.get('vic')!,
          body: { approval: 'approved' },
        })
      ).status,
    ).toBe(403);
    const set = await call(server.url, `/api/versions/${versionId}/approval`, {
      method: 'PUT',
      token: tokens.get('ed')!,
      body: { approval: 'needs_changes' },
    });
    expect(set.status).toBe(200);
    expect((set.body as { approval: string }).approval).toBe('needs_changes');
    const told = await waitFor(() => vic.events().find((e) => e.type === 'approval.changed'), {
      what: 'the verdict event',
    });
    expect(told).toMatchObject({ data: { projectId, versionId, approval: 'needs_changes', by: 'ed' } });
    const listing = await as('vic').list(folderId);
    const tile = listing.items.find((i) => i.id === projectId) as { latestVersion?: { approval: string } } | undefined;
    expect(tile?.latestVersion?.approval).toBe('needs_changes');
    vic.close();
  });

  it('a folder is filtered by the verdict of each project’s latest version, in SQL so totals stay exact', async () => {
    const { projectId } = versions.hires;
    await as('ed').api(`/api/versions/${versions.hires.versionId}/approval`, {
      method: 'PUT',
      body: { approval: 'needs_changes' },
    });
    const ids = async (query: string) => {
      const page = await as('vic').list(folderId, query);
      return { ids: page.items.map((i) => i.id), total: page.total };
    };
    expect(await ids('?approval=needs_changes')).toEqual({ ids: [projectId], total: 1 });
    expect(await ids('?approval=none')).toEqual({ ids: [versions.cd.projectId], total: 1 });
    expect(await ids('?approval=approved')).toEqual({ ids: [], total: 0 });
    expect((await ids('?approval=all')).total).toBe(2);
    const bad = await call(server.url, `/api/groups/${folderId}/items?approval=maybe`, { token: tokens.get('vic')! });
    expect(bad.status).toBe(400);
  });
});
