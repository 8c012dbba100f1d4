import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastRoom, PublicBroadcastAccess } from '@mixroom/contracts';
import { openDatabase, type Database } from '../src/db/database';
import { sfuNodes, sfuPlacements, users } from '../src/db/schema';
import { call } from './helpers/api';
import { freePort } from './helpers/free-port';
import { liveApi, liveUser, mediaOf, postOffer, roomOf } from './helpers/live';
import { signInThroughOidc } from './helpers/oidc-flow';
import { Listener, TonePublisher, type Exchange } from './helpers/rtc-clients';
import { buildWhipClientLibraries, startWhipClient, type WhipClient } from './helpers/rtc-whip-client';
import { spawnServer, type Spawned } from './helpers/spawn-server';
import { ClientRulesStream, type RulesPeer } from './helpers/client-rules-stream';
import { createTestDatabase } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

/**
 * Three Mixroom processes on one PostgreSQL (a fresh database): A and B with every role, C a web
 * node without media. A live room and a broadcast (published by a real WHIP encoder, Debian's
 * simple-whip-client) are placed on node A and heard by WHEP listeners (libwebrtc) connected through
 * B and through C, whose requests are sent on to A. Then A is killed (SIGKILL). The live room's
 * publisher and listener and the broadcast's listener keep their streams by the web streaming
 * client's own rules (ClientRulesStream: the web app's stall watch and backoff), so the time they
 * take to come back is the time a browser takes: each notices the dead path itself, tries again at
 * once, and its offer, finding A refusing, takes the room over on a live node. Runs where
 * TEST_DATABASE_URL is set.
 */
const adminUrl = process.env.TEST_DATABASE_URL ?? '';
const HZ = 440;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
let libraries: ReturnType<typeof buildWhipClientLibraries>;
const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-sfu-routing-'));
const nodes: Record<'a' | 'b' | 'c', { url: string; process: Spawned }> = {} as never;
const encoders: WhipClient[] = [];
const listeners: Listener[] = [];
const publishers: TonePublisher[] = [];
const streams: ClientRulesStream<RulesPeer>[] = [];
/** The live room of the first test, kept up by the client's rules through the kill of the second. */
let liveRoom: {
  roomKey: string;
  publisher: ClientRulesStream<TonePublisher>;
  listener: ClientRulesStream<Listener>;
} | null = null;

beforeAll(async () => {
  libraries = buildWhipClientLibraries();
  database = await createTestDatabase(adminUrl);
  // Migrated once here, so the two nodes start side by side without racing over the schema.
  db = await openDatabase({ url: database.url, dataDir, poolSize: 2 });
  const [portA, portB, portC] = [await freePort(), await freePort(), await freePort()];
  // One installation: the load balancer's PUBLIC_URL (node B here), each node's own internal URL.
  const shared = { DATABASE_URL: database.url, PUBLIC_URL: `http://localhost:${portB}`, DATA_DIR: dataDir };
  for (const [name, port, roles] of [
    ['a', portA, 'api,worker,sfu'],
    ['b', portB, 'api,worker,sfu'],
    // A web node without media: it only sends a room's requests on.
    ['c', portC, 'api'],
  ] as const) {
    const url = `http://127.0.0.1:${port}`;
    nodes[name] = {
      url,
      process: spawnServer({
        ...shared,
        PORT: String(port),
        MIXROOM_ROLES: roles,
        MIXROOM_NODE_URL: url,
        LOG_LEVEL: 'warn',
      }),
    };
  }
  for (const node of Object.values(nodes))
    await waitFor(async () => (await fetch(`${node.url}/api/health`).catch(() => null))?.ok, {
      timeoutMs: 120_000,
      what: `a node to start; it said:\n${node.process.output().slice(-2000)}`,
    });
}, 180_000);

afterAll(async () => {
  await Promise.all(streams.map((stream) => stream.stop()));
  for (const listener of listeners) listener.close();
  for (const publisher of publishers) publisher.close();
  await Promise.all(encoders.map((encoder) => encoder.stop('SIGKILL')));
  for (const node of Object.values(nodes))
    if (node.process.child.exitCode === null && node.process.child.signalCode === null) {
      node.process.child.kill('SIGKILL');
      await node.process.exited;
    }
  await db?.close();
  await database?.drop();
  libraries?.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The node holding a room, by its internal URL. */
async function holderUrl(roomKey: string): Promise<string | null> {
  const [row] = await db.db
    .select({ url: sfuNodes.url })
    .from(sfuPlacements)
    .innerJoin(sfuNodes, eq(sfuNodes.id, sfuPlacements.nodeId))
    .where(eq(sfuPlacements.roomKey, roomKey));
  return row?.url ?? null;
}

/** WHEP through one node with the listener's token; the answer's Location must work through any node. */
const whepVia = (nodeUrl: string, media: PublicBroadcastAccess['media']): Exchange => {
  return async (offerSdp) => {
    const answer = await postOffer(`${nodeUrl}${new URL(media.url).pathname}`, media.token, offerSdp);
    if (answer.status !== 201 || !answer.location) throw new Error(`${answer.status} ${answer.text}`);
    expect(answer.location).toMatch(/^\/api\/broadcast\/\w+\/whep\/[\w-]+$/);
    return { answerSdp: answer.text, resourceId: answer.location.split('/').pop()! };
  };
};

/** Whether a fetch failed because nothing listens at the address (the node is down). */
const refused = (error: unknown) => (error as { cause?: { code?: string } } | null)?.cause?.code === 'ECONNREFUSED';

/**
 * An offer posted to the first of `urls` that takes the connection, as a load balancer does (a
 * refused connection goes to the next node); its Location works through any node.
 */
function exchangeThrough(urls: readonly string[], path: string, token: string): Exchange {
  return async (offerSdp) => {
    for (const url of urls) {
      const answer = await postOffer(`${url}${path}`, token, offerSdp).catch((error: unknown) => {
        if (refused(error)) return null;
        throw error;
      });
      if (!answer) continue;
      if (answer.status !== 201 || !answer.location) throw new Error(`${answer.status} ${answer.text}`);
      return { answerSdp: answer.text, resourceId: answer.location.split('/').pop()! };
    }
    throw new Error(`no node took the connection: ${urls.join(', ')}`);
  };
}

/** A stream kept up by the web client's rules; each attempt asks `grant` for a fresh token. */
function byClientRules<P extends RulesPeer & { resourceId: string }>(
  urls: readonly string[],
  grant: () => Promise<{ url: string; token: string; slotCount?: number }>,
  connect: (exchange: Exchange, slots: number) => Promise<P>,
): ClientRulesStream<P> {
  const stream = new ClientRulesStream<P>(async () => {
    const media = await grant();
    const path = new URL(media.url).pathname;
    const peer = await connect(exchangeThrough(urls, path, media.token), media.slotCount ?? 1);
    return { peer, resource: { url: `${urls.at(-1)}${path}/${peer.resourceId}`, token: media.token } };
  });
  streams.push(stream);
  return stream;
}

/** When a listener stream first heard `hz` on a connection made at or after `since` (performance clock). */
function heardSince(stream: ClientRulesStream<Listener>, since: number): number | undefined {
  const times = stream.connections
    .filter((c) => c.createdAt >= since)
    .flatMap((c) => [...c.peer.slots.values()].map((slot) => slot.firstAudibleAtMs))
    .filter((t): t is number => t !== undefined && t >= since);
  return times.length ? Math.min(...times) : undefined;
}

describe('a live room on a cluster', { timeout: 180_000 }, () => {
  it("tells a guest's socket on another node which slot carries whom, from the room's node", async () => {
    // Sign-in goes through the balancer's address (node B); the API answers on every node.
    const balancer = { url: `http://localhost:${new URL(nodes.b.url).port}` };
    const [host, guest] = [await liveUser(balancer, 'cluster-host'), await liveUser(balancer, 'cluster-guest')];
    const { hostCode, guestCode } = roomOf(await liveApi(balancer, host).rooms());
    expect((await liveApi(balancer, host).start(hostCode)).status).toBeLessThan(300);
    expect((await liveApi(balancer, guest).join(guestCode)).status).toBeLessThan(300);
    const grant = (user: typeof host, mode: 'publish' | 'subscribe') => async () =>
      mediaOf(await liveApi(balancer, user).mediaToken(guestCode, mode));
    // The host's offer reaches node A first (B when A refuses): the room is placed on A; the guest
    // listens through C. Both keep their streams by the web client's rules (through the kill below).
    const publisher = byClientRules([nodes.a.url, nodes.b.url], grant(host, 'publish'), (exchange) =>
      TonePublisher.start(exchange, { leftHz: HZ, rightHz: HZ }),
    );
    await publisher.start();
    expect(await holderUrl(`live:${guestCode}`)).toBe(nodes.a.url);
    const listener = byClientRules([nodes.c.url], grant(guest, 'subscribe'), (exchange, slots) =>
      Listener.start(exchange, { slots, probeHz: [HZ] }),
    );
    await listener.start();
    liveRoom = { roomKey: `live:${guestCode}`, publisher, listener };
    const ear = listener.current!.peer;
    const mid = await waitFor(() => ear.slotHearing(HZ), { what: "the host's tone through node C", timeoutMs: 60_000 });

    // The guest's socket is on node B; the resource is on node A: the map still comes.
    const socket = await connectRealtime(nodes.b.url);
    await socket.auth(guest.token);
    await socket.subscribe(`live:${guestCode}`);
    socket.send({ type: 'live.slots', code: guestCode, resourceId: ear.resourceId });
    const slots = await waitFor(() => socket.messages.find((m) => m.type === 'live.slots'), {
      what: 'the slot map from node A',
    });
    expect(slots.type === 'live.slots' && slots.slots.find((s) => s.mid === mid)).toMatchObject({
      participant: host.id,
      live: true,
    });
    // Someone else's socket asking for the guest's resource gets nothing from the holder.
    const hostSocket = await connectRealtime(nodes.b.url);
    await hostSocket.auth(host.token);
    await hostSocket.subscribe(`live:${guestCode}`);
    hostSocket.send({ type: 'live.slots', code: guestCode, resourceId: ear.resourceId });
    // …while the guest's own socket, asking after it, is answered: the host's question was taken.
    const before = socket.messages.filter((m) => m.type === 'live.slots').length;
    socket.send({ type: 'live.slots', code: guestCode, resourceId: ear.resourceId });
    await waitFor(() => socket.messages.filter((m) => m.type === 'live.slots').length > before, {
      what: 'the guest answered again',
    });
    expect(hostSocket.messages.filter((m) => m.type === 'live.slots')).toEqual([]);
    socket.close();
    hostSocket.close();
  });
});

describe('a broadcast on a cluster of two SFU nodes and a web node', { timeout: 180_000 }, () => {
  it('is heard through the other node; with its holder killed, every client-rules stream is back within 10 s', async () => {
    const account = await signInThroughOidc(`http://localhost:${new URL(nodes.b.url).port}`, {
      email: 'caster@sfu-routing.test',
      password: 'sfu-routing-password',
    });
    const [caster] = await db.db
      .update(users)
      .set({ canBroadcast: true })
      .where(eq(users.email, 'caster@sfu-routing.test'))
      .returning({ id: users.id });
    const room = (await call(nodes.b.url, '/api/broadcast', { token: account.access_token })).body as BroadcastRoom;
    const { streamKey, whipUrl } = (
      await call(nodes.b.url, '/api/broadcast/stream-key', { method: 'POST', token: account.access_token })
    ).body as { streamKey: string; whipUrl: string };
    const roomKey = `broadcast:${caster!.id}`;
    const publishVia = (nodeUrl: string) => {
      const encoder = startWhipClient({
        url: `${nodeUrl}${new URL(whipUrl).pathname}`,
        token: streamKey,
        libraries: libraries.dir,
        hz: HZ,
      });
      encoders.push(encoder);
      return encoder;
    };

    // The encoder reaches node A first: the room is placed there.
    const first = publishVia(nodes.a.url);
    await waitFor(async () => (await holderUrl(roomKey)) === nodes.a.url, {
      what: `the room placed on node A\n${first.output()}`,
    });
    const access = (await call(nodes.b.url, `/api/public/broadcast/${room.viewerCode}/access`, { method: 'POST' }))
      .body as PublicBroadcastAccess;
    // The public page's listener: a fresh grant for each connection, through B, by the client's rules.
    const publicGrant = async () =>
      (
        (await call(nodes.b.url, `/api/public/broadcast/${room.viewerCode}/access`, { method: 'POST' }))
          .body as PublicBroadcastAccess
      ).media;
    const audience = byClientRules([nodes.b.url], publicGrant, (exchange) =>
      Listener.start(exchange, { slots: 1, probeHz: [HZ, 1000] }),
    );
    await audience.start();
    await waitFor(() => audience.current?.peer.slotHearing(HZ), {
      what: `the tone through node B\n${first.output()}`,
      timeoutMs: 60_000,
    });

    // The holder checks what a forwarded request carries, as from any client; a resource's
    // Location (a path) reaches it through any node, with or without media.
    const refused = await postOffer(`${nodes.b.url}${new URL(access.media.url).pathname}`, 'not-a-token', 'v=0');
    expect(refused.status).toBe(401);
    const extra = await Listener.start(whepVia(nodes.c.url, access.media), { slots: 1, probeHz: [HZ, 1000] });
    listeners.push(extra);
    await waitFor(() => extra.slotHearing(HZ), { what: 'the tone through the node without media' });
    const stop = await fetch(`${nodes.b.url}/api/broadcast/${room.viewerCode}/whep/${extra.resourceId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${access.media.token}` },
    });
    expect(stop.status).toBe(200);
    const again = await fetch(`${nodes.c.url}/api/broadcast/${room.viewerCode}/whep/${extra.resourceId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${access.media.token}` },
    });
    expect(again.status).toBe(404);

    const live = liveRoom!;
    expect(await holderUrl(live.roomKey)).toBe(nodes.a.url);
    // A broadcast in progress: each connection has had the two RTCP reports from which its stall
    // watch learns the server's cadence (a second or two); a younger one is left to ICE's own
    // 'disconnected', as in the browser.
    await waitFor(() => [live.publisher, live.listener, audience].every((x) => x.current?.watch.limitMs), {
      what: "each stream's stall watch to know the server's report cadence",
      timeoutMs: 30_000,
    });
    nodes.a.process.child.kill('SIGKILL');
    const killedAt = performance.now();
    await nodes.a.process.exited;
    // The encoder is not ours: it is started again at once through B, as OBS reconnects by its own
    // rules. Everything else notices the dead path itself and comes back by the web client's rules.
    await first.stop('SIGKILL');
    publishVia(nodes.b.url);
    const back = await waitFor(
      () => {
        const times = {
          livePublisher: live.publisher.connectedSince(killedAt),
          liveListener: heardSince(live.listener, killedAt),
          broadcastListener: heardSince(audience, killedAt),
        };
        return Object.values(times).every((t) => t !== undefined) ? times : undefined;
      },
      { what: 'every stream back after the kill', timeoutMs: 60_000 },
    );
    const after = (t: number | undefined) => Math.round(t! - killedAt);
    const noticed = (stream: ClientRulesStream<RulesPeer>) =>
      stream.losses.filter((l) => l.at >= killedAt).map((l) => `${Math.round(l.at - killedAt)} ms ${l.cause}`);
    console.log(
      `SFU handover after node A was killed: live publisher on air again ${after(back.livePublisher)} ms ` +
        `(gave up ${noticed(live.publisher).join(', ')}), live listener hearing ${after(back.liveListener)} ms ` +
        `(${noticed(live.listener).join(', ')}), broadcast listener hearing ${after(back.broadcastListener)} ms ` +
        `(${noticed(audience).join(', ')})`,
    );
    for (const t of Object.values(back)) expect(after(t)).toBeLessThan(10_000);
    // Each noticed the loss itself (no test hand closed it) and its first new attempt went at once.
    for (const stream of [live.publisher, live.listener, audience])
      expect(stream.losses.filter((l) => l.at >= killedAt).length).toBeGreaterThan(0);
    expect(await holderUrl(roomKey)).toBe(nodes.b.url);
    expect(await holderUrl(live.roomKey)).toBe(nodes.b.url);

    // A node stopping cleanly lets its rooms go at once: the next offer places them anew.
    nodes.b.process.child.kill('SIGTERM');
    expect(await nodes.b.process.exited).toBe(0);
    expect(await holderUrl(roomKey)).toBeNull();
  });
});
