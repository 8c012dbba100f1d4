import { DIFFERENCE_LANE } from '@mixroom/shared';

/** How two versions are compared: stereo at a low rate, in short windows. */
export const ANALYSIS = {
  sampleRate: 16_000,
  channels: 2,
  windowSeconds: 0.05,
  /**
   * Both sides are low-passed here, the same way: between-sample alignment is exact below it, and
   * the top of the analysis band (where the resampler rolls off) would read as a difference.
   */
  bandHz: 6000,
  /** The opening stretch whose correlation finds the offset, and the largest offset looked for. */
  alignSeconds: 20,
  maxOffsetSeconds: 5,
  /** The coarse search runs at a quarter of the rate; the fine one looks this many frames around it. */
  coarseFactor: 4,
  refineFrames: 8,
  /** Below this normalized correlation at the best lag, the two are not the same recording. */
  minCorrelation: 0.3,
  /**
   * How far above every other peak (outside `peakExclusionSeconds` around it) the best one must
   * stand for its lag to be believed. Periodic material (a held bass note, a looped bar) has peaks
   * a period apart of nearly the same height: picking one of them was the "24.2 ms" claim on two
   * bounces that started together (one period of a 41 Hz low E).
   */
  minPeakMargin: 3,
  peakExclusionSeconds: 0.002,
  /**
   * The plain correlation's other peaks (a period away on periodic material) are tried at full
   * rate too: A − B must leave at most this fraction of what it leaves at the best of them. Two
   * renderings of a held note match as well one period over: no offset is told then.
   */
  maxResidualRatio: 0.5,
  otherCandidates: 4,
  /** The stretch of the opening the lags are weighed on (a change in a few places stays a minority of it). */
  weighSeconds: 8,
  /** The stretch an alternative lag's fraction of a sample is searched on: it only has to be fair to it. */
  alternativeFractionSeconds: 1,
  /** An offset this small (a few samples at 44.1 or 48 kHz) is "starts in sync", not a shift to tell. */
  syncSeconds: 0.0001,
  /** Half the taps of the fractional-delay filter that lines B up between samples. */
  halfTaps: 16,
  /** The stretch of the opening on which the fraction of a sample is searched. */
  fractionSeconds: 4,
  /** Windows quieter than this below A's average are measured against that level, not their own. */
  quietDb: -40,
} as const;

/** The mono sum of interleaved stereo int16 frames, as floats. */
export function monoOf(frames: Int16Array): Float32Array {
  const mono = new Float32Array(frames.length / 2);
  for (let i = 0; i < mono.length; i++) mono[i] = (frames[2 * i]! + frames[2 * i + 1]!) / 65536;
  return mono;
}

/**
 * Energy of A and of A − B per window, fed block by block (interleaved stereo, B already aligned
 * to A and as long as the block). Holds two numbers a window: an hour is ~1 MB.
 */
export class DifferenceMeter {
  private readonly energyA: number[] = [];
  private readonly energyDiff: number[] = [];
  private sumA = 0;
  private sumDiff = 0;
  private filled = 0;

  constructor(private readonly windowFrames: number) {}

  push(a: Int16Array, b: ArrayLike<number>): void {
    for (let i = 0; i < a.length; i += 2) {
      const l = a[i]!;
      const r = a[i + 1]!;
      const dl = l - b[i]!;
      const dr = r - b[i + 1]!;
      this.sumA += l * l + r * r;
      this.sumDiff += dl * dl + dr * dr;
      if (++this.filled === this.windowFrames) this.close();
    }
  }

  private close(): void {
    this.energyA.push(this.sumA);
    this.energyDiff.push(this.sumDiff);
    this.sumA = 0;
    this.sumDiff = 0;
    this.filled = 0;
  }

  /**
   * The difference's level per window in dB relative to A's level there, between the lane's floor
   * and ceiling. Where A is quiet (far below its average: a fade, a pause) the difference is
   * measured against that quiet level instead, so noise and dither don't read as changes.
   */
  finish(): Float32Array {
    if (this.filled > this.windowFrames / 2) this.close();
    const count = this.energyA.length;
    const mean = this.energyA.reduce((sum, e) => sum + e, 0) / Math.max(1, count);
    const quiet = mean * 10 ** (ANALYSIS.quietDb / 10);
    const levels = new Float32Array(count);
    for (let w = 0; w < count; w++) {
      const reference = Math.max(this.energyA[w]!, quiet, 1e-9);
      const db = 10 * Math.log10(Math.max(this.energyDiff[w]!, 1e-12) / reference);
      levels[w] = Math.max(DIFFERENCE_LANE.floorDb, Math.min(DIFFERENCE_LANE.ceilingDb, db));
    }
    return levels;
  }
}

export interface ChangedRegion {
  start: number;
  end: number;
  peakDb: number;
}

/** Runs of windows above the threshold, joined across short gaps, kept when at least `minSeconds` long. */
export function changedRegions(
  levels: ArrayLike<number>,
  windowSeconds: number,
  thresholdDb: number,
  minSeconds: number,
): ChangedRegion[] {
  const joinWindows = Math.round(DIFFERENCE_LANE.joinGapSeconds / windowSeconds);
  const runs: { from: number; to: number; peak: number }[] = [];
  for (let w = 0; w < levels.length; w++) {
    const level = levels[w]!;
    if (level < thresholdDb) continue;
    const last = runs[runs.length - 1];
    if (last && w - last.to <= joinWindows) {
      last.to = w + 1;
      last.peak = Math.max(last.peak, level);
    } else runs.push({ from: w, to: w + 1, peak: level });
  }
  const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
  return runs
    .filter((run) => (run.to - run.from) * windowSeconds >= minSeconds)
    .map((run) => ({
      start: round(run.from * windowSeconds),
      end: round(run.to * windowSeconds),
      peakDb: Math.round(run.peak * 10) / 10,
    }));
}

/** The lane for drawing: at most `maxPoints`, each the loudest of the windows it covers. */
export function poolLevels(levels: ArrayLike<number>, windowSeconds: number, maxPoints: number) {
  const per = Math.max(1, Math.ceil(levels.length / maxPoints));
  const pooled: number[] = [];
  for (let from = 0; from < levels.length; from += per) {
    let peak = -Infinity;
    for (let w = from; w < Math.min(levels.length, from + per); w++) peak = Math.max(peak, levels[w]!);
    pooled.push(Math.round(peak * 10) / 10);
  }
  return { levels: pooled, windowSeconds: Math.round(windowSeconds * per * 1e6) / 1e6 };
}

/** Levels as stored: little-endian int16 hundredths of a dB. */
export function encodeLevels(levels: Float32Array): Buffer {
  const out = Buffer.alloc(levels.length * 2);
  for (let i = 0; i < levels.length; i++) out.writeInt16LE(Math.round(levels[i]! * 100), i * 2);
  return out;
}

export function decodeLevels(bytes: Buffer): Float32Array {
  const levels = new Float32Array(bytes.length / 2);
  for (let i = 0; i < levels.length; i++) levels[i] = bytes.readInt16LE(i * 2) / 100;
  return levels;
}
