import { describe, expect, it } from 'vitest';
import { TestClock } from '../../../platform/clock/clock';
import {
  isStalled,
  PROCESSING_HEARTBEAT_MS,
  PROCESSING_STALLED_AFTER_MS,
  startHeartbeat,
  type Ticker,
} from './processing-heartbeat';

function manualTicker() {
  const ticks: { ms: number; tick: () => void }[] = [];
  const ticker: Ticker = {
    every(ms, tick) {
      const entry = { ms, tick };
      ticks.push(entry);
      return () => ticks.splice(ticks.indexOf(entry), 1);
    },
  };
  return { ticker, ticks, fire: () => ticks.forEach((t) => t.tick()) };
}

describe('processing heartbeat', () => {
  it('beats at once, then on each tick until stopped', async () => {
    const clock = new TestClock(new Date('2026-11-24T07:00:00Z'));
    const { ticker, ticks, fire } = manualTicker();
    const beats: string[] = [];
    const stop = await startHeartbeat(async (at) => beats.push(at.toISOString()), {
      clock,
      ticker,
      onError: () => undefined,
    });
    expect(ticks[0]?.ms).toBe(PROCESSING_HEARTBEAT_MS);
    clock.advance(PROCESSING_HEARTBEAT_MS);
    fire();
    await Promise.resolve();
    expect(beats).toEqual(['2026-11-24T07:00:00.000Z', '2026-11-24T07:00:15.000Z']);
    stop();
    expect(ticks).toHaveLength(0);
  });

  it('reports a failed write and keeps beating', async () => {
    const { ticker, fire } = manualTicker();
    const errors: unknown[] = [];
    let calls = 0;
    await startHeartbeat(
      async () => {
        calls++;
        if (calls === 1) throw new Error('database busy');
      },
      { clock: new TestClock(), ticker, onError: (error) => errors.push(error) },
    );
    fire();
    await Promise.resolve();
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it('beats well inside the 30 s a sweeper may rely on, and calls five silent minutes stalled', () => {
    expect(PROCESSING_HEARTBEAT_MS).toBeLessThanOrEqual(30_000);
    const now = new Date('2026-11-24T07:10:00Z');
    expect(isStalled(new Date(now.getTime() - PROCESSING_STALLED_AFTER_MS), now)).toBe(true);
    expect(isStalled(new Date(now.getTime() - PROCESSING_STALLED_AFTER_MS + 1), now)).toBe(false);
    expect(isStalled(null, now)).toBe(false);
  });
});
