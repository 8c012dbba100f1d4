/**
 * True peak by 4× oversampling: the three points between every two samples are interpolated with a
 * windowed-sinc polyphase FIR (the fourth phase is the sample itself), and the largest |value| of
 * signal and interpolation is the peak.
 *
 * Only the intervals next to a sample whose |value| comes within `MARGIN_DB` of the loudest sample
 * seen so far are interpolated: in band-limited audio a point between two samples exceeds the larger
 * of them by ~3 dB at most (a quarter-rate sine sampled at 45°), so an interval whose ends both sit
 * more than 6 dB below the loudest sample cannot hold the file's true peak. The loudest sample only
 * grows as the file streams, so a sample skipped early would be skipped at the end too. For a
 * mastered file this interpolates around a small share of the samples instead of all of them.
 */
const PHASES = 4;
/** Taps per phase: 32 keeps the interpolation within 0.01 dB of an ideal one below 0.9 × Nyquist. */
export const TRUE_PEAK_TAPS = 32;
const HALF = TRUE_PEAK_TAPS / 2;
const MARGIN = 10 ** (-6 / 20);
const KAISER_BETA = 8;

/** Zeroth-order modified Bessel function of the first kind, by its series (converges fast for β ≤ 10). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

/**
 * Kernels for the points 1/4, 2/4 and 3/4 of the way from sample n to n + 1, each over the samples
 * n − 15 … n + 16, end to end; every kernel sums to 1 so a constant stays what it is.
 */
function phaseKernels(): Float64Array {
  const taps = new Float64Array((PHASES - 1) * TRUE_PEAK_TAPS);
  for (let p = 1; p < PHASES; p++) {
    const kernel = taps.subarray((p - 1) * TRUE_PEAK_TAPS, p * TRUE_PEAK_TAPS);
    let sum = 0;
    for (let i = 0; i < TRUE_PEAK_TAPS; i++) {
      // Tap i weighs sample n − HALF + 1 + i, at distance t from the interpolated point.
      const t = p / PHASES - (i - HALF + 1);
      const ratio = t / HALF;
      const window = besselI0(KAISER_BETA * Math.sqrt(Math.max(0, 1 - ratio * ratio))) / besselI0(KAISER_BETA);
      kernel[i] = (Math.sin(Math.PI * t) / (Math.PI * t)) * window;
      sum += kernel[i]!;
    }
    for (let i = 0; i < TRUE_PEAK_TAPS; i++) kernel[i]! /= sum;
  }
  return taps;
}

/** The three phases' kernels end to end, for the interpolation (see `IntervalPeaks`). */
export const PHASE_KERNEL_TAPS = phaseKernels();

/**
 * What the true-peak meter reads and where it interpolates: the meter's kernel holds the buffers and
 * interpolates in WebAssembly SIMD (meter-kernel-code.ts), over the three kernels above.
 */
export interface TruePeakBuffers {
  /** Per channel: the window described at `TruePeakMeter`. */
  readonly windows: Float64Array[];
  /** Per channel: window positions of the samples at or above the threshold (room for a segment and `TRUE_PEAK_TAPS` more). */
  readonly candidates: Int32Array[];
  /** Per channel: how many `candidates` are held. */
  readonly counts: Int32Array;
  /** Room for one channel's interval starts (window positions) in one segment. */
  readonly intervals: Int32Array;
  /** The largest of `peak` and |every point interpolated| in the first `count` of `intervals` of a channel. */
  peakOf(channel: number, count: number, peak: number): number;
}

/**
 * Follows the true peak of a multichannel stream fed segment by segment. Each channel's window
 * (owned by the caller) holds the previous segment's last `TRUE_PEAK_TAPS` samples, then the current
 * segment, then room for `TRUE_PEAK_TAPS` more; interpolation reaches across segment boundaries.
 * The caller's pass over the segment notes the positions of samples at or above `threshold` in
 * `candidates[c]` from `counts[c]` on; an interval needing samples of the next segment waits for it.
 */
export class TruePeakMeter {
  private loudestSample = 0;
  private peak = 0;
  private readonly windows: Float64Array[];
  private readonly candidates: Int32Array[];
  private readonly counts: Int32Array;
  /** Per channel: where the last interval interpolated starts, in the current window's positions. */
  private readonly lastInterval: number[];
  /** Samples interpolated around, for the benchmark's account of what the gate saved. */
  interpolatedSamples = 0;

  /** The caller's pass fills the buffers' windows, candidates and counts. */
  constructor(private readonly peaks: TruePeakBuffers) {
    this.windows = peaks.windows;
    this.candidates = peaks.candidates;
    this.counts = peaks.counts;
    this.lastInterval = this.windows.map(() => -Infinity);
  }

  /** What a sample must reach to be noted while the next segment is read. */
  get threshold(): number {
    return this.loudestSample * MARGIN;
  }

  /** The segment is at [TRUE_PEAK_TAPS, TRUE_PEAK_TAPS + frames) of every window; `loudest` is its max |x|. */
  segment(frames: number, loudest: number, last: boolean): void {
    if (loudest > this.loudestSample) this.loudestSample = loudest;
    if (loudest > this.peak) this.peak = loudest;
    // Against the loudest sample including this segment's: earlier notes may no longer qualify.
    const threshold = this.loudestSample * MARGIN;
    // An interval at position n reads up to n + HALF: at the end, the window's zeros stand for silence.
    const ready = last ? TRUE_PEAK_TAPS + frames : TRUE_PEAK_TAPS + frames - HALF;
    for (let c = 0; c < this.windows.length; c++) {
      const window = this.windows[c]!;
      if (last) window.fill(0, TRUE_PEAK_TAPS + frames, TRUE_PEAK_TAPS + frames + HALF);
      const candidates = this.candidates[c]!;
      // Neighbouring candidates share the interval between them: each is interpolated once.
      const intervals = this.peaks.intervals;
      let picked = 0;
      let done = this.lastInterval[c]!;
      let waiting = 0;
      for (let i = 0; i < this.counts[c]!; i++) {
        const n = candidates[i]!;
        if (n >= ready) candidates[waiting++] = n - frames;
        else if (threshold > 0 && Math.abs(window[n]!) >= threshold) {
          this.interpolatedSamples++;
          if (n - 1 > done) intervals[picked++] = n - 1;
          intervals[picked++] = n;
          done = n;
        }
      }
      if (picked > 0) this.peak = this.peaks.peakOf(c, picked, this.peak);
      this.counts[c] = waiting;
      this.lastInterval[c] = done - frames;
      // The next segment's history: this window's last TRUE_PEAK_TAPS samples.
      window.copyWithin(0, frames, frames + TRUE_PEAK_TAPS);
    }
  }

  /** The true peak, linear (1 = full scale); 0 for digital silence. */
  result(): number {
    return this.peak;
  }
}
