import { describe, expect, it } from 'vitest';
import { parseOffset } from './marker-offset';

const ms = (input: string, rate: number | null = 48_000) => parseOffset(input, rate).ms;

describe('session start offset', () => {
  it('reads times as h:mm:ss.ms, m:ss.ms or seconds, to the millisecond', () => {
    expect(ms('')).toBe(0);
    expect(ms('0:00:02.000')).toBe(2000);
    expect(ms('1:02:03.5')).toBe(3_723_500);
    expect(ms('2:03.25')).toBe(123_250);
    expect(ms('2')).toBe(2000);
    expect(ms(' 0.001 ')).toBe(1);
  });

  it('reads sample counts at the version’s sample rate', () => {
    expect(ms('96000 samples', 48_000)).toBe(2000);
    expect(ms('44100 smp', 44_100)).toBe(1000);
    expect(ms('1 sample', 96_000)).toBe(0);
    expect(parseOffset('96000 samples', null).error).toMatch(/sample rate/);
  });

  it('refuses what is not a time, out-of-range fields and more than a day', () => {
    expect(parseOffset('abc', 48_000).error).toMatch(/h:mm:ss/);
    expect(parseOffset('-2', 48_000).error).toMatch(/h:mm:ss/);
    expect(parseOffset('1:75', 48_000).error).toMatch(/Seconds/);
    expect(parseOffset('1:60:00', 48_000).error).toMatch(/Minutes/);
    expect(parseOffset('25:00:00', 48_000).error).toMatch(/24 hours/);
    expect(parseOffset('0.0001', 48_000).error).toMatch(/h:mm:ss/);
  });
});
