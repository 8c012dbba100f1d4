import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PLAYER } from '@mixroom/shared';
import { IdleWatch } from './idle-watch';

describe('IdleWatch (inactivity timeout 300,000 ms)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const watch = (busy = () => false) => {
    const events: string[] = [];
    const idle = new IdleWatch(PLAYER.inactivityTimeoutMs, {
      onIdle: () => events.push('idle'),
      onActive: () => events.push('active'),
      busy,
    });
    idle.start();
    return { idle, events };
  };

  it('goes idle after exactly 300,000 ms without input, and back on the next input', () => {
    const { idle, events } = watch();
    vi.advanceTimersByTime(299_999);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['idle']);
    expect(idle.isIdle).toBe(true);
    vi.advanceTimersByTime(600_000);
    expect(events).toEqual(['idle']);
    idle.activity();
    expect(events).toEqual(['idle', 'active']);
    expect(idle.isIdle).toBe(false);
  });

  it('starts the countdown over on every input', () => {
    const { idle, events } = watch();
    vi.advanceTimersByTime(200_000);
    idle.activity();
    vi.advanceTimersByTime(200_000);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(100_000);
    expect(events).toEqual(['idle']);
  });

  it('never goes idle while audio plays, and does once it stops', () => {
    let playing = true;
    const { events } = watch(() => playing);
    vi.advanceTimersByTime(900_000);
    expect(events).toEqual([]);
    playing = false;
    vi.advanceTimersByTime(300_000);
    expect(events).toEqual(['idle']);
  });

  it('stops cleanly', () => {
    const { idle, events } = watch();
    idle.stop();
    vi.advanceTimersByTime(1_000_000);
    expect(events).toEqual([]);
  });
});
