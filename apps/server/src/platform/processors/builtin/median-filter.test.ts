import { describe, expect, it } from 'vitest';
import { medianOverFrequency, medianOverTime } from './median-filter';

function naiveMedian(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function randomSpectrogram(frames: number, bins: number): Float32Array {
  let state = 12345;
  return Float32Array.from({ length: frames * bins }, () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    // Many ties, as silent regions of a spectrogram have.
    return Math.floor((state / 2 ** 32) * 8) / 4;
  });
}

describe('median filters over a spectrogram', () => {
  const frames = 23;
  const bins = 17;
  const values = randomSpectrogram(frames, bins);
  const at = (t: number, k: number) => values[t * bins + k]!;

  it('over time: the median of each bin over the neighbouring frames, cut at the edges', () => {
    const out = new Float32Array(frames * bins);
    medianOverTime(values, { frames, bins }, 3, out);
    for (let t = 0; t < frames; t++) {
      for (let k = 0; k < bins; k++) {
        const window: number[] = [];
        for (let u = Math.max(0, t - 3); u <= Math.min(frames - 1, t + 3); u++) window.push(at(u, k));
        expect(out[t * bins + k]).toBeCloseTo(naiveMedian(window), 6);
      }
    }
  });

  it('over frequency: the median of each frame over the neighbouring bins', () => {
    const out = new Float32Array(frames * bins);
    medianOverFrequency(values, { frames, bins }, 4, out);
    for (let t = 0; t < frames; t++) {
      for (let k = 0; k < bins; k++) {
        const window: number[] = [];
        for (let j = Math.max(0, k - 4); j <= Math.min(bins - 1, k + 4); j++) window.push(at(t, j));
        expect(out[t * bins + k]).toBeCloseTo(naiveMedian(window), 6);
      }
    }
  });

  it('fills only the frames asked for, with the same values as over the whole', () => {
    const whole = new Float32Array(frames * bins);
    const part = new Float32Array(frames * bins).fill(-1);
    medianOverTime(values, { frames, bins }, 2, whole);
    medianOverTime(values, { frames, bins }, 2, part, 5, 9);
    for (let t = 0; t < frames; t++) {
      for (let k = 0; k < bins; k++) {
        expect(part[t * bins + k]).toBe(t >= 5 && t < 9 ? whole[t * bins + k] : -1);
      }
    }
  });

  it('keeps a sustained line through the time median and drops a hit, and the reverse', () => {
    // A tone in bin 5 of every frame and a hit in every bin of frame 10.
    const shape = { frames: 21, bins: 16 };
    const spectrogram = new Float32Array(21 * 16);
    for (let t = 0; t < 21; t++) spectrogram[t * 16 + 5] = 1;
    for (let k = 0; k < 16; k++) spectrogram[10 * 16 + k] = 1;
    const harmonic = new Float32Array(spectrogram.length);
    const percussive = new Float32Array(spectrogram.length);
    medianOverTime(spectrogram, shape, 3, harmonic);
    medianOverFrequency(spectrogram, shape, 3, percussive);
    expect(harmonic[3 * 16 + 5]).toBe(1);
    expect(harmonic[10 * 16 + 2]).toBe(0);
    expect(percussive[10 * 16 + 2]).toBe(1);
    expect(percussive[3 * 16 + 5]).toBe(0);
  });
});
