import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sfuNodes } from '../src/db/schema';
import {
  broadcastSfuRooms,
  liveSfuRooms,
  matchSignalling,
  talkbackSfuRooms,
} from '../src/modules/sfu-routing/sfu-rooms';
import { SfuRoutingRepository } from '../src/modules/sfu-routing/sfu-routing.repository';
import { probeNode, type NodeProbe } from '../src/modules/sfu-routing/sfu-node-probe';
import { SfuRoutingService } from '../src/modules/sfu-routing/sfu-routing.service';
import type { TestClock } from '../src/platform/clock/clock';
import { startClockedServer } from './helpers/clocked-server';
import { freePort } from './helpers/free-port';
import type { TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';

/**
 * The placement and handover rules of SFU room routing against the server clock (moved, never
 * waited on), on the embedded database with several "nodes" sharing it. The cluster itself, with
 * real processes, media and a kill, is sfu-routing.postgres.test.ts.
 */
const BEAT_MS = 2000;
let server: TestServer & { clock: TestClock };
let repository: SfuRoutingRepository;
let clock: TestClock;
const log = pino({ level: 'silent' });

beforeAll(async () => {
  server = await startClockedServer();
  clock = server.clock;
  repository = new SfuRoutingRepository(server.context.database.db);
}, 60_000);
afterAll(async () => server?.close());
beforeEach(async () => {
  await server.context.database.db.delete(sfuNodes);
});

/** A node of the cluster: registered now (an `sfu` node), beating only when the test says so. */
async function node(name: string, sfu = true, options: { url?: string; probe?: NodeProbe } = {}) {
  const self = { id: `${name}-${randomUUID()}`, url: options.url ?? `http://${name}.internal:8080`, sfu };
  const service = new SfuRoutingService({ repository, clock, log, self, heartbeatMs: BEAT_MS, probe: options.probe });
  if (sfu) await repository.register(self, clock.now());
  return service;
}

describe('placing a room', () => {
  it('puts it on the sfu node that took the first request, and sends later requests there from any node', async () => {
    const a = await node('a');
    const b = await node('b');
    const placed = await a.holderFor('broadcast:1', true);
    expect(placed).toMatchObject({ self: true, node: { id: a.nodeId } });
    expect(await b.holderFor('broadcast:1', true)).toMatchObject({ self: false, node: { id: a.nodeId } });
    expect(await b.holderFor('broadcast:1', false)).toMatchObject({ node: { id: a.nodeId } });
    expect(await repository.roomsOf(b.nodeId)).toEqual([]);
  });

  it('from a node without the sfu role, on the live sfu node holding the fewest rooms', async () => {
    const a = await node('a');
    const b = await node('b');
    await a.holderFor('live:one', true);
    await a.holderFor('live:two', true);
    const api = await node('api', false);
    expect(await api.holderFor('live:three', true)).toMatchObject({ self: false, node: { id: b.nodeId } });
    expect(await api.holderFor('live:four', true)).toMatchObject({ node: { id: b.nodeId } });
    expect(await api.holderFor('live:five', true)).toMatchObject({ node: { id: a.nodeId } });
  });

  it('answers 503 from a node without the sfu role when no sfu node lives', async () => {
    const gone = await node('gone');
    clock.advance(3 * BEAT_MS + 1);
    const api = await node('api', false);
    await expect(api.holderFor('live:x', true)).rejects.toMatchObject({ status: 503, code: 'SFU_UNAVAILABLE' });
    expect(gone.isAlive((await repository.node(gone.nodeId))!)).toBe(false);
  });

  it('does not place a room for a trickle or a stop: nothing to find anywhere', async () => {
    const a = await node('a');
    expect(await a.holderFor('broadcast:none', false)).toBeNull();
    expect(await repository.roomsOf(a.nodeId)).toEqual([]);
  });

  it('agrees on one holder when two nodes place the same room at once', async () => {
    const a = await node('a');
    const b = await node('b');
    const [fromA, fromB] = await Promise.all([a.holderFor('live:race', true), b.holderFor('live:race', true)]);
    expect(fromA!.node.id).toBe(fromB!.node.id);
  });
});

describe('handing a room over', () => {
  it('keeps a room on a node that beats; moves it once the node missed three beats', async () => {
    const a = await node('a');
    const b = await node('b');
    await a.holderFor('broadcast:2', true);
    for (let i = 0; i < 5; i++) {
      clock.advance(BEAT_MS);
      await a.beat();
      await b.beat();
    }
    expect(await b.holderFor('broadcast:2', true)).toMatchObject({ node: { id: a.nodeId } });
    // a is killed: b beats on, a does not.
    clock.advance(BEAT_MS);
    await b.beat();
    clock.advance(BEAT_MS);
    await b.beat();
    expect(await b.holderFor('broadcast:2', true)).toMatchObject({ node: { id: a.nodeId } });
    clock.advance(BEAT_MS + 1);
    await b.beat();
    // A trickle finds no holder (its resource died with the node); the next offer places the room anew.
    expect(await b.holderFor('broadcast:2', false)).toBeNull();
    expect(await b.holderFor('broadcast:2', true)).toMatchObject({ self: true, node: { id: b.nodeId } });
    expect(await repository.roomsOf(a.nodeId)).toEqual([]);
  });

  it('lets a room go at once when its node stops cleanly', async () => {
    const a = await node('a');
    const b = await node('b');
    await a.holderFor('live:clean', true);
    await a.stop();
    expect(await repository.node(a.nodeId)).toBeNull();
    expect(await b.holderFor('live:clean', true)).toMatchObject({ self: true });
  });

  it('after an unreachable holder: waits for it to count as gone, or sees it beat again', async () => {
    const a = await node('a');
    const b = await node('b');
    const holder = (await b.holderFor('live:wait', false)) ?? (await a.holderFor('live:wait', true));
    let gone: boolean | null = null;
    void b.waitUntilGone(holder!.node).then((value) => (gone = value));
    clock.advance(BEAT_MS);
    await a.beat();
    clock.advance(BEAT_MS);
    await waitFor(() => gone !== null, { what: 'the wait to end on the beat' });
    expect(gone).toBe(false);

    const seen = (await repository.node(a.nodeId))!;
    const goneAt = b.goneAt(seen).getTime();
    gone = null;
    void b.waitUntilGone(seen).then((value) => (gone = value));
    while (clock.now().getTime() < goneAt - BEAT_MS / 2) {
      clock.advance(BEAT_MS / 2);
      await repository.node(a.nodeId); // lets the wait take its look
      expect(gone).toBeNull();
    }
    // A look armed for a moment already passed fires on the clock's next move.
    await waitFor(
      () => {
        clock.advance(BEAT_MS / 2);
        return gone !== null;
      },
      { what: 'the wait to end on silence' },
    );
    expect(gone).toBe(true);
  });

  it('does not count a holder gone on an old reading when it has beaten since', async () => {
    const a = await node('a');
    const b = await node('b');
    // Read when the request came; the forward and the probe took longer than three beats to fail.
    const old = (await repository.node(a.nodeId))!;
    clock.advance(4 * BEAT_MS);
    await a.beat();
    expect(await b.waitUntilGone(old)).toBe(false);
  });

  it('beats on the clock once started, and registers again when its row was swept', async () => {
    const c = await node('c');
    await c.start();
    const first = (await repository.node(c.nodeId))!.heartbeatAt.getTime();
    clock.advance(BEAT_MS);
    await waitFor(async () => (await repository.node(c.nodeId))!.heartbeatAt.getTime() > first, { what: 'a beat' });
    await server.context.database.db.delete(sfuNodes);
    clock.advance(BEAT_MS);
    await waitFor(async () => (await repository.node(c.nodeId)) !== null, { what: 'the node to register again' });
    await c.stop();
  });
});

/**
 * A holder that a forwarded request could not reach, asked directly on its own port (real sockets:
 * a port nobody listens on refuses; a server that takes connections and never answers is a process
 * blocked on work). Its heartbeat is fresh throughout: only the probe decides, the clock stays.
 */
describe('a holder that could not be reached', () => {
  /** A process that holds its port but answers nothing (its event loop busy). */
  async function stuckProcess(): Promise<{ url: string; close: () => Promise<void> }> {
    const sockets: Socket[] = [];
    const server: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return {
      url: `http://127.0.0.1:${port}`,
      close: () => {
        for (const socket of sockets) socket.destroy();
        return new Promise((resolve) => server.close(() => resolve()));
      },
    };
  }

  it('whose process is gone (connection refused) loses an offered room at once, heartbeat fresh or not', async () => {
    const dead = await node('dead', true, { url: `http://127.0.0.1:${await freePort()}` });
    const b = await node('b');
    await dead.holderFor('live:refused', true);
    const seen = (await repository.node(dead.nodeId))!;
    expect(b.isAlive(seen)).toBe(true);
    expect(await probeNode(seen.url)).toBe('refused');
    // A trickle or stop for it finds nothing: its resource died with the process.
    expect(await b.afterUnreachable('live:refused', seen, false)).toEqual({ next: null, why: 'refused' });
    expect(await repository.roomsOf(dead.nodeId)).toEqual(['live:refused']);
    const offer = await b.afterUnreachable('live:refused', seen, true);
    expect(offer).toMatchObject({ why: 'refused', next: { self: true, node: { id: b.nodeId } } });
    expect(await repository.roomsOf(b.nodeId)).toEqual(['live:refused']);
    // A second node taking it over a moment later agrees: the room stays where the first put it.
    const c = await node('c');
    expect(await c.afterUnreachable('live:refused', seen, true)).toMatchObject({ next: { node: { id: b.nodeId } } });
    // A node without media puts it on a live sfu node other than the gone one.
    await dead.holderFor('live:refused-2', true);
    const api = await node('api', false);
    const moved = await api.afterUnreachable('live:refused-2', seen, true);
    expect(moved.next?.node.id).not.toBe(dead.nodeId);
  });

  it('that answers keeps its room (no second holder)', async () => {
    // The clocked server answers /api/health: a node whose forward failed once but still serves.
    const live = await node('live', true, { url: server.url });
    const b = await node('b');
    await live.holderFor('live:answers', true);
    const seen = (await repository.node(live.nodeId))!;
    expect(await b.afterUnreachable('live:answers', seen, true)).toMatchObject({
      why: 'alive',
      next: { self: false, node: { id: live.nodeId } },
    });
    expect(await repository.roomsOf(b.nodeId)).toEqual([]);
  });

  it('that holds the connection but never answers (busy or hung) keeps its room while it beats', async () => {
    const stuck = await stuckProcess();
    try {
      const slow = await node('slow', true, { url: stuck.url });
      const b = await node('b');
      await slow.holderFor('live:slow', true);
      const seen = (await repository.node(slow.nodeId))!;
      expect(await probeNode(stuck.url)).toBe('silent');
      let outcome: Awaited<ReturnType<SfuRoutingService['afterUnreachable']>> | null = null;
      void b.afterUnreachable('live:slow', seen, true).then((value) => (outcome = value));
      // Slow, not dead: its event loop still beats, late.
      await waitFor(
        async () => {
          clock.advance(BEAT_MS / 4);
          await slow.beat();
          return outcome;
        },
        { what: 'the wait to end on a beat', timeoutMs: 10_000 },
      );
      expect(outcome).toMatchObject({ why: 'beat-again', next: { self: false, node: { id: slow.nodeId } } });
      expect(await repository.roomsOf(slow.nodeId)).toEqual(['live:slow']);
      expect(await repository.roomsOf(b.nodeId)).toEqual([]);
    } finally {
      await stuck.close();
    }
  });

  it('that is silent (no connection at all) is left to the heartbeat rule', async () => {
    const silent: NodeProbe = async () => 'silent';
    const a = await node('a');
    const b = await node('b', true, { probe: silent });
    await a.holderFor('live:silent', true);
    const seen = (await repository.node(a.nodeId))!;
    // It beats again: it keeps the room.
    let outcome: Awaited<ReturnType<SfuRoutingService['afterUnreachable']>> | null = null;
    void b.afterUnreachable('live:silent', seen, true).then((value) => (outcome = value));
    clock.advance(BEAT_MS);
    await a.beat();
    await waitFor(
      () => {
        clock.advance(BEAT_MS / 4);
        return outcome;
      },
      { what: 'the wait to end on the beat' },
    );
    expect(outcome).toMatchObject({ why: 'beat-again', next: { node: { id: a.nodeId } } });
    // It stays silent past three beats: the next offer places the room on b.
    const last = (await repository.node(a.nodeId))!;
    outcome = null;
    void b.afterUnreachable('live:silent', last, true).then((value) => (outcome = value));
    await waitFor(
      () => {
        clock.advance(BEAT_MS / 2);
        return outcome;
      },
      { what: 'the wait to end on silence' },
    );
    expect(outcome).toMatchObject({ why: 'heartbeat-gone', next: { self: true, node: { id: b.nodeId } } });
  });
});

describe('which requests are routed', () => {
  const sessions = { session: async (code: string) => (code === 'LIVE1' ? {} : null) };
  const rooms = [
    liveSfuRooms(sessions),
    talkbackSfuRooms(sessions),
    broadcastSfuRooms({
      byBroadcasterCode: async (code) => (code === 'CAST1' ? { userId: 'u1' } : null),
      byViewerCode: async (code) => (code === 'VIEW1' ? { userId: 'u1' } : null),
    }),
  ];

  it('matches WHIP/WHEP offers and their resources, and nothing else', async () => {
    expect(matchSignalling(rooms, '/api/live/LIVE1/whip')).toMatchObject({ code: 'LIVE1', kind: 'whip' });
    expect(matchSignalling(rooms, '/api/live/LIVE1/whep/3f2a-11?x=1')).toMatchObject({ kind: 'whep' });
    expect(matchSignalling(rooms, '/api/broadcast/CAST1/whip/abc')).toMatchObject({ code: 'CAST1' });
    const talkback = matchSignalling(rooms, '/api/live/LIVE1/talkback/whep/3f2a-11');
    expect(talkback).toMatchObject({ code: 'LIVE1', kind: 'whep', route: { between: 'talkback/' } });
    // The talkback of a session goes where its music is.
    expect(await talkback!.route.roomOf('LIVE1', 'whep')).toBe('live:LIVE1');
    for (const other of [
      '/api/live/LIVE1/start',
      '/api/live/rooms',
      '/api/live/LIVE1/talkback/token',
      '/api/live/LIVE1/other/whip',
      '/api/broadcast/CAST1/media-token',
      '/api/health',
    ])
      expect(matchSignalling(rooms, other)).toBeNull();
  });

  it('leads a broadcast WHIP code and its WHEP code to one room; unknown codes to none', async () => {
    const whip = matchSignalling(rooms, '/api/broadcast/CAST1/whip')!;
    const whep = matchSignalling(rooms, '/api/broadcast/VIEW1/whep')!;
    expect(await whip.route.roomOf(whip.code, whip.kind)).toBe('broadcast:u1');
    expect(await whep.route.roomOf(whep.code, whep.kind)).toBe('broadcast:u1');
    expect(await whip.route.roomOf('VIEW1', 'whip')).toBeNull();
    const live = matchSignalling(rooms, '/api/live/NOPE/whep')!;
    expect(await live.route.roomOf(live.code, live.kind)).toBeNull();
  });
});
