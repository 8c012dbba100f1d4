import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Event-loop delay is summarised over windows of this length, so a reading describes the recent past. */
const WINDOW_MS = 10_000;

export interface ProcessStats {
  rssBytes: number;
  heapUsedBytes: number;
  /** Event-loop delay over the last complete window (the current one until the first window closes). */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
}

const toMs = (nanoseconds: number) => Math.round(nanoseconds / 1e4) / 100;

/**
 * The node's own load as a load balancer or a soak test wants it: memory and event-loop delay. The
 * histogram restarts every window (an ever-growing one would hide a recent stall behind hours of
 * calm) and the last full window is what readers get, so concurrent readers don't reset each other.
 */
export function startProcessStats(): { read(): ProcessStats; stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let last: ProcessStats['eventLoopDelayMs'] | null = null;
  const summarise = () => ({
    p50: toMs(histogram.percentile(50)),
    p99: toMs(histogram.percentile(99)),
    max: toMs(histogram.max),
  });
  const timer = setInterval(() => {
    last = summarise();
    histogram.reset();
  }, WINDOW_MS);
  timer.unref();
  return {
    read: () => {
      const memory = process.memoryUsage();
      return { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, eventLoopDelayMs: last ?? summarise() };
    },
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}
