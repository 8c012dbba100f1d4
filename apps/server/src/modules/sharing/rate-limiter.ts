import type { Clock } from '../../platform/clock/clock';

export interface RateLimiterDeps {
  /** Hits allowed per key within the window. */
  limit: number;
  windowMs: number;
  clock: Clock;
}

/**
 * A sliding-window limit per key (per user). In memory, so per node: with N nodes a user gets at
 * most N times the limit, which still stops a runaway client or a spammer.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly deps: RateLimiterDeps) {}

  /** Records `cost` hits for `key` if they fit in the window; false when they do not. */
  take(key: string, cost = 1, now = this.deps.clock.now().getTime()): boolean {
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.deps.windowMs);
    if (recent.length + cost > this.deps.limit) {
      this.hits.set(key, recent);
      return false;
    }
    this.hits.set(key, [...recent, ...Array<number>(cost).fill(now)]);
    return true;
  }
}
