import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startProcessStats } from './process-stats';

describe('the node’s own load in the health answer', () => {
  it('sees a blocked event loop in its delay, and reports the memory it holds', async () => {
    const stats = startProcessStats();
    try {
      const stall = () => {
        const until = performance.now() + 250;
        while (performance.now() < until); // the stall a slow synchronous handler would cause
      };
      // The monitor's first tick only sets its baseline: stall once, let the tick pass, stall again.
      stall();
      for (let turn = 0; turn < 20; turn++) await nextTurn();
      stall();
      // The histogram samples on its own timer: let it fire after the stall.
      const seen = async () => {
        for (let turn = 0; turn < 1000 && stats.read().eventLoopDelayMs.max < 200; turn++) await nextTurn();
        return stats.read();
      };
      const reading = await seen();
      expect(reading.eventLoopDelayMs.max).toBeGreaterThanOrEqual(200);
      expect(reading.eventLoopDelayMs.p50).toBeLessThanOrEqual(reading.eventLoopDelayMs.max);
      expect(reading.rssBytes).toBeGreaterThan(reading.heapUsedBytes);
    } finally {
      stats.stop();
    }
  });
});
