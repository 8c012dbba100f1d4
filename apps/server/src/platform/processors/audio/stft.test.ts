import { describe, expect, it } from 'vitest';
import { Stft, type StftWindow, hannWindow } from './stft';

function noise(length: number, seed: number): Float32Array {
  let state = seed;
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    out[i] = state / 2 ** 31 - 1;
  }
  return out;
}

function roundTrip(stft: Stft, signal: Float32Array): Float32Array {
  const re = new Float32Array(stft.bins);
  const im = new Float32Array(stft.bins);
  const output = new Float32Array(signal.length);
  for (let i = 0; i < stft.frameCount(signal.length); i++) {
    stft.analyze(signal, stft.frameStart(i), re, im);
    stft.synthesize(re, im, output, stft.frameStart(i));
  }
  return output;
}

const maxError = (a: Float32Array, b: Float32Array) =>
  a.reduce((worst, value, i) => Math.max(worst, Math.abs(value - b[i]!)), 0);

describe('Stft', () => {
  it.each<[StftWindow, number, number]>([
    ['hann', 1024, 256],
    ['sqrt-hann', 1024, 256],
    ['sqrt-hann', 2048, 1024],
    ['hann', 64, 16],
  ])('reconstructs its input exactly (%s, size %i, hop %i), edges included', (window, size, hop) => {
    const signal = noise(10_007, size + hop);
    const stft = new Stft({ size, hop, window });
    expect(maxError(roundTrip(stft, signal), signal)).toBeLessThan(1e-5);
  });

  it('covers every sample with size / hop frames on one grid', () => {
    const stft = new Stft({ size: 1024, hop: 256 });
    expect(stft.frameStart(0)).toBe(-768);
    expect(stft.frameStart(3)).toBe(0);
    expect(stft.firstFrameStartingFrom(0)).toBe(3);
    expect(stft.firstFrameStartingFrom(1)).toBe(4);
    // The last frame starts at or before the last sample, the next one after it.
    const length = 5000;
    const count = stft.frameCount(length);
    expect(stft.frameStart(count - 1)).toBeLessThanOrEqual(length - 1);
    expect(stft.frameStart(count)).toBeGreaterThan(length - 1);
    expect(stft.frameCount(0)).toBe(0);
  });

  it('gives the same result frame by frame from chunks of the signal as from the whole', () => {
    const stft = new Stft({ size: 512, hop: 128, window: 'sqrt-hann' });
    const signal = noise(4000, 3);
    const whole = { re: new Float32Array(stft.bins), im: new Float32Array(stft.bins) };
    const part = { re: new Float32Array(stft.bins), im: new Float32Array(stft.bins) };
    // A chunk of the file from sample 1000 to 2600, as a chunked reader would hold it.
    const chunk = signal.slice(1000, 2600);
    const index = stft.firstFrameStartingFrom(1000);
    stft.analyze(signal, stft.frameStart(index), whole.re, whole.im);
    stft.analyze(chunk, stft.frameStart(index) - 1000, part.re, part.im);
    expect(maxError(part.re, whole.re)).toBe(0);
    expect(maxError(part.im, whole.im)).toBe(0);
  });

  it('analyses with a periodic Hann window', () => {
    const window = hannWindow(8);
    expect(window[0]).toBe(0);
    expect(window[4]).toBeCloseTo(1, 12);
    expect(window[2]).toBeCloseTo(0.5, 12);
  });

  it('refuses a hop that does not divide the size', () => {
    expect(() => new Stft({ size: 1024, hop: 300 })).toThrow(RangeError);
  });
});
