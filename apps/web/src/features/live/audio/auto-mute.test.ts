import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startAutoMute } from './auto-mute';
import { SILENCE_DB } from './level';

describe('Auto Mute', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reads the room every 10 ms and mutes while the recent average is above −90 dB', () => {
    let level = SILENCE_DB;
    const reads: number[] = [];
    const told: boolean[] = [];
    const stop = startAutoMute(
      () => {
        reads.push(Date.now());
        return level;
      },
      (muted) => told.push(muted),
    );

    vi.advanceTimersByTime(100);
    expect(reads).toHaveLength(10);
    expect(reads.every((at, i) => i === 0 || at - reads[i - 1]! === 10)).toBe(true);
    expect(told.every((muted) => !muted)).toBe(true);

    // Sound (−40 dB): the ten last readings average above −90 dB from the fourth loud one on.
    level = -40;
    vi.advanceTimersByTime(30);
    expect(told.at(-1)).toBe(false);
    vi.advanceTimersByTime(10);
    expect(told.at(-1)).toBe(true);
    // The line itself: an average of −90 dB is quiet, of −89.9 dB sound.
    level = SILENCE_DB;
    vi.advanceTimersByTime(100);
    expect(told.at(-1)).toBe(false);
    level = -90;
    vi.advanceTimersByTime(100);
    expect(told.at(-1)).toBe(false);
    level = -89.9;
    vi.advanceTimersByTime(100);
    expect(told.at(-1)).toBe(true);

    stop();
    const count = reads.length;
    vi.advanceTimersByTime(100);
    expect(reads).toHaveLength(count);
  });
});
