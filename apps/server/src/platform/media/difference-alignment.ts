import { ANALYSIS } from './difference-lane';
import { fft } from './fft';

// How B lines up with A before the two are compared: the offset by a whitened cross-correlation,
// then a fraction of a sample, with the checks that keep periodic or unrelated material "as they start".

/** Averages every `factor` samples: a crude low-pass, enough to find a lag to within `factor`. */
function decimate(signal: Float32Array, factor: number): Float64Array {
  const out = new Float64Array(Math.floor(signal.length / factor));
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (let k = 0; k < factor; k++) sum += signal[i * factor + k]!;
    out[i] = sum / factor;
  }
  return out;
}

/** Σ a[n]·b[n+lag] over the overlap, normalized by both sides' energy there (−1…1). */
function normalizedAt(a: Float32Array, b: Float32Array, lag: number): number {
  let dot = 0;
  let ea = 0;
  let eb = 0;
  for (let n = Math.max(0, -lag); n < a.length && n + lag < b.length; n++) {
    const x = a[n]!;
    const y = b[n + lag]!;
    dot += x * y;
    ea += x * x;
    eb += y * y;
  }
  return ea > 0 && eb > 0 ? dot / Math.sqrt(ea * eb) : 0;
}

export interface Alignment {
  /** Whole frames at the analysis rate: b[n + lag] ≈ a[n] (positive when B starts later). */
  lag: number;
  fraction: number;
  /** Normalized correlation of A and B at the lag (−1…1). */
  correlation: number;
  /** The best whitened correlation peak over the best other one (Infinity when there is no other). */
  margin: number;
  /** Whether the lag can be told as B's offset: a clear peak of the same recording. */
  sure: boolean;
}

/** Compared as they start: what is used when no offset can be found for sure. */
const AS_THEY_START = { lag: 0, fraction: 0, sure: false } as const;

/**
 * The lag (in frames) at which `b` lines up with `a`, within ±maxLag, and whether it is sure: a
 * whitened cross-correlation (each frequency weighted alike, so a loud bass note's period does not
 * outvote everything else) by FFT at a quarter of the rate, refined sample by sample around its
 * peak, then to a fraction of a sample. When the peak does not stand clearly above every other
 * (periodic material), or the two are not the same recording, the answer is lag 0, not sure.
 */
export function findOffset(a: Float32Array, b: Float32Array, maxLag: number): Alignment {
  const factor = ANALYSIS.coarseFactor;
  const ca = decimate(a, factor);
  const cb = decimate(b, factor);
  let size = 1;
  while (size < ca.length + cb.length) size <<= 1;
  // Both real signals in one complex FFT (A as the real part, B as the imaginary), both real
  // correlations out of one inverse (the plain one as the real part, the whitened one as the imaginary).
  const zr = new Float64Array(size);
  const zi = new Float64Array(size);
  zr.set(ca);
  zi.set(cb);
  fft(zr, zi);
  // conj(A)·B: its inverse is Σ a[n]·b[n+k], lag k at index k (negative lags wrap to the end).
  const gr = new Float64Array(size);
  const gi = new Float64Array(size);
  const magnitudes = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    const j = (size - i) % size;
    // A = (Z[i] + conj Z[−i]) / 2, B = (Z[i] − conj Z[−i]) / 2i.
    const ar = (zr[i]! + zr[j]!) / 2;
    const ai = (zi[i]! - zi[j]!) / 2;
    const br = (zi[i]! + zi[j]!) / 2;
    const bi = (zr[j]! - zr[i]!) / 2;
    gr[i] = ar * br + ai * bi;
    gi[i] = ar * bi - ai * br;
    magnitudes[i] = Math.sqrt(gr[i]! * gr[i]! + gi[i]! * gi[i]!);
  }
  // Whitened (the phase transform): every bin counts alike, floored at a tenth of the median bin
  // (not the mean, which a few loud tones own) so bins with next to nothing in them add no noise.
  const floor = 0.1 * magnitudes.slice().sort()[size >> 1]!;
  if (floor === 0) return { ...AS_THEY_START, correlation: 0, margin: 0 };
  // G + i·wG, w the whitening weight: the plain correlation comes back as the real part (kept to
  // find the lags periodic material would also fit), the whitened one as the imaginary part.
  for (let i = 0; i < size; i++) {
    const weight = 1 / (magnitudes[i]! + floor);
    const re = gr[i]!;
    const im = gi[i]!;
    zr[i] = re - weight * im;
    zi[i] = im + weight * re;
  }
  fft(zr, zi, true);
  const coarseMax = Math.floor(maxLag / factor);
  const whitened = (k: number) => zi[k >= 0 ? k : size + k]!;
  const plain = (k: number) => zr[k >= 0 ? k : size + k]!;
  let best = 0;
  for (let k = -coarseMax; k <= coarseMax; k++) if (whitened(k) > whitened(best)) best = k;
  if (whitened(best) <= 0) return { ...AS_THEY_START, correlation: 0, margin: 0 };
  const exclusion = Math.ceil((ANALYSIS.peakExclusionSeconds * ANALYSIS.sampleRate) / factor);
  let other = 0;
  for (let k = -coarseMax; k <= coarseMax; k++)
    if (Math.abs(k - best) > exclusion) other = Math.max(other, whitened(k));
  const margin = other > 0 ? whitened(best) / other : Infinity;

  const { lag, correlation } = refineLag(a, b, best * factor, maxLag);
  // Unrelated audio (a reference track of another song) lines up nowhere: it is compared as it starts.
  if (correlation < ANALYSIS.minCorrelation || margin < ANALYSIS.minPeakMargin)
    return { ...AS_THEY_START, correlation, margin };
  const fraction = refineFraction(a, b, lag);
  // Weighed on a stretch of the opening: enough quarter seconds for a median, a bounded cost.
  const opening = a.subarray(0, ANALYSIS.weighSeconds * ANALYSIS.sampleRate);
  const residual = medianResidual(opening, b, lag, fraction);
  for (const k of topPeaks(plain, coarseMax, best, exclusion, ANALYSIS.otherCandidates)) {
    const other = refineLag(opening, b, k * factor, maxLag).lag;
    const otherFraction = refineFraction(opening, b, other, ANALYSIS.alternativeFractionSeconds);
    const alternative = medianResidual(opening, b, other, otherFraction);
    if (residual > ANALYSIS.maxResidualRatio * alternative) return { ...AS_THEY_START, correlation, margin };
  }
  return { lag, fraction, correlation, margin, sure: true };
}

/**
 * What of A the best-scaled B read at `lag + fraction` leaves unexplained (1 − ρ²), per quarter
 * second of the opening, the median of them: neither a level change everywhere nor a change in a
 * few places (what the lane is for) counts against a lag.
 */
function medianResidual(a: Float32Array, b: Float32Array, lag: number, fraction: number): number {
  const half = ANALYSIS.halfTaps;
  const taps = fractionalTaps(fraction);
  const window = ANALYSIS.sampleRate / 4;
  const from = Math.max(half, half - lag);
  const to = Math.min(a.length, b.length - lag - half);
  const ratios: number[] = [];
  for (let start = from; start + window <= to; start += window) {
    let ea = 0;
    let eb = 0;
    let dot = 0;
    for (let n = start; n < start + window; n++) {
      let y = 0;
      const base = n + lag - half + 1;
      for (let j = 0; j < taps.length; j++) y += taps[j]! * b[base + j]!;
      const x = a[n]!;
      ea += x * x;
      eb += y * y;
      dot += x * y;
    }
    if (ea > 0 && eb > 0) ratios.push(Math.max(0, 1 - (dot * dot) / (ea * eb)));
  }
  if (ratios.length === 0) return 1;
  ratios.sort((x, y) => x - y);
  return ratios[ratios.length >> 1]!;
}

/** The lag within ±refineFrames of `around` where the normalized correlation is highest. */
function refineLag(a: Float32Array, b: Float32Array, around: number, maxLag: number) {
  let lag = around;
  let correlation = -Infinity;
  for (let k = around - ANALYSIS.refineFrames; k <= around + ANALYSIS.refineFrames; k++) {
    if (Math.abs(k) > maxLag) continue;
    const score = normalizedAt(a, b, k);
    if (score > correlation) [lag, correlation] = [k, score];
  }
  return { lag, correlation: Number.isFinite(correlation) ? correlation : 0 };
}

/** The `count` highest local maxima of `value` over ±max, none within `exclusion` of `skip` or of each other. */
function topPeaks(value: (k: number) => number, max: number, skip: number, exclusion: number, count: number) {
  const peaks: number[] = [];
  for (let k = -max + 1; k < max; k++)
    if (value(k) > 0 && value(k) >= value(k - 1) && value(k) > value(k + 1) && Math.abs(k - skip) > exclusion)
      peaks.push(k);
  peaks.sort((x, y) => value(y) - value(x));
  const chosen: number[] = [];
  for (const k of peaks) {
    if (chosen.length === count) break;
    if (chosen.every((c) => Math.abs(c - k) > exclusion)) chosen.push(k);
  }
  return chosen;
}

/**
 * Taps that read a signal `fraction` of a sample after each position: x(n + f) ≈ Σ taps[j]·x[n + j − H + 1]
 * (a Hann-windowed sinc, H = halfTaps).
 */
export function fractionalTaps(fraction: number): Float32Array {
  const half = ANALYSIS.halfTaps;
  const taps = new Float32Array(2 * half);
  let sum = 0;
  for (let j = 0; j < taps.length; j++) {
    const t = j - half + 1 - fraction;
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    const window = 0.5 + 0.5 * Math.cos((Math.PI * t) / (half + 1));
    taps[j] = sinc * window;
    sum += taps[j]!;
  }
  for (let j = 0; j < taps.length; j++) taps[j]! /= sum;
  return taps;
}

/**
 * The fraction of a sample (−0.75…0.75) B is further off after the whole-sample lag: where the
 * residual a − b(n + lag + f) over the opening is least (a ternary search; the residual grows
 * steadily away from the true offset). Bounces shifted by a few samples at 44.1 or 48 kHz land
 * between samples at the analysis rate, and an uncorrected fraction reads as a difference.
 */
function refineFraction(a: Float32Array, b: Float32Array, lag: number, seconds: number = ANALYSIS.fractionSeconds) {
  const half = ANALYSIS.halfTaps;
  const from = Math.max(half, half - lag);
  const to = Math.min(a.length, b.length - lag - half, from + seconds * ANALYSIS.sampleRate);
  if (to - from < ANALYSIS.sampleRate / 10) return 0;
  const residual = (fraction: number) => {
    const taps = fractionalTaps(fraction);
    let sum = 0;
    for (let n = from; n < to; n++) {
      let y = 0;
      const base = n + lag - half + 1;
      for (let j = 0; j < taps.length; j++) y += taps[j]! * b[base + j]!;
      const d = a[n]! - y;
      sum += d * d;
    }
    return sum;
  };
  let low = -0.75;
  let high = 0.75;
  while (high - low > 0.005) {
    const m1 = low + (high - low) / 3;
    const m2 = high - (high - low) / 3;
    if (residual(m1) < residual(m2)) high = m2;
    else low = m1;
  }
  return Math.round(((low + high) / 2) * 1000) / 1000;
}
