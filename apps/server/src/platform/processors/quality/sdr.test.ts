import { describe, expect, it } from 'vitest';
import { signalToDistortion } from './sdr';

function noise(length: number, seed: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length }, () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 31 - 1;
  });
}

const scaled = (signal: Float32Array, gain: number) => signal.map((value) => value * gain);
const added = (a: Float32Array, b: Float32Array) => a.map((value, i) => value + b[i]!);
const rms = (signal: Float32Array) => Math.sqrt(signal.reduce((sum, value) => sum + value * value, 0) / signal.length);

describe('signalToDistortion', () => {
  const length = 44_100 * 3;
  const reference = [noise(length, 1), noise(length, 2)];

  it('reads the level of an added independent signal: 10 dB below gives 10 dB', () => {
    const interference = [noise(length, 3), noise(length, 4)];
    const gain = rms(reference[0]!) / rms(interference[0]!) / Math.sqrt(10);
    const estimate = reference.map((channel, c) => added(channel, scaled(interference[c]!, gain)));
    const result = signalToDistortion(reference, estimate, { filterLength: 32 });
    expect(result.global).toBeCloseTo(10, 0);
    expect(result.median).toBeCloseTo(10, 0);
    expect(result.frames).toBe(3);
  });

  it('forgives a gain and a short filter (classic SDR), but not with a one-tap filter (SI-SDR)', () => {
    // Half the level, delayed by 3 samples and smoothed: a filter of 5 taps.
    const filtered = reference.map((channel) =>
      channel.map((_, i) => 0.5 * ((channel[i - 3] ?? 0) + 0.5 * (channel[i - 4] ?? 0))),
    );
    expect(signalToDistortion(reference, filtered, { filterLength: 16 }).global).toBeGreaterThan(60);
    expect(signalToDistortion(reference, filtered, { filterLength: 1 }).global).toBeLessThan(1);
    const quieter = reference.map((channel) => scaled(channel, 0.25));
    expect(signalToDistortion(reference, quieter, { filterLength: 1 }).global).toBeGreaterThan(60);
  });

  it('gives the mixture as estimate of one of two equal sources about 0 dB', () => {
    const other = [noise(length, 5), noise(length, 6)];
    const mixture = reference.map((channel, c) => added(channel, other[c]!));
    expect(signalToDistortion(reference, mixture).global).toBeCloseTo(0, 0);
  });

  it('takes the median over frames, leaving out frames where the reference is silent', () => {
    // Frame 1 of 3 is silent in the reference; frame 2 is noisier than frame 0.
    const ref = reference.map((channel) => channel.map((value, i) => (i >= 44_100 && i < 88_200 ? 0 : value)));
    const estimate = ref.map((channel, c) => {
      const extra = noise(length, 7 + c);
      return channel.map((value, i) => value + (i < 44_100 ? 0.1 : 0.3) * extra[i]!);
    });
    const result = signalToDistortion(ref, estimate, { filterLength: 8 });
    expect(result.frames).toBe(2);
    // 0.1 → 20 dB, 0.3 → 10.5 dB: the median of two is their mean.
    expect(result.median).toBeCloseTo((20 + 10.46) / 2, 0);
  });

  it('refuses signals of different shapes', () => {
    expect(() => signalToDistortion(reference, [reference[0]!])).toThrow(RangeError);
  });
});
