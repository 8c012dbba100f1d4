import type { Logger } from 'pino';
import { AppError } from '../../http/app-error';
import type { Clock, Timer } from '../../platform/clock/clock';
import { probeNode, type NodeProbe, type ProbeVerdict } from './sfu-node-probe';
import type { SfuNodeRow, SfuRoutingRepository } from './sfu-routing.repository';

/** A node silent for this many beats counts as gone: its rooms move on their next publish or subscribe. */
export const GONE_AFTER_BEATS = 3;
/** A gone node's row is forgotten after this many beats (its rooms have moved by then, or nobody came). */
const FORGET_AFTER_BEATS = 600;

export interface SfuRoutingDeps {
  repository: SfuRoutingRepository;
  clock: Clock;
  log: Logger;
  /** This node: its id (new at every start), its internal URL and whether it carries media itself. */
  self: { id: string; url: string; sfu: boolean };
  heartbeatMs: number;
  /** Asks another node's process directly whether it is there (sfu-node-probe.ts). */
  probe?: NodeProbe;
}

/** Why a holder that could not be reached keeps its room or loses it (logged with each decision). */
export type UnreachableOutcome =
  | { next: Holder | null; why: 'refused' }
  | { next: Holder; why: 'alive' }
  | { next: Holder | null; why: 'beat-again' | 'heartbeat-gone' };

/** Where a room's signalling goes: this node, or another node's internal URL. */
export type Holder = { self: true; node: SfuNodeRow } | { self: false; node: SfuNodeRow };

/**
 * Rooms of the embedded SFU spread over the nodes with the `sfu` role on one PostgreSQL. Each such
 * node beats on the server clock; a room is placed on the first publish or subscribe (on this node
 * when it carries media, else on the live node holding the fewest rooms) and stays there while its
 * node beats. A room whose node stopped beating moves to the node placing it next; so does one whose
 * node's port refuses connections when an offer is forwarded there (its process is gone: no need to
 * wait for three missed beats). Publishers and listeners reconnect by their rules and land there.
 */
export class SfuRoutingService {
  private timer: Timer | null = null;
  private stopped = false;

  constructor(private readonly deps: SfuRoutingDeps) {}

  get nodeId(): string {
    return this.deps.self.id;
  }

  get selfUrl(): string {
    return this.deps.self.url;
  }

  /** The moment before which a beat means nothing any more. */
  private aliveSince(): Date {
    return new Date(this.deps.clock.now().getTime() - GONE_AFTER_BEATS * this.deps.heartbeatMs);
  }

  /** When `node` counts as gone if it does not beat again. */
  goneAt(node: SfuNodeRow): Date {
    return new Date(node.heartbeatAt.getTime() + GONE_AFTER_BEATS * this.deps.heartbeatMs);
  }

  isAlive(node: SfuNodeRow): boolean {
    return node.heartbeatAt.getTime() >= this.aliveSince().getTime();
  }

  /**
   * The node holding `roomKey`. Only a publish or subscribe (`place`) puts a room on a node: a
   * trickle or a stop for a room that nobody holds answers where it arrived (nothing to find there).
   */
  async holderFor(roomKey: string, place: boolean): Promise<Holder | null> {
    const { repository, clock, self } = this.deps;
    const current = await repository.holder(roomKey);
    if (current && this.isAlive(current)) return this.holder(current);
    if (!place) return null;
    const aliveSince = this.aliveSince();
    const target = self.sfu ? { id: self.id } : (await repository.liveNodes(aliveSince))[0];
    if (!target) throw new AppError(503, 'SFU_UNAVAILABLE', 'No media server is available; try again shortly.');
    await repository.place(roomKey, target.id, clock.now(), aliveSince);
    // Another node may have placed the room a moment earlier: its choice stands.
    const placed = await repository.holder(roomKey);
    if (!placed) throw new AppError(503, 'SFU_UNAVAILABLE', 'No media server is available; try again shortly.');
    if (current && current.id !== placed.id)
      this.deps.log.warn({ roomKey, from: current.id, to: placed.id }, 'media room handed over from a silent node');
    return this.holder(placed);
  }

  private holder(node: SfuNodeRow): Holder {
    return node.id === this.deps.self.id ? { self: true, node } : { self: false, node };
  }

  /**
   * What to do after a request to the holder of `roomKey` could not be reached. The holder is asked
   * directly (probe): a refused connection means its process is gone, and an offer (`place`) takes
   * the room over at once, whatever its heartbeat says; a trickle or stop finds nothing (its resource
   * died with the process). A holder that answers lives: it keeps the room (no second holder while
   * one still serves). Silence (no connection, or no answer on one) decides nothing by itself: a slow
   * process and a hung one look alike, so the heartbeat rule does (waitUntilGone), as before.
   */
  async afterUnreachable(roomKey: string, node: SfuNodeRow, place: boolean): Promise<UnreachableOutcome> {
    const verdict: ProbeVerdict = await (this.deps.probe ?? probeNode)(node.url);
    if (verdict === 'refused') return { next: place ? await this.takeOver(roomKey, node) : null, why: 'refused' };
    if (verdict === 'alive') return { next: this.holder(node), why: 'alive' };
    if (!(await this.waitUntilGone(node))) return { next: this.holder(node), why: 'beat-again' };
    return { next: await this.holderFor(roomKey, place), why: 'heartbeat-gone' };
  }

  /** Moves a room off a holder whose process refused a connection: onto this node, or the least busy other. */
  private async takeOver(roomKey: string, from: SfuNodeRow): Promise<Holder> {
    const { repository, clock, self, log } = this.deps;
    const others = self.sfu ? [] : (await repository.liveNodes(this.aliveSince())).filter((n) => n.id !== from.id);
    const target = self.sfu ? { id: self.id } : others[0];
    if (!target) throw new AppError(503, 'SFU_UNAVAILABLE', 'No media server is available; try again shortly.');
    const moved = await repository.takeOver(roomKey, from.id, target.id, clock.now());
    // Another node may have taken it over a moment earlier: its choice stands.
    const placed = await repository.holder(roomKey);
    if (!placed) throw new AppError(503, 'SFU_UNAVAILABLE', 'No media server is available; try again shortly.');
    if (moved)
      log.warn(
        { roomKey, from: from.id, fromUrl: from.url, to: placed.id, why: 'holder refused connections' },
        'media room taken over from a node whose process is gone',
      );
    return this.holder(placed);
  }

  /**
   * After `node` could not be reached: resolves true once it counts as gone (its rooms may move),
   * false as soon as it beats again (it lives; the failure was passing).
   */
  async waitUntilGone(node: SfuNodeRow): Promise<boolean> {
    const { repository, clock, heartbeatMs } = this.deps;
    for (;;) {
      // The row first: `node` may be seconds old (a forward's and a probe's waits), and a beat since
      // then means it lives, however far the clock has gone past its last known beat.
      const fresh = await repository.node(node.id);
      if (!fresh) return true;
      if (fresh.heartbeatAt.getTime() > node.heartbeatAt.getTime()) return false;
      const goneAt = this.goneAt(node).getTime();
      if (clock.now().getTime() >= goneAt) return true;
      // Look again at the next beat or when the silence makes it gone, whichever comes first.
      const next = new Date(Math.min(goneAt, clock.now().getTime() + heartbeatMs));
      await new Promise<void>((resolve) => clock.setTimer(next, resolve));
    }
  }

  /** Registers this node (an `sfu` node only) and beats every interval until stopped. */
  async start(): Promise<void> {
    if (!this.deps.self.sfu) return;
    await this.deps.repository.register(this.deps.self, this.deps.clock.now());
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.deps.clock.after(this.deps.heartbeatMs, () => {
      void this.beat().finally(() => this.schedule());
    });
  }

  /** One beat; also forgets long-gone nodes. A failed beat (the database away) is retried next time. */
  async beat(): Promise<void> {
    const { repository, clock, self, heartbeatMs, log } = this.deps;
    try {
      const now = clock.now();
      if (!(await repository.beat(self.id, now))) await repository.register(self, now);
      await repository.sweep(new Date(now.getTime() - FORGET_AFTER_BEATS * heartbeatMs));
    } catch (error) {
      log.warn({ err: error }, 'SFU node heartbeat failed');
    }
  }

  /** A clean stop: this node's rooms are let go at once, so the next request places them elsewhere. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    if (this.deps.self.sfu) await this.deps.repository.remove(this.deps.self.id);
  }
}
