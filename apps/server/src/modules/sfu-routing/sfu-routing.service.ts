import type { Logger } from 'pino';
import { AppError } from '../../http/app-error';
import type { Clock, Timer } from '../../platform/clock/clock';
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
}

/** Where a room's signalling goes: this node, or another node's internal URL. */
export type Holder = { self: true; node: SfuNodeRow } | { self: false; node: SfuNodeRow };

/**
 * Rooms of the embedded SFU spread over the nodes with the `sfu` role on one PostgreSQL. Each such
 * node beats on the server clock; a room is placed on the first publish or subscribe (on this node
 * when it carries media, else on the live node holding the fewest rooms) and stays there while its
 * node beats. A room whose node stopped beating moves to the node placing it next: publishers and
 * listeners reconnect by their backoff and land there.
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
   * After `node` could not be reached: resolves true once it counts as gone (its rooms may move),
   * false as soon as it beats again (it lives; the failure was passing).
   */
  async waitUntilGone(node: SfuNodeRow): Promise<boolean> {
    const { repository, clock, heartbeatMs } = this.deps;
    for (;;) {
      const goneAt = this.goneAt(node).getTime();
      if (clock.now().getTime() >= goneAt) return true;
      // Look again at the next beat or when the silence makes it gone, whichever comes first.
      const next = new Date(Math.min(goneAt, clock.now().getTime() + heartbeatMs));
      await new Promise<void>((resolve) => clock.setTimer(next, resolve));
      const fresh = await repository.node(node.id);
      if (!fresh) return true;
      if (fresh.heartbeatAt.getTime() > node.heartbeatAt.getTime()) return false;
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
