import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { inviteOf } from './helpers/invite';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';
import { ACTORS, MEMBERS, matrixTable, type Actor, type World } from './authorization-table';
import { makeTransferWorld, transferRows } from './authorization-transfers';
import { broadcastRows, makeBroadcastWorld, type BroadcastWorld } from './authorization-broadcast';
import { connectorRows, makeConnectorWorld, type ConnectorWorld } from './authorization-connectors';
import { startWebdav, type TestWebdav } from './helpers/webdav';

/**
 * Every endpoint that reads or changes a group, project, version, file or public link, tried by
 * every kind of actor. One table decides; a leak (an allow where the table says deny) fails.
 */
let server: TestServer;
let world: World;
let dav: TestWebdav;
let connectorWorld: ConnectorWorld;
const tokens = new Map<Actor, string | null>();
const recover = async (w: World) =>
  void (await call(server.url, '/api/items/recover', {
    method: 'POST',
    token: tokens.get('publisher')!,
    body: { items: [{ kind: 'group', id: w.sub }] },
  }));

/** A fresh attachment of the project, uploaded by the publisher. */
async function attach(w: World): Promise<string> {
  const ticket = await call(server.url, `/api/projects/${w.project}/attachments`, {
    method: 'POST',
    token: tokens.get('publisher')!,
    body: { fileName: 'Notes.txt', size: 4 },
  });
  return (ticket.body as { project: { id: string } }).project.id;
}

/** A fresh sub-folder of the shared folder, trashed by the publisher. */
async function bin(w: World): Promise<string> {
  const publisher = storageClient(server.url, tokens.get('publisher')!);
  const folder = await publisher.createFolder('Binned', w.folder);
  await publisher.api('/api/items/trash', { method: 'POST', body: { items: [{ kind: 'group', id: folder.id }] } });
  return folder.id;
}

let broadcastWorld: BroadcastWorld;
const TABLE = [
  ...broadcastRows(() => broadcastWorld),
  ...matrixTable({ recover, attach, bin }),
  ...transferRows(
    () => tokens.get('publisher')!,
    () => server.url,
  ),
  ...connectorRows({
    url: () => server.url,
    token: (actor) => tokens.get(actor) ?? null,
    dav: () => dav,
    world: () => connectorWorld,
    version: () => world.version,
  }),
];

beforeAll(async () => {
  dav = await startWebdav();
  server = await startTestServer({
    BILLING_WEBHOOK_SECRET: 'matrix-webhook-secret-0000',
    CONNECTORS_ENABLED: 'webdav',
    CONNECTORS_ALLOW_HOSTS: '127.0.0.1',
  });
  const signUp = async (actor: Actor, email: string) =>
    tokens.set(actor, (await signInThroughOidc(server.url, { email, password: `${actor}-password` })).access_token);
  await signUp('admin', 'admin@matrix.test');
  await signUp('publisher', 'publisher@matrix.test');
  await signUp('editor', 'editor@matrix.test');
  await signUp('viewer', 'viewer@matrix.test');
  await signUp('nonMember', 'stranger@matrix.test');
  tokens.set('anonymous', null);
  tokens.set('revokedLink', null);
  const as = (actor: Actor) => storageClient(server.url, tokens.get(actor)!);
  const publisher = as('publisher');

  const folder = await publisher.createFolder('Matrix', null);
  const sub = await publisher.createFolder('Sub', folder.id);
  const outside = await publisher.createFolder('Outside', null);
  const { ticket } = await publisher.upload(makeAudio('Mix.wav', { seconds: 1 }), folder.id);
  const otherVersion = await publisher.addVersion(ticket.project.id, makeAudio('Mix 2.wav', { seconds: 1 }), 'v2');
  const outsideUpload = await publisher.upload(makeAudio('Reference.wav', { seconds: 1 }), outside.id);
  for (const projectId of [ticket.project.id, outsideUpload.ticket.project.id])
    // A condition wait costs nothing on a quick machine; a loaded one takes well over 10 s for three versions.
    await waitFor(async () => (await publisher.project(projectId)).versions.every((v) => v.status === 'ready'), {
      what: 'processing',
      timeoutMs: 90_000,
    });

  for (const actor of ['editor', 'viewer'] as const) {
    await as(actor).api('/api/join-requests', {
      method: 'POST',
      body: { type: 'group', id: folder.id, invite: await inviteOf(publisher, 'group', folder.id) },
    });
  }
  const { incoming } = await publisher.api<{ incoming: { user: { id: string }; resourceId: string }[] }>(
    '/api/join-requests',
  );
  for (const request of incoming)
    await publisher.api(`/api/join-requests/${request.resourceId}/${request.user.id}/approve`, { method: 'POST' });
  const editorId = JSON.parse(Buffer.from(tokens.get('editor')!.split('.')[1]!, 'base64url').toString()).sub as string;
  const viewerId = JSON.parse(Buffer.from(tokens.get('viewer')!.split('.')[1]!, 'base64url').toString()).sub as string;
  await publisher.api(`/api/share/group/${folder.id}/users/${editorId}`, {
    method: 'PUT',
    body: { permission: 'EDITOR' },
  });

  // A link made then revoked on another folder, and the live one on the shared folder.
  const revoked = await publisher.api<{ url: string }>(`/api/share/group/${outside.id}/public-link`, {
    method: 'PUT',
    body: { isActive: true },
  });
  await publisher.api(`/api/share/group/${outside.id}/public-link`, { method: 'PUT', body: { isActive: false } });
  const active = await publisher.api<{ url: string }>(`/api/share/group/${folder.id}/public-link`, {
    method: 'PUT',
    body: { isActive: true },
  });
  const token = (url: string) => new URL(url).searchParams.get('shared_group')!;
  const comment = await publisher.api<{ id: string }>(`/api/versions/${ticket.version.id}/comments`, {
    method: 'POST',
    body: { type: 'timestamp', startTime: 0.2, text: 'Publisher note' },
  });
  const grant = await call(server.url, `/api/admin/users/${viewerId}/plans`, {
    method: 'POST',
    token: tokens.get('admin')!,
    body: { sku: 'LIVE_BASIC', endsAt: null },
  });
  // Transfers with a password need a paid plan.
  const publisherId = JSON.parse(Buffer.from(tokens.get('publisher')!.split('.')[1]!, 'base64url').toString())
    .sub as string;
  await call(server.url, `/api/admin/users/${publisherId}/plans`, {
    method: 'POST',
    token: tokens.get('admin')!,
    body: { sku: 'STUDIO' },
  });
  world = {
    transfer: await makeTransferWorld(server.url, tokens.get('publisher')!),
    grantId: String(grant.body.id),
    attachment: '',
    comment: comment.id,
    folder: folder.id,
    sub: sub.id,
    trashed: '',
    outside: outside.id,
    project: ticket.project.id,
    version: ticket.version.id,
    otherVersion: otherVersion.id,
    outsideVersion: outsideUpload.ticket.version.id,
    viewerId,
    activeToken: token(active.url),
    revokedToken: token(revoked.url),
  };
  world.attachment = await attach(world);
  world.trashed = await bin(world);
  broadcastWorld = await makeBroadcastWorld(server.url, tokens.get('publisher')!);
  connectorWorld = await makeConnectorWorld(server.url, tokens.get('publisher')!, dav);
});
afterAll(async () => {
  await server.close();
  await dav.stop();
});

describe('authorization matrix', () => {
  const cases = TABLE.flatMap((row) => ACTORS.map((actor) => ({ row, actor })));
  it.each(cases.map((c) => [`${c.row.name} × ${c.actor}`, c] as const))('%s', async (_label, { row, actor }) => {
    const result = await call(server.url, row.path(world, actor), {
      method: row.method,
      token: tokens.get(actor) ?? null,
      ...(row.body ? { body: row.body(world) } : {}),
    });
    const allowed = result.status >= 200 && result.status < 400;
    if (row.allow.includes(actor)) {
      expect(allowed, `${row.name} should allow ${actor}, got ${result.status} ${JSON.stringify(result.body)}`).toBe(
        true,
      );
      await row.reset?.(world, actor);
    } else {
      // 410: a deleted transfer's link answers "no longer available", as an expired one's does.
      expect([401, 403, 404, 410], `${row.name} must refuse ${actor}, got ${result.status}`).toContain(result.status);
    }
  });

  it('does not leak names through search to non-members', async () => {
    const hits = await call(server.url, '/api/search?q=matrix', { token: tokens.get('nonMember')! });
    expect(hits.body.items).toEqual([]);
    const memberHits = await call(server.url, '/api/search?q=matrix', { token: tokens.get('viewer')! });
    expect((memberHits.body.items as { name: string }[]).map((i) => i.name)).toContain('Matrix');
  });
});

/**
 * The same actors on the realtime channel: who may follow which topic. (A public link holds no
 * topic: visitors have no account, so an anonymous or revoked-link socket is refused outright.)
 */
describe('authorization matrix: realtime topics', () => {
  const topics: { name: string; topic: (w: World) => string; allow: Actor[] }[] = [
    { name: 'the shared folder', topic: (w) => `group:${w.folder}`, allow: MEMBERS },
    { name: 'a sub-folder', topic: (w) => `group:${w.sub}`, allow: MEMBERS },
    { name: 'another folder of the publisher', topic: (w) => `group:${w.outside}`, allow: ['publisher'] },
    { name: 'the project’s review', topic: (w) => `project:${w.project}`, allow: MEMBERS },
    { name: 'the viewer’s own events', topic: (w) => `user:${w.viewerId}`, allow: ['viewer'] },
    { name: 'administrators’ events', topic: () => 'admin', allow: ['admin'] },
    { name: 'every user’s root', topic: () => 'group:root', allow: [] },
    { name: 'the servers’ channel', topic: () => 'system', allow: [] },
  ];
  const cases = topics.flatMap((t) => ACTORS.map((actor) => ({ t, actor })));
  it.each(cases.map((c) => [`${c.t.name} × ${c.actor}`, c] as const))('%s', async (_label, { t, actor }) => {
    const socket = await connectRealtime(server.url);
    try {
      const token = tokens.get(actor);
      if (!token) {
        socket.send({ type: 'subscribe', topic: t.topic(world) });
        await waitFor(() => socket.closeCode() === 4401, { what: 'the unauthenticated socket closed' });
        expect(t.allow).not.toContain(actor);
        return;
      }
      await socket.auth(token);
      const answer = await socket.subscribe(t.topic(world));
      expect(answer.type, `${t.name} × ${actor}`).toBe(t.allow.includes(actor) ? 'subscribed' : 'denied');
    } finally {
      socket.close();
    }
  });
});
