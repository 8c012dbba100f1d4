import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectItem, VersionNote } from '@mixroom/contracts';
import { makeAudio } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { inviteOf } from './helpers/invite';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

let server: TestServer;
let ana: ReturnType<typeof storageClient>;
let ed: ReturnType<typeof storageClient>;
let vic: ReturnType<typeof storageClient>;
let eve: ReturnType<typeof storageClient>;
let vicToken: string;
let edToken: string;
let eveToken: string;
let folderId: string;
let projectId: string;
let versionId: string;

const sub = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;

async function member(email: string, name: string, permission: 'VIEWER' | 'EDITOR') {
  const token = (await signInThroughOidc(server.url, { email, password: `${name}-password`, displayName: name }))
    .access_token;
  const client = storageClient(server.url, token);
  await client.api('/api/join-requests', {
    method: 'POST',
    body: { type: 'group', id: folderId, invite: await inviteOf(ana, 'group', folderId) },
  });
  await ana.api(`/api/join-requests/${folderId}/${sub(token)}/approve`, { method: 'POST' });
  if (permission === 'EDITOR')
    await ana.api(`/api/share/group/${folderId}/users/${sub(token)}`, { method: 'PUT', body: { permission } });
  return { token, client };
}

beforeAll(async () => {
  server = await startTestServer();
  ana = storageClient(
    server.url,
    (await signInThroughOidc(server.url, { email: 'ana@review.test', password: 'ana-password', displayName: 'Ana' }))
      .access_token,
  );
  folderId = (await ana.createFolder('Album', null)).id;
  const { ticket } = await ana.upload(makeAudio('Single.wav', { seconds: 12 }), folderId);
  projectId = ticket.project.id;
  versionId = ticket.version.id;
  const editor = await member('ed@review.test', 'Ed', 'EDITOR');
  ed = editor.client;
  edToken = editor.token;
  const viewer = await member('vic@review.test', 'Vic', 'VIEWER');
  vic = viewer.client;
  vicToken = viewer.token;
  eveToken = (await signInThroughOidc(server.url, { email: 'eve@review.test', password: 'eve-password' })).access_token;
  eve = storageClient(server.url, eveToken);
  await waitFor(async () => (await ana.project(projectId)).versions[0]?.status === 'ready', { what: 'processing' });
});
afterAll(() => server.close());

describe('version notes', () => {
  const html =
    '<h2>Mix notes</h2><p>Vocals <strong>+1 dB</strong> in the <span style="font-size: 18pt">chorus</span> — ±0.5 dB ♯</p>' +
    '<ul><li><p>De-ess at 6 kHz</p></li><li><p>Wider reverb</p></li></ul><p><img src=x onerror=alert(1)>Safe<script>alert(1)</script></p>';

  it('are saved by editors, read by viewers live, and stored without anything the editor cannot produce', async () => {
    const watcher = await connectRealtime(server.url);
    await watcher.auth(vicToken);
    await watcher.subscribe(`project:${projectId}`);
    const saved = await ed.api<VersionNote>(`/api/versions/${versionId}/note`, { method: 'PUT', body: { html } });
    expect(saved.html).toContain('<span style="font-size: 18pt">chorus</span>');
    expect(saved.html).not.toMatch(/script|onerror|<img/);
    expect(saved.html).toContain('<p>Safe</p>');
    await waitFor(() => watcher.events().some((e) => e.type === 'note.changed' && e.data.versionId === versionId), {
      what: 'note event',
    });
    watcher.close();

    const read = await vic.api<VersionNote>(`/api/versions/${versionId}/note`);
    expect(read).toMatchObject({ html: saved.html, canEdit: false });
    expect(read.updatedAt).not.toBeNull();
    expect((await ana.api<VersionNote>(`/api/versions/${versionId}/note`)).canEdit).toBe(true);
  });

  it('refuses viewers, strangers and oversized notes', async () => {
    await expect(
      vic.api(`/api/versions/${versionId}/note`, { method: 'PUT', body: { html: '<p>mine</p>' } }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(eve.api(`/api/versions/${versionId}/note`)).rejects.toMatchObject({ status: 403 });
    await expect(
      ed.api(`/api/versions/${versionId}/note`, { method: 'PUT', body: { html: 'x'.repeat(200_001) } }),
    ).rejects.toThrow('These notes are too long to save (200,000 characters of formatted text at most).');
    expect((await vic.api<VersionNote>(`/api/versions/${versionId}/note`)).html).toContain('Mix notes');
  });

  it('export as a real PDF whose text is the notes', async () => {
    const response = await fetch(`${server.url}/api/versions/${versionId}/note/pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${vicToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ html }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain('Single v1 notes.pdf');
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const dir = mkdtempSync(join(tmpdir(), 'mixroom-pdf-'));
    writeFileSync(join(dir, 'notes.pdf'), pdf);
    const text = spawnSync('pdftotext', ['-layout', join(dir, 'notes.pdf'), '-'], { encoding: 'utf8' }).stdout;
    for (const line of ['Single — v1 Single', 'Mix notes', 'Vocals +1 dB in the chorus — ±0.5 dB ♯', 'Safe'])
      expect(text).toContain(line);
    expect(text).toMatch(/•\s+De-ess at 6 kHz\n•\s+Wider reverb/);
    expect(text).not.toContain('alert');
  });
});

describe('presence', () => {
  const scope = () => `version:${versionId}`;
  const joined = (client: Awaited<ReturnType<typeof connectRealtime>>) =>
    waitFor(() => client.messages.find((m) => m.type === 'presence'), { what: 'presence snapshot' });
  const presenceEvents = (client: Awaited<ReturnType<typeof connectRealtime>>) =>
    client.events().flatMap((e) => (e.type === 'presence.changed' ? [[e.data.user.displayName, e.data.state]] : []));

  it('is held on the socket: two users see each other, a closed tab leaves at once, a second tab is no news', async () => {
    const topic = `project:${projectId}`;
    const edSocket = await connectRealtime(server.url);
    await edSocket.auth(edToken);
    await edSocket.subscribe(topic);
    edSocket.send({ type: 'presence.join', topic, scope: scope() });
    expect(await joined(edSocket)).toMatchObject({ users: [{ displayName: 'Ed' }] });

    const vicSocket = await connectRealtime(server.url);
    await vicSocket.auth(vicToken);
    await vicSocket.subscribe(topic);
    vicSocket.send({ type: 'presence.join', topic, scope: scope() });
    const snapshot = await joined(vicSocket);
    expect(snapshot.type === 'presence' && snapshot.users.map((u) => u.displayName)).toEqual(['Ed', 'Vic']);
    await waitFor(() => presenceEvents(edSocket).length === 1, { what: 'Vic arriving' });
    expect(presenceEvents(edSocket)).toEqual([['Vic', 'online']]);

    // Vic's second tab, then closing it: Vic is still there, so Ed hears nothing.
    const vicTab = await connectRealtime(server.url);
    await vicTab.auth(vicToken);
    await vicTab.subscribe(topic);
    vicTab.send({ type: 'presence.join', topic, scope: scope() });
    await joined(vicTab);
    vicTab.close();
    // Vic's first tab closes: gone for Ed, without any poll.
    vicSocket.close();
    await waitFor(() => presenceEvents(edSocket).length === 2, { what: 'Vic leaving', timeoutMs: 5_000 });
    expect(presenceEvents(edSocket)).toEqual([
      ['Vic', 'online'],
      ['Vic', 'offline'],
    ]);
    edSocket.close();
  });

  it('is refused in a topic the socket does not follow or may not see', async () => {
    const eveSocket = await connectRealtime(server.url);
    await eveSocket.auth(eveToken);
    const topic = `project:${projectId}`;
    expect(await eveSocket.subscribe(topic)).toMatchObject({ type: 'denied' });
    eveSocket.send({ type: 'presence.join', topic, scope: scope() });
    expect(await waitFor(() => eveSocket.messages.find((m) => m.type === 'error'), { what: 'refusal' })).toMatchObject({
      code: 'NOT_SUBSCRIBED',
    });
    eveSocket.close();
  });
});

describe('streaming', () => {
  it('gives the player a signed URL that serves byte ranges of the audio', async () => {
    // An editor may take the original: the player streams it.
    const { url } = await ed.api<{ url: string }>(`/api/versions/${versionId}/stream`);
    const part = await fetch(url, { headers: { range: 'bytes=0-11' } });
    expect(part.status).toBe(206);
    expect(
      Buffer.from(await part.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('RIFF');
    // A viewer, with downloads off, streams the lossy preview once it is made (never the original).
    await waitFor(
      async () => (await ana.project(projectId)).versions.find((v) => v.id === versionId)?.progress === 100,
      { what: 'the lossy preview' },
    );
    const viewer = await vic.api<{ url: string }>(`/api/versions/${versionId}/stream`);
    const head = await fetch(viewer.url, { headers: { range: 'bytes=0-11' } });
    expect(head.status).toBe(206);
    expect(
      Buffer.from(await head.arrayBuffer())
        .subarray(4, 8)
        .toString('latin1'),
    ).toBe('ftyp');
    await expect(eve.api(`/api/versions/${versionId}/stream`)).rejects.toMatchObject({ status: 403 });
  });
});

describe('spectrogram', () => {
  it('is rendered once on demand as a PNG for anyone who sees the version', async () => {
    const spectrogram = () => vic.api<{ url?: string; state?: string }>(`/api/versions/${versionId}/spectrogram`);
    // The first request queues the render and answers at once (202) with the job's state.
    expect(await spectrogram()).toMatchObject({ state: expect.stringMatching(/^(queued|running)$/) });
    const url = await waitFor(async () => (await spectrogram()).url, { what: 'the rendered spectrogram' });
    const image = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect([...image.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    expect(image.readUInt32BE(16)).toBe(4096);
    // The stored image is served from then on: replace it and the next request returns the replacement.
    await server.context.blobs.put(
      `projects/${projectId}/${versionId}/spectrogram.png`,
      Buffer.from('kept'),
      'image/png',
    );
    expect(await (await fetch((await spectrogram()).url!)).text()).toBe('kept');
    await expect(eve.api(`/api/versions/${versionId}/spectrogram`)).rejects.toMatchObject({ status: 403 });
  });
});

describe('attachments', () => {
  const list = (client: typeof ana) =>
    client.api<{ items: ProjectItem[]; canEdit: boolean }>(`/api/projects/${projectId}/attachments`);

  it('are added by editors, seen by viewers, counted in the project view, and deleted with their file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mixroom-attach-'));
    writeFileSync(join(dir, 'Lyrics.txt'), 'Verse one\n');
    const { ticket } = await ed.attach(projectId, join(dir, 'Lyrics.txt'));
    await waitFor(async () => (await list(vic)).items[0]?.latestVersion?.status === 'ready', {
      what: 'attachment ready',
    });
    const seen = await list(vic);
    expect(seen.canEdit).toBe(false);
    expect(seen.items.map((i) => [i.name, i.type, i.latestVersion?.fileName, i.latestVersion?.fileSize])).toEqual([
      ['Lyrics', 'ANY', 'Lyrics.txt', 10],
    ]);
    expect((await list(ed)).canEdit).toBe(true);
    expect(((await ana.project(projectId)) as unknown as { attachmentCount: number }).attachmentCount).toBe(1);
    // Attachments are not folder items.
    expect((await ana.list(folderId)).items.map((i) => i.name)).toEqual(['Single']);

    await expect(
      vic.api(`/api/projects/${projectId}/attachments`, { method: 'POST', body: { fileName: 'x.pdf', size: 10 } }),
    ).rejects.toMatchObject({
      status: 403,
    });
    await expect(eve.api(`/api/projects/${projectId}/attachments`)).rejects.toMatchObject({ status: 403 });
    // Downloads follow the project's switch.
    await expect(vic.api(`/api/versions/${ticket.version.id}/download`)).rejects.toMatchObject({ status: 403 });
    await ana.api(`/api/projects/${projectId}`, { method: 'PATCH', body: { enableDownload: true } });
    const { url } = await vic.api<{ url: string }>(`/api/versions/${ticket.version.id}/download`);
    expect(await (await fetch(url)).text()).toBe('Verse one\n');

    await expect(vic.api(`/api/attachments/${ticket.project.id}`, { method: 'DELETE' })).rejects.toMatchObject({
      status: 403,
    });
    await ed.api(`/api/attachments/${ticket.project.id}`, { method: 'DELETE' });
    expect((await list(vic)).items).toEqual([]);
    expect(
      await server.context.blobs.head(
        ticket.version.id ? `projects/${ticket.project.id}/${ticket.version.id}/original.txt` : '',
      ),
    ).toBeNull();
  });

  it('follow their project when it moves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mixroom-attach-'));
    writeFileSync(join(dir, 'Session.zip'), 'zip bytes');
    const { ticket } = await ana.attach(projectId, join(dir, 'Session.zip'));
    const other = await ana.createFolder('Elsewhere', null);
    await ana.api(`/api/projects/${projectId}`, { method: 'PATCH', body: { groupId: other.id } });
    // Vic was a member of the old folder only: the project and its attachments are out of reach.
    await expect(list(vic)).rejects.toMatchObject({ status: 403 });
    await expect(vic.api(`/api/versions/${ticket.version.id}/download`)).rejects.toMatchObject({ status: 403 });
    await ana.api(`/api/projects/${projectId}`, { method: 'PATCH', body: { groupId: folderId } });
    expect((await list(vic)).items.map((i) => i.name)).toEqual(['Session']);
  });
});
