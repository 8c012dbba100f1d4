import type { Clock } from '../../../platform/clock/clock';

/** How often a running media job marks its version as alive. */
export const PROCESSING_HEARTBEAT_MS = 15_000;

/**
 * A version whose job has not marked it for this long is stuck (its process died), not slow: a
 * live job beats every PROCESSING_HEARTBEAT_MS, even inside an hour-long ffmpeg pass.
 */
export const PROCESSING_STALLED_AFTER_MS = 5 * 60_000;

/** Repeats a callback; the seam tests drive by hand instead of waiting. */
export interface Ticker {
  every(ms: number, tick: () => void): () => void;
}

export const systemTicker: Ticker = {
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    // A heartbeat never keeps a stopping process alive.
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** Whether a version with this last heartbeat counts as stalled at `now`. */
export const isStalled = (heartbeatAt: Date | null, now: Date) =>
  heartbeatAt !== null && now.getTime() - heartbeatAt.getTime() >= PROCESSING_STALLED_AFTER_MS;

/**
 * Marks a version alive now and every PROCESSING_HEARTBEAT_MS until stopped. A failed write is
 * logged and the next beat tries again: a database hiccup must not fail the media job.
 */
export async function startHeartbeat(
  touch: (at: Date) => Promise<unknown>,
  deps: { clock: Clock; ticker: Ticker; onError: (error: unknown) => void },
): Promise<() => void> {
  const beat = () => touch(deps.clock.now()).catch(deps.onError);
  await beat();
  return deps.ticker.every(PROCESSING_HEARTBEAT_MS, () => void beat());
}
