import { describe, expect, it } from 'vitest';
import { roundTime, toHundredths } from './comments';

describe('review times', () => {
  it('are kept to the hundredth, rounded half up', () => {
    expect(roundTime(4.984)).toBe(4.98);
    expect(roundTime(4.986)).toBe(4.99);
    expect(roundTime(4.995)).toBe(5);
    expect(roundTime(1799.999)).toBe(1800);
    expect(toHundredths(4.29)).toBe(429);
  });

  it('do not move when rounded again, so a stored time reads back unchanged', () => {
    for (let i = 0; i < 5000; i++) {
      const stored = roundTime(Math.random() * 4000);
      expect(roundTime(stored)).toBe(stored);
      expect(toHundredths(stored) / 100).toBe(stored);
    }
  });
});
