import { describe, expect, it } from 'vitest';
import type { PeaksFile } from './api';
import { barHeights, chooseLevel, PeakLevels } from './peak-levels';

const base64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes));

/** An hour-like file in miniature: 10 s at 100, 20 and 4 bins a second, as the server stores it. */
function file(): PeaksFile {
  const finest = Array.from({ length: 1000 }, (_, i) => (i === 555 ? 200 : i % 100));
  const fold = (bins: number[], factor: number) =>
    Array.from({ length: Math.ceil(bins.length / factor) }, (_, i) =>
      Math.max(...bins.slice(i * factor, (i + 1) * factor)),
    );
  const mid = fold(finest, 5);
  return {
    version: 1,
    sampleRate: 48_000,
    durationSeconds: 10,
    levels: [
      { samplesPerPeak: 480, data: base64(finest) },
      { samplesPerPeak: 2400, data: base64(mid) },
      { samplesPerPeak: 12_000, data: base64(fold(mid, 5)) },
    ],
  };
}

describe('peak levels', () => {
  it('picks the coarsest level with a bin per bar, and the finest when a zoom needs more', () => {
    const peaks = file();
    expect(chooseLevel(peaks, 0.3).samplesPerPeak).toBe(12_000);
    expect(chooseLevel(peaks, 10).samplesPerPeak).toBe(2400);
    // Zoom 50 is 250 px a second, 83 bars of 3 px: the 100-a-second level.
    expect(chooseLevel(peaks, 250 / 3).samplesPerPeak).toBe(480);
    expect(chooseLevel(peaks, 500).samplesPerPeak).toBe(480);
  });

  it('decodes a level only when a zoom first needs it, as bytes', () => {
    const levels = new PeakLevels(file());
    expect(levels.loudest).toBe(200);
    const finest = levels.forDensity(100);
    expect(finest.perSecond).toBe(100);
    expect(finest.bins).toBeInstanceOf(Uint8Array);
    expect(finest.bins.length).toBe(1000);
    expect(levels.forDensity(100)).toBe(finest);
    expect(levels.forDensity(1).perSecond).toBe(4);
  });

  it('gives each bar the loudest bin it covers, and at least one bin', () => {
    const level = new PeakLevels(file()).forDensity(100);
    // 5.5 s to 5.6 s holds bin 555, the loudest.
    expect(Array.from(barHeights(level, 200, 5.5, 0.1, 1))).toEqual([1]);
    // Bars narrower than a bin repeat it instead of dropping to zero.
    expect(Array.from(barHeights(level, 200, 0.5, 0.002, 3))).toEqual([0.25, 0.25, 0.25]);
    // Past the end the bars stay empty.
    const end = Array.from(barHeights(level, 200, 9.99, 0.01, 3));
    expect(end[0]).toBeCloseTo(99 / 200);
    expect(end.slice(1)).toEqual([0, 0]);
  });
});
