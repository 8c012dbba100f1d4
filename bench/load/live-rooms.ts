// The live part of the load run: a few teams' leads host a live room (on a plan with guests) and
// publish a stereo tone; the other members join as guests at random moments early in the run and
// listen. All of it goes through the balancer, so each room lives on whichever API node (`api,sfu`)
// took its first offer. Recorded: join to first audio, audible frames and RTP packets per second per
// listener, seconds without audio, and after the kill of the node holding room 0, when each
// publisher and listener had audio again.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { liveApi, roomOf } from '../../apps/server/test/helpers/live';
import { waitFor } from '../../apps/server/test/helpers/wait-for';
import type { NodeName } from './load-cluster';
import type { LoadMetrics } from './load-metrics';
import type { SimUser, Team } from './load-users';
import { LiveStream, type Tone } from './live-stream';
import { RealtimeFollower } from './realtime-follower';
import { continuityTable, failoverLines, listenerChecks, type Kill } from './live-report';

/** A listener's audio over one sampling interval. */
export interface LiveSample {
  /** Seconds since the harness started. */
  at: number;
  /** Audible decoded 10 ms frames per second (100 when the tone flows). */
  framesPerS: number;
  /** RTP audio packets per second. */
  packetsPerS: number;
}

export interface LiveGuest {
  user: SimUser;
  stream: LiveStream | null;
  /** Seconds since the harness started, once its first audio came. */
  firstAudioAt: number | undefined;
  samples: LiveSample[];
  joined: Promise<void>;
}

export interface LiveRoom {
  index: number;
  code: string;
  tone: Tone;
  host: SimUser;
  publisher: LiveStream;
  guests: LiveGuest[];
}

const SAMPLE_MS = 1000;
const FIRST_AUDIO_TIMEOUT_MS = 30_000;

export class LiveRooms {
  readonly rooms: LiveRoom[] = [];
  /** Rooms that could not start, with the cause (reported; the rest of the run goes on). */
  readonly setupErrors: string[] = [];
  private readonly sockets: RealtimeFollower[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private sampler: NodeJS.Timeout | null = null;
  private kill: Kill | null = null;
  private closed = false;
  /**
   * The harness's own event-loop delay: the publishers feed their 10 ms chunks from this loop, so a
   * stall here is a gap at the source, not the server's. The largest delay of each sample interval.
   */
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 10 });
  readonly harnessLag: { at: number; maxMs: number }[] = [];

  private constructor(
    private readonly baseUrl: string,
    private readonly db: pg.Client,
    private readonly metrics: LoadMetrics,
  ) {}

  /** Starts `count` rooms, each hosted by a team's lead with the tone on air. */
  static async start(
    baseUrl: string,
    databaseUrl: string,
    teams: Team[],
    count: number,
    metrics: LoadMetrics,
  ): Promise<LiveRooms> {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const live = new LiveRooms(baseUrl, db, metrics);
    for (const team of teams.slice(0, count))
      await live.startRoom(team).catch((error: unknown) => {
        live.setupErrors.push(`room of team ${team.index}: ${error instanceof Error ? error.message : String(error)}`);
      });
    live.loopDelay.enable();
    live.sampler = setInterval(() => void live.sample(), SAMPLE_MS);
    return live;
  }

  private async startRoom(team: Team): Promise<void> {
    const host = team.members[0]!;
    const { id } = await host.client.api<{ id: string }>('/api/me');
    // A studio plan (guests, no time limit), granted as an administrator's grant is stored.
    await this.db.query(
      "insert into plan_grants (user_id, sku, starts_at) values ($1, 'STUDIO', now() - interval '1 hour')",
      [id],
    );
    const api = liveApi({ url: this.baseUrl }, { token: host.token });
    const rooms = await api.rooms();
    if (rooms.status >= 300) throw new Error(`rooms: ${rooms.status}`);
    const { hostCode, guestCode } = roomOf(rooms);
    const started = await api.start(hostCode);
    if (started.status >= 300) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
    this.follow(host, guestCode);
    const index = this.rooms.length;
    const tone = { leftHz: 440 + 40 * index, rightHz: 660 + 40 * index };
    const publisher = this.stream(host, guestCode, 'publish', tone);
    await publisher.start();
    await waitFor(() => publisher.connectedSince(0), {
      timeoutMs: FIRST_AUDIO_TIMEOUT_MS,
      what: 'the host on air',
    }).catch(async (error: unknown) => {
      // A room that did not start leaves nothing running.
      await publisher.stop();
      throw error;
    });
    const room: LiveRoom = { index, code: guestCode, tone, host, publisher, guests: [] };
    for (const user of team.members.slice(1, 5))
      room.guests.push({ user, stream: null, firstAudioAt: undefined, samples: [], joined: Promise.resolve() });
    this.rooms.push(room);
  }

  private stream(user: SimUser, code: string, mode: 'publish' | 'subscribe', tone: Tone): LiveStream {
    return new LiveStream({
      mode,
      code,
      baseUrl: this.baseUrl,
      accessToken: () => user.token,
      tone,
      metrics: this.metrics,
    });
  }

  /** The live page's socket: it follows the room (presence, who is live) and reconnects like the app's. */
  private follow(user: SimUser, code: string): void {
    const socket = new RealtimeFollower(
      this.baseUrl,
      () => user.token,
      [`live:${code}`],
      () => undefined,
    );
    socket.connect();
    this.sockets.push(socket);
  }

  /** Each guest joins at a random moment within `withinMs`, and listens from then on. */
  scheduleJoins(withinMs: number): void {
    for (const room of this.rooms)
      for (const guest of room.guests) {
        let done: () => void = () => undefined;
        guest.joined = new Promise<void>((resolve) => (done = resolve));
        this.timers.push(setTimeout(() => void this.join(room, guest).finally(done), Math.random() * withinMs));
      }
  }

  private async join(room: LiveRoom, guest: LiveGuest): Promise<void> {
    if (this.closed) return;
    await this.metrics
      .time('live', async () => {
        const started = performance.now();
        const joined = await liveApi({ url: this.baseUrl }, { token: guest.user.token }).join(room.code);
        if (joined.status >= 300) throw new Error(`join: ${joined.status} ${JSON.stringify(joined.body)}`);
        this.follow(guest.user, room.code);
        const stream = this.stream(guest.user, room.code, 'subscribe', room.tone);
        guest.stream = stream;
        await stream.start();
        const heard = await waitFor(() => stream.firstAudioSince(started), {
          timeoutMs: FIRST_AUDIO_TIMEOUT_MS,
          intervalMs: 20,
          what: 'the first audio',
        });
        guest.firstAudioAt = this.metrics.elapsedS() - (performance.now() - heard) / 1000;
      })
      .catch(() => undefined);
  }

  private readonly last = new Map<LiveGuest, { peer: unknown; frames: number; packets: number; at: number }>();

  private sampling = false;

  private async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    await this.sampleAll().finally(() => (this.sampling = false));
  }

  private async sampleAll(): Promise<void> {
    this.harnessLag.push({ at: this.metrics.elapsedS(), maxMs: this.loopDelay.max / 1e6 });
    this.loopDelay.reset();
    for (const guest of this.rooms.flatMap((r) => r.guests)) {
      if (!guest.stream) continue;
      const peer = guest.stream.current?.peer;
      const frames = guest.stream.audibleFrames();
      const packets = await guest.stream.packetsReceived();
      const at = this.metrics.elapsedS();
      const before = this.last.get(guest);
      this.last.set(guest, { peer, frames, packets, at });
      if (!before) continue;
      // A new connection counts from zero.
      const same = before.peer === peer;
      const seconds = Math.max(0.001, at - before.at);
      guest.samples.push({
        at,
        framesPerS: (frames - (same ? before.frames : 0)) / seconds,
        packetsPerS: (packets - (same ? before.packets : 0)) / seconds,
      });
    }
  }

  /** The node holding each room now, by name (null: not placed, or a node the cluster does not know). */
  async holders(nodeAt: (url: string) => NodeName | null): Promise<(NodeName | null)[]> {
    const holders: (NodeName | null)[] = [];
    for (const room of this.rooms) {
      const { rows } = await this.db.query<{ url: string }>(
        'select n.url from sfu_placements p join sfu_nodes n on n.id = p.node_id where p.room_key = $1',
        [`live:${room.code}`],
      );
      holders.push(rows[0] ? nodeAt(rows[0].url) : null);
    }
    return holders;
  }

  /** Notes the kill of an API node (now), with where each room was. */
  killed(node: NodeName, holders: (NodeName | null)[]): void {
    this.kill = { node, at: performance.now(), atS: this.metrics.elapsedS(), holders };
  }

  /**
   * After the load: whether every listener hears its host at the end, the continuity table and the
   * failover lines. Everything is closed afterwards.
   */
  async finish(): Promise<{ report: string[]; checks: string[] }> {
    await Promise.all(this.rooms.flatMap((r) => r.guests.map((g) => g.joined)));
    // Three more samples of each listener after the load: the end check reads them.
    const guests = this.rooms.flatMap((r) => r.guests);
    const counts = guests.map((g) => g.samples.length);
    await waitFor(() => guests.every((g, i) => !g.stream || g.samples.length >= counts[i]! + 3), {
      timeoutMs: 30_000,
      intervalMs: 100,
      what: 'three more samples of every listener',
    }).catch(() => undefined);
    // With LOAD_NODE_LOGS, each listener's samples go next to the nodes' logs (to look into a gap).
    const logs = process.env.LOAD_NODE_LOGS;
    if (logs) {
      mkdirSync(logs, { recursive: true });
      const samples = guests.map((g) => ({ user: g.user.email, firstAudioAt: g.firstAudioAt, samples: g.samples }));
      writeFileSync(join(logs, 'live-samples.json'), JSON.stringify({ kill: this.kill, samples }, null, 1));
    }
    const checks = [...this.setupErrors.map((e) => `NOT started: live ${e}`), ...listenerChecks(this.rooms)];
    const report = [...continuityTable(this.rooms, this.harnessLag), '', ...failoverLines(this.rooms, this.kill)];
    await this.close();
    return { report, checks };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.sampler) clearInterval(this.sampler);
    this.loopDelay.disable();
    for (const timer of this.timers) clearTimeout(timer);
    const streams = this.rooms.flatMap((r) => [r.publisher, ...r.guests.map((g) => g.stream)]);
    await Promise.all(streams.map((s) => s?.stop() ?? Promise.resolve()));
    for (const socket of this.sockets) socket.close();
    await this.db.end().catch(() => undefined);
  }
}
