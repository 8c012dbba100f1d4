import { creditPeriod, LIVE_ELAPSED_STEP_MS } from '@mixroom/shared';
import type { Logger } from 'pino';
import type { Clock, Timer } from '../../platform/clock/clock';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { LiveRepository, LiveSessionRow } from './live.repository';

export interface LiveTimersDeps {
  repository: LiveRepository;
  clock: Clock;
  bus: EventBus;
  log: Logger;
}

/**
 * A running session's clock, on the app's Clock so tests move it: every minute the elapsed time is
 * persisted (and counted as the host's live minutes; minutes the clock passed at once all count),
 * and a limited session (Free: 30 minutes) expires at its end. Both writes are conditional, so several nodes arming one session count once.
 * The end is its own timer at an absolute time, so a clock moved far at once still reaches it.
 */
export class LiveTimers {
  private readonly armed = new Map<string, { tick: Timer; end: Timer | null }>();

  constructor(private readonly deps: LiveTimersDeps) {}

  arm(session: LiveSessionRow): void {
    this.cancel(session.code);
    if (session.status !== 'active') return;
    const now = this.deps.clock.now().getTime();
    const tickAt = session.tickDueAt ?? new Date(now + LIVE_ELAPSED_STEP_MS);
    const end =
      session.maxDurationMs === null
        ? null
        : this.deps.clock.setTimer(new Date(now + Math.max(0, session.maxDurationMs - session.elapsedMs)), () =>
            this.run(this.expire(session.code)),
          );
    this.armed.set(session.code, {
      tick: this.deps.clock.setTimer(tickAt, () => this.run(this.tick(session.code))),
      end,
    });
  }

  cancel(code: string): void {
    const timers = this.armed.get(code);
    timers?.tick.cancel();
    timers?.end?.cancel();
    this.armed.delete(code);
  }

  cancelAll(): void {
    for (const code of [...this.armed.keys()]) this.cancel(code);
  }

  private run(work: Promise<void>): void {
    void work.catch((error: unknown) => this.deps.log.warn({ err: error }, 'a live session timer failed'));
  }

  private async tick(code: string): Promise<void> {
    let last: LiveSessionRow | null = null;
    // Steps that fell due while one was written (the clock moved on meanwhile) are counted before
    // the next timer is set: a timer armed in the past would wait for the clock's next move.
    for (;;) {
      const now = this.deps.clock.now();
      const ticked = await this.deps.repository.tick(code, LIVE_ELAPSED_STEP_MS, now);
      if (!ticked) break;
      last = ticked.row;
      if (ticked.addedMs > 0) await this.deps.repository.addUsage(last.hostId, creditPeriod(now), ticked.addedMs);
      if (!last.tickDueAt || last.tickDueAt > this.deps.clock.now()) break;
    }
    if (!last) return;
    const row = last;
    const timers = this.armed.get(code);
    if (timers && row.tickDueAt) timers.tick = this.deps.clock.setTimer(row.tickDueAt, () => this.run(this.tick(code)));
    const remainingMs = row.maxDurationMs === null ? null : Math.max(0, row.maxDurationMs - row.elapsedMs);
    await this.deps.bus.publishOrLog({
      topic: `live:${code}`,
      type: 'live.changed',
      data: { code, action: 'tick', userId: null, instanceId: null, remainingMs },
    });
  }

  /** The free time is used up: the session closes ('Free Tier Time Expired'); the media side drops its peers. */
  private async expire(code: string): Promise<void> {
    const now = this.deps.clock.now();
    const row = await this.deps.repository.finish(code, 'expired', now);
    if (!row || row.maxDurationMs === null) return;
    // Time since the last persisted step still counts towards the month's usage (`row` holds the elapsed before).
    const rest = Math.max(0, row.maxDurationMs - row.elapsedMs);
    if (rest > 0) await this.deps.repository.addUsage(row.hostId, creditPeriod(now), rest);
    this.cancel(code);
    await this.deps.bus.publishOrLog({
      topic: `live:${code}`,
      type: 'live.changed',
      data: { code, action: 'expired', userId: row.hostId, instanceId: null, remainingMs: 0 },
    });
  }
}
