import { describe, expect, it } from 'vitest';
import { roundTime } from '@mixroom/shared';
import { formatPrecise } from './time-format';

describe('review times', () => {
  it('show to the hundredth, rounded half up, with minutes and hours carried', () => {
    expect(formatPrecise(4.98)).toBe('0:04.98');
    expect(formatPrecise(4.984)).toBe('0:04.98');
    expect(formatPrecise(4.986)).toBe('0:04.99');
    // 4.29 × 100 is 428.99999… in floating point: still 0:04.29.
    expect(formatPrecise(4.29)).toBe('0:04.29');
    expect(formatPrecise(59.996)).toBe('1:00.00');
    expect(formatPrecise(3599.999)).toBe('1:00:00.00');
    expect(formatPrecise(-1)).toBe('0:00.00');
  });

  it('read the same on the playhead and on the comment stored from it', () => {
    for (let i = 0; i < 5000; i++) {
      const playhead = Math.random() * 4000;
      expect(formatPrecise(roundTime(playhead))).toBe(formatPrecise(playhead));
    }
    // The reported case: a playhead showing 0:04.98 is stamped 0:04.98.
    for (const playhead of [4.9751, 4.977, 4.98, 4.983, 4.9849])
      expect(formatPrecise(roundTime(playhead))).toBe('0:04.98');
  });
});
