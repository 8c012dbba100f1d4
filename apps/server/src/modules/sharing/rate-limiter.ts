import { systemClock, type Clock } from '../../platform/clock/clock';

/**
 * A sliding-window limit per key (per user). In memory, so per node: with N nodes a user gets at
 * most N times the limit, which still stops a runaway client or a spammer.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Records `cost` hits for `key` if they fit in the window; false when they do not. */
  take(key: string, cost = 1, now = this.clock.now().getTime()): boolean {
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (recent.length + cost > this.limit) {
      this.hits.set(key, recent);
      return false;
    }
    this.hits.set(key, [...recent, ...Array<number>(cost).fill(now)]);
    return true;
  }
}
