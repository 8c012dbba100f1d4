import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { PublicListing, ServerMessage } from '@mixroom/contracts';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { inviteOf } from './helpers/invite';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { systemClock } from '../src/platform/clock/clock';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

/**
 * The leaks a hostile or removed collaborator found, each as it was reproduced: access is decided
 * again whenever it may have changed, on HTTP and on the realtime channel alike.
 */
type Name = 'ana' | 'ed' | 'vic' | 'bob' | 'sam';
let server: TestServer;
const tokens = new Map<Name, string>();
const ids = new Map<Name, string>();
const as = (name: Name) => storageClient(server.url, tokens.get(name)!);
let folderId: string;
let projectId: string;
let versionId: string;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const bytesOf = async (url: string) =>
  Buffer.from(await (await fetch(url.startsWith('http') ? url : `${server.url}${url}`)).arrayBuffer());
const subOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;

async function join(name: Name, type: 'group' | 'project', id: string, owner: Name = 'ana') {
  await as(name).api('/api/join-requests', {
    method: 'POST',
    body: { type, id, invite: await inviteOf(as(owner), type, id) },
  });
  await as(owner).api(`/api/join-requests/${id}/${ids.get(name)}/approve`, { method: 'POST' });
}

async function socketOf(name: Name, topics: string[]) {
  const socket = await connectRealtime(server.url);
  await socket.auth(tokens.get(name)!);
  for (const topic of topics) expect(await socket.subscribe(topic)).toMatchObject({ type: 'subscribed' });
  return socket;
}

const revoked = (messages: ServerMessage[], topic: string) =>
  messages.some((m) => m.type === 'revoked' && m.topic === topic);
const commentTexts = (socket: Awaited<ReturnType<typeof socketOf>>) =>
  socket.events().flatMap((e) => (e.type === 'comment.changed' && e.data.comment ? [e.data.comment.text] : []));

/** The real time, moved forward while a test checks what a signed URL answers later on (timers stay real). */
const clock = { ...systemClock, aheadMs: 0, now: () => new Date(Date.now() + clock.aheadMs) };
/** Short signed URLs (the least allowed), so a test moves past one without outliving bearer tokens. */
const SIGNED_URL_TTL_SECONDS = 30;

beforeAll(async () => {
  server = await startTestServer({ SIGNED_URL_TTL_SECONDS: String(SIGNED_URL_TTL_SECONDS) }, { clock });
  for (const name of ['ana', 'ed', 'vic', 'bob', 'sam'] as const) {
    const token = (
      await signInThroughOidc(server.url, { email: `${name}@leaks.test`, password: `${name}-password-long` })
    ).access_token;
    tokens.set(name, token);
    ids.set(name, subOf(token));
  }
  const folder = await as('ana').createFolder('Unreleased', null);
  folderId = folder.id;
  const { ticket } = await as('ana').upload(makeAudio('Master.wav', { seconds: 1 }), folderId);
  projectId = ticket.project.id;
  versionId = ticket.version.id;
  for (const name of ['ed', 'vic', 'bob'] as const) await join(name, 'group', folderId);
  await as('ana').api(`/api/share/group/${folderId}/users/${ids.get('ed')}`, {
    method: 'PUT',
    body: { permission: 'EDITOR' },
  });
}, 120_000);
afterAll(() => server?.close());

describe('realtime: a socket loses a topic the moment its user loses access', () => {
  it('removal: a removed collaborator hears nothing published after it, while a remaining member does', async () => {
    const topics = [`project:${projectId}`, `group:${folderId}`];
    const bob = await socketOf('bob', topics);
    const vic = await socketOf('vic', topics);
    await as('ana').api(`/api/share/group/${folderId}/users/${ids.get('bob')}`, { method: 'DELETE' });
    await as('ana').api(`/api/versions/${versionId}/comments`, {
      method: 'POST',
      body: { type: 'timestamp', startTime: 0.1, text: 'Secret mix note' },
    });
    await waitFor(() => commentTexts(vic).includes('Secret mix note'), {
      what: 'the remaining member hears the comment',
    });
    expect(commentTexts(bob)).not.toContain('Secret mix note');
    for (const topic of topics) expect(revoked(bob.messages, topic)).toBe(true);
    expect(revoked(vic.messages, `project:${projectId}`)).toBe(false);
    // Subscribing again is refused too.
    const asked = bob.messages.length;
    bob.send({ type: 'subscribe', topic: `project:${projectId}` });
    const answer = await waitFor(
      () => bob.messages.slice(asked).find((m) => m.type === 'subscribed' || m.type === 'denied'),
      { what: 'the answer' },
    );
    expect(answer.type).toBe('denied');
    bob.close();
    vic.close();
    await join('bob', 'group', folderId);
  });

  it('role change: an editor made viewer keeps following (viewers may see), and hears what follows', async () => {
    const ed = await socketOf('ed', [`project:${projectId}`]);
    await as('ana').api(`/api/share/group/${folderId}/users/${ids.get('ed')}`, {
      method: 'PUT',
      body: { permission: 'VIEWER' },
    });
    await as('ana').api(`/api/versions/${versionId}/comments`, {
      method: 'POST',
      body: { type: 'timestamp', startTime: 0.2, text: 'After the role change' },
    });
    await waitFor(() => commentTexts(ed).includes('After the role change'), { what: 'the viewer hears the comment' });
    expect(revoked(ed.messages, `project:${projectId}`)).toBe(false);
    ed.close();
    await as('ana').api(`/api/share/group/${folderId}/users/${ids.get('ed')}`, {
      method: 'PUT',
      body: { permission: 'EDITOR' },
    });
  });

  it('trash: followers of a trashed folder lose it; the parent folder stays followed', async () => {
    const sub = await as('ana').createFolder('Stems', folderId);
    const vic = await socketOf('vic', [`group:${sub.id}`, `group:${folderId}`]);
    await as('ana').api('/api/items/trash', { method: 'POST', body: { items: [{ kind: 'group', id: sub.id }] } });
    await waitFor(() => revoked(vic.messages, `group:${sub.id}`), { what: 'the trashed folder revoked' });
    const before = vic.events().length;
    await server.context.bus.publish({
      topic: `group:${sub.id}`,
      type: 'storage.changed',
      data: { itemId: sub.id, kind: 'group', action: 'probe' },
    });
    await server.context.bus.publish({
      topic: `group:${folderId}`,
      type: 'storage.changed',
      data: { itemId: folderId, kind: 'group', action: 'probe' },
    });
    await waitFor(
      () =>
        vic
          .events()
          .slice(before)
          .some((e) => e.topic === `group:${folderId}` && e.type === 'storage.changed' && e.data.action === 'probe'),
      {
        what: 'the parent folder event',
      },
    );
    expect(
      vic
        .events()
        .slice(before)
        .some((e) => e.topic === `group:${sub.id}`),
    ).toBe(false);
    vic.close();
  });

  it('nobody may follow a topic every user hears, an unknown id, or anything before signing in', async () => {
    const sam = await socketOf('sam', []);
    expect(await sam.subscribe('group:root')).toMatchObject({ type: 'denied' });
    expect(await sam.subscribe(`group:${folderId}`)).toMatchObject({ type: 'denied' });
    expect(await sam.subscribe(`user:${ids.get('ana')}`)).toMatchObject({ type: 'denied' });
    expect(await sam.subscribe('system')).toMatchObject({ type: 'denied' });
    sam.close();
    const anonymous = await connectRealtime(server.url);
    anonymous.send({ type: 'subscribe', topic: `project:${projectId}` });
    await waitFor(() => anonymous.closeCode() === 4401, { what: 'the unauthenticated socket closed' });
  });

  it('a new root item is announced to its publisher, not to everyone', async () => {
    const sam = await socketOf('sam', [`user:${ids.get('sam')}`]);
    const ana = await socketOf('ana', [`user:${ids.get('ana')}`]);
    const created = await as('ana').createFolder('Private Root Folder', null);
    await waitFor(() => ana.events().some((e) => e.type === 'storage.changed' && e.data.itemId === created.id), {
      what: 'the publisher hears it',
    });
    expect(sam.events().some((e) => e.type === 'storage.changed' && e.data.itemId === created.id)).toBe(false);
    sam.close();
    ana.close();
  });
});

describe('HTTP leaks', () => {
  it('an editor cannot carry the owner’s project (or folder) into his own tree', async () => {
    const own = await as('ed').createFolder('Ed Private', null);
    const moved = await call(server.url, `/api/projects/${projectId}`, {
      method: 'PATCH',
      token: tokens.get('ed')!,
      body: { groupId: own.id },
    });
    expect(moved.status).toBe(403);
    expect(moved.body.error?.message).toBe('Items can only be moved into folders of their own publisher.');
    const sub = await as('ana').createFolder('Inner', folderId);
    expect(
      (
        await call(server.url, `/api/groups/${sub.id}`, {
          method: 'PATCH',
          token: tokens.get('ed')!,
          body: { parentId: own.id },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(server.url, `/api/groups/${sub.id}`, {
          method: 'PATCH',
          token: tokens.get('ed')!,
          body: { parentId: null },
        })
      ).status,
    ).toBe(403);
    // Within the owner's tree an editor still moves things.
    expect(
      (
        await call(server.url, `/api/groups/${sub.id}`, {
          method: 'PATCH',
          token: tokens.get('ed')!,
          body: { parentId: folderId },
        })
      ).status,
    ).toBe(200);
    const project = await as('ana').project(projectId);
    expect(project.project.id).toBe(projectId);
  });

  it('a project shared on its own disappears from the root listing when a folder above it is trashed', async () => {
    const outer = await as('ana').createFolder('Outer', null);
    const { ticket } = await as('ana').upload(makeAudio('Shared Alone.wav', { seconds: 1 }), outer.id);
    await join('sam', 'project', ticket.project.id);
    const before = await as('sam').list(null);
    expect(before.items.map((i) => i.id)).toContain(ticket.project.id);
    await as('ana').api('/api/items/trash', { method: 'POST', body: { items: [{ kind: 'group', id: outer.id }] } });
    const after = await as('sam').list(null);
    expect(after.items.map((i) => i.id)).not.toContain(ticket.project.id);
    expect((await call(server.url, `/api/projects/${ticket.project.id}`, { token: tokens.get('sam')! })).status).toBe(
      404,
    );
    const search = await as('sam').api<{ items: { id: string }[] }>('/api/search?q=Shared%20Alone');
    expect(search.items.map((i) => i.id)).not.toContain(ticket.project.id);
  });

  it('creating a dropped tree under someone else’s folder reveals no ids', async () => {
    const existing = await as('ana').createFolder('Drums', folderId);
    const answer = await call(server.url, '/api/groups/ensure', {
      method: 'POST',
      token: tokens.get('sam')!,
      body: { parentId: folderId, paths: ['Drums'] },
    });
    expect(answer.status).toBe(403);
    expect(JSON.stringify(answer.body)).not.toContain(existing.id);
  });

  it('downloads off: a viewer’s folder ZIP leaves the project out, and the public link offers no original', async () => {
    const folder = await as('ana').createFolder('Downloads Off', null);
    const { ticket: off } = await as('ana').upload(makeAudio('Locked.wav', { seconds: 1 }), folder.id);
    const { ticket: on } = await as('ana').upload(makeAudio('Open.wav', { seconds: 1 }), folder.id);
    await as('ana').api(`/api/projects/${on.project.id}`, { method: 'PATCH', body: { enableDownload: true } });
    await join('vic', 'group', folder.id);
    expect(
      (await call(server.url, `/api/versions/${off.version.id}/download`, { token: tokens.get('vic')! })).status,
    ).toBe(403);
    const zip = await as('vic').api<{ url: string }>('/api/downloads/zip', {
      method: 'POST',
      body: { items: [{ kind: 'group', id: folder.id }] },
    });
    const archive = Buffer.from(await (await fetch(`${server.url}${zip.url}`)).arrayBuffer());
    expect(archive.includes(Buffer.from('Open.wav'))).toBe(true);
    expect(archive.includes(Buffer.from('Locked.wav'))).toBe(false);

    const link = await as('ana').api<{ url: string }>(`/api/share/group/${folder.id}/public-link`, {
      method: 'PUT',
      body: { isActive: true },
    });
    const token = new URL(link.url).searchParams.get('shared_group')!;
    const listing = await call(server.url, `/api/public/share?token=${token}`);
    const items = (listing.body as { items: { id: string; canDownload?: boolean }[] }).items;
    expect(items.find((i) => i.id === off.project.id)?.canDownload).toBe(false);
    expect((await call(server.url, `/api/public/versions/${off.version.id}/download?token=${token}`)).status).toBe(403);
    expect((await call(server.url, `/api/public/versions/${on.version.id}/download?token=${token}`)).status).toBe(200);

    // Pressing play hands a viewer the lossy preview, never the original's bytes.
    await waitFor(async () => (await as('ana').project(off.project.id)).versions[0]?.progress === 100, {
      what: 'the lossy preview',
    });
    const original = sha256(
      await bytesOf((await as('ana').api<{ url: string }>(`/api/versions/${off.version.id}/download`)).url),
    );
    const stream = await call(server.url, `/api/versions/${off.version.id}/stream`, { token: tokens.get('vic')! });
    expect(stream.status).toBe(200);
    // The preview route redirects to the same rule's file.
    const previewed = await fetch(`${server.url}/api/versions/${off.version.id}/preview`, {
      headers: { authorization: `Bearer ${tokens.get('vic')!}` },
    });
    expect(previewed.status).toBe(200);
    for (const streamed of [await bytesOf(String(stream.body.url)), Buffer.from(await previewed.arrayBuffer())]) {
      expect(sha256(streamed)).not.toBe(original);
      expect(streamed.subarray(4, 8).toString('latin1')).toBe('ftyp');
    }
    const publicPlay = await call(server.url, `/api/public/versions/${off.version.id}/preview?token=${token}`);
    expect(sha256(await bytesOf(String(publicPlay.body.url)))).not.toBe(original);
  });

  it('an editor’s delete of the shared root lands in the publisher’s trash; only the publisher deletes it for good', async () => {
    const root = await as('ana').createFolder('Shared Root', null);
    await join('ed', 'group', root.id);
    await as('ana').api(`/api/share/group/${root.id}/users/${ids.get('ed')}`, {
      method: 'PUT',
      body: { permission: 'EDITOR' },
    });
    const ref = { kind: 'group', id: root.id };
    const trashOf = async (name: Name) =>
      (await as(name).api<{ items: { id: string }[] }>('/api/trash')).items.map((i) => i.id);
    expect(
      (await call(server.url, '/api/items/trash', { method: 'POST', token: tokens.get('ed')!, body: { items: [ref] } }))
        .status,
    ).toBe(204);
    expect(await trashOf('ana')).toContain(root.id);
    // The editor's own trash holds none of it, so emptying it removes nothing of the publisher's.
    expect(await trashOf('ed')).not.toContain(root.id);
    await as('ed').api('/api/trash/empty', { method: 'POST' });
    const forever = await call(server.url, '/api/items/delete', {
      method: 'POST',
      token: tokens.get('ed')!,
      body: { items: [ref] },
    });
    expect(forever.status).toBe(403);
    expect(forever.body.error?.message).toBe('Only the publisher can delete this for good.');
    expect(await trashOf('ana')).toContain(root.id);
    await as('ana').api('/api/items/recover', { method: 'POST', body: { items: [ref] } });
    expect((await as('ana').list(null)).items.map((i) => i.id)).toContain(root.id);
  });

  it('thumbnail URLs end like every signed URL: a removed collaborator’s and a revoked link’s stop answering', async () => {
    const folder = await as('ana').createFolder('Thumbs', null);
    const { ticket } = await as('ana').upload(makeAudio('Tile.wav', { seconds: 1 }), folder.id);
    await waitFor(async () => (await as('ana').project(ticket.project.id)).versions[0]?.hasThumbnail, {
      what: 'the thumbnail',
    });
    await join('sam', 'group', folder.id);
    const tileOf = (items: { id: string; latestVersion?: { thumbnailUrl: string | null } | null }[]) =>
      items.find((i) => i.id === ticket.project.id)?.latestVersion?.thumbnailUrl ?? '';
    const samsCopy = tileOf((await as('sam').list(folder.id)).items);
    const link = await as('ana').api<{ url: string }>(`/api/share/group/${folder.id}/public-link`, {
      method: 'PUT',
      body: { isActive: true },
    });
    const listing = await call(
      server.url,
      `/api/public/share?token=${new URL(link.url).searchParams.get('shared_group')}`,
    );
    const visitorsCopy = tileOf((listing.body as unknown as PublicListing).items);
    for (const url of [samsCopy, visitorsCopy]) expect((await fetch(url)).status).toBe(200);

    await as('ana').api(`/api/share/group/${folder.id}/users/${ids.get('sam')}`, { method: 'DELETE' });
    await as('ana').api(`/api/share/group/${folder.id}/public-link`, { method: 'PUT', body: { isActive: false } });
    clock.aheadMs = (SIGNED_URL_TTL_SECONDS + 1) * 1000;
    try {
      for (const url of [samsCopy, visitorsCopy]) expect((await fetch(url)).status).toBe(403);
      // The publisher's listing hands out a fresh URL, which a browser may cache for its window.
      const fresh = await fetch(tileOf((await as('ana').list(folder.id)).items));
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('cache-control')).toBe(`private, max-age=${SIGNED_URL_TTL_SECONDS / 2}`);
    } finally {
      clock.aheadMs = 0;
    }
  });

  it('turning a public link off and on again issues a new token; the old one stays dead', async () => {
    const first = await as('ana').api<{ url: string }>(`/api/share/group/${folderId}/public-link`, {
      method: 'PUT',
      body: { isActive: true },
    });
    const oldToken = new URL(first.url).searchParams.get('shared_group')!;
    await as('ana').api(`/api/share/group/${folderId}/public-link`, { method: 'PUT', body: { isActive: false } });
    const again = await as('ana').api<{ url: string }>(`/api/share/group/${folderId}/public-link`, {
      method: 'PUT',
      body: { isActive: true },
    });
    const newToken = new URL(again.url).searchParams.get('shared_group')!;
    expect(newToken).not.toBe(oldToken);
    expect((await call(server.url, `/api/public/share?token=${oldToken}`)).status).toBe(404);
    expect((await call(server.url, `/api/public/share?token=${newToken}`)).status).toBe(200);
  });
});
