import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/clock';
import { PeerWatchdog } from './peer-watchdog';

describe('PeerWatchdog', () => {
  it('declares a peer dead only after a full timeout without a sign of life', () => {
    const clock = new TestClock(new Date('2026-12-01T00:00:00Z'));
    let dead = 0;
    const watchdog = new PeerWatchdog(clock, 1000, () => (dead += 1));
    clock.advance(600);
    watchdog.touch();
    clock.advance(999);
    expect(dead).toBe(0);
    clock.advance(1);
    expect(dead).toBe(1);
    clock.advance(10_000);
    expect(dead).toBe(1);
    expect(clock.pendingCount).toBe(0);
  });

  it('does nothing once stopped', () => {
    const clock = new TestClock(new Date('2026-12-01T00:00:00Z'));
    let dead = 0;
    new PeerWatchdog(clock, 1000, () => (dead += 1)).stop();
    clock.advance(5000);
    expect(dead).toBe(0);
  });
});
