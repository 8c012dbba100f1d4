import { describe, expect, it } from 'vitest';
import { RealFft } from './fft';

/** A seeded generator so a failure can be replayed. */
function noise(length: number, seed: number): Float64Array {
  let state = seed;
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    out[i] = state / 2 ** 31 - 1;
  }
  return out;
}

function naiveDft(input: Float64Array): { re: Float64Array; im: Float64Array } {
  const n = input.length;
  const re = new Float64Array(n / 2 + 1);
  const im = new Float64Array(n / 2 + 1);
  for (let k = 0; k <= n / 2; k++) {
    for (let t = 0; t < n; t++) {
      re[k]! += input[t]! * Math.cos((-2 * Math.PI * k * t) / n);
      im[k]! += input[t]! * Math.sin((-2 * Math.PI * k * t) / n);
    }
  }
  return { re, im };
}

describe('RealFft', () => {
  it.each([4, 8, 64, 1024])('matches the definition of the DFT for size %i', (size) => {
    const input = noise(size, size);
    const fft = new RealFft(size);
    const re = new Float64Array(fft.bins);
    const im = new Float64Array(fft.bins);
    fft.forward(input, re, im);
    const expected = naiveDft(input);
    for (let k = 0; k < fft.bins; k++) {
      expect(re[k]).toBeCloseTo(expected.re[k]!, 8);
      expect(im[k]).toBeCloseTo(expected.im[k]!, 8);
    }
  });

  it.each([4, 16, 4096])('inverse(forward(x)) gives x back for size %i', (size) => {
    const input = noise(size, 7);
    const fft = new RealFft(size);
    const re = new Float64Array(fft.bins);
    const im = new Float64Array(fft.bins);
    const output = new Float64Array(size);
    fft.forward(input, re, im);
    fft.inverse(re, im, output);
    let worst = 0;
    for (let i = 0; i < size; i++) worst = Math.max(worst, Math.abs(output[i]! - input[i]!));
    expect(worst).toBeLessThan(1e-12);
  });

  it('puts a cosine at its bin, with the expected amplitude', () => {
    const size = 256;
    const input = Float64Array.from({ length: size }, (_, n) => Math.cos((2 * Math.PI * 10 * n) / size));
    const fft = new RealFft(size);
    const re = new Float32Array(fft.bins);
    const im = new Float32Array(fft.bins);
    fft.forward(input, re, im);
    expect(re[10]).toBeCloseTo(size / 2, 3);
    expect(Math.abs(re[11]!) + Math.abs(im[11]!)).toBeLessThan(1e-3);
  });

  it('refuses a size that is not a power of two', () => {
    expect(() => new RealFft(100)).toThrow(RangeError);
    expect(() => new RealFft(2)).toThrow(RangeError);
  });
});
