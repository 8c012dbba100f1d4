/**
 * Signal-to-distortion ratio of a separated stem against the true one: the classic BSS Eval SDR,
 * not the scale-invariant one. The estimate is split into the part explained by the reference
 * passed through a short FIR filter (`filterLength` taps, 512 by default as in BSS Eval v4 and
 * SiSEC 2018) and the rest; SDR = 10·log10(‖explained‖² / ‖rest‖²). The filter forgives what a
 * listener would not call a separation error (gain, a little EQ or phase) and nothing else; with
 * `filterLength: 1` only a gain is allowed, which is the scale-invariant SDR (SI-SDR).
 *
 * Like BSS Eval v4 the filter is fit once on the whole signal (least squares over the reference's
 * delayed copies, via correlations computed by FFT) and the ratio is computed per frame of
 * `frameSeconds` (1 s), reporting the median over frames where neither signal is silent; the ratio
 * over the whole signal is given too. Unlike v4, each channel is explained by the same channel of
 * the reference only (no cross-channel filters), and channels are pooled per frame.
 */
import { RealFft } from '../audio/fft';

export interface SdrOptions {
  /** Taps of the allowed distortion filter (default 512). */
  filterLength?: number;
  /** Samples per frame of the framewise figure (default 44 100). */
  frameLength?: number;
}

export interface SdrResult {
  /** Median over frames of the framewise SDR, dB. */
  median: number;
  /** SDR over the whole signal, dB. */
  global: number;
  /** Frames that counted (both signals non-silent). */
  frames: number;
}

const ffts = new Map<number, RealFft>();
function fftOf(size: number): RealFft {
  let fft = ffts.get(size);
  if (!fft) {
    fft = new RealFft(size);
    // One big transform is reused across calls; keep only the latest size.
    ffts.clear();
    ffts.set(size, fft);
  }
  return fft;
}

/** Solves G·x = b for a symmetric positive definite G (row-major n×n) by Cholesky, in place. */
function solveSymmetric(g: Float64Array, b: Float64Array, n: number): Float64Array {
  for (let j = 0; j < n; j++) {
    let diagonal = g[j * n + j]!;
    for (let k = 0; k < j; k++) diagonal -= g[j * n + k]! ** 2;
    const root = Math.sqrt(Math.max(diagonal, 1e-300));
    g[j * n + j] = root;
    for (let i = j + 1; i < n; i++) {
      let value = g[i * n + j]!;
      for (let k = 0; k < j; k++) value -= g[i * n + k]! * g[j * n + k]!;
      g[i * n + j] = value / root;
    }
  }
  const x = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < i; k++) x[i]! -= g[i * n + k]! * x[k]!;
    x[i]! /= g[i * n + i]!;
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let k = i + 1; k < n; k++) x[i]! -= g[k * n + i]! * x[k]!;
    x[i]! /= g[i * n + i]!;
  }
  return x;
}

/**
 * The part of `estimate` explained by `reference` through the best FIR filter of `taps` taps
 * (least squares over the zero-padded signals), cut to the signals' length.
 */
function explainedPart(reference: Float32Array, estimate: Float32Array, taps: number): Float64Array {
  const length = reference.length;
  let size = 4;
  while (size < length + taps) size *= 2;
  const fft = fftOf(size);
  const bins = fft.bins;
  const padded = new Float64Array(size);
  const refRe = new Float64Array(bins);
  const refIm = new Float64Array(bins);
  const estRe = new Float64Array(bins);
  const estIm = new Float64Array(bins);
  padded.set(reference);
  fft.forward(padded, refRe, refIm);
  padded.fill(0);
  padded.set(estimate.subarray(0, length));
  fft.forward(padded, estRe, estIm);
  // Autocorrelation of the reference and its correlation with the estimate, lags 0 .. taps − 1.
  const productRe = new Float64Array(bins);
  const productIm = new Float64Array(bins);
  for (let k = 0; k < bins; k++) productRe[k] = refRe[k]! ** 2 + refIm[k]! ** 2;
  fft.inverse(productRe, productIm, padded);
  const auto = padded.slice(0, taps);
  for (let k = 0; k < bins; k++) {
    productRe[k] = estRe[k]! * refRe[k]! + estIm[k]! * refIm[k]!;
    productIm[k] = estIm[k]! * refRe[k]! - estRe[k]! * refIm[k]!;
  }
  fft.inverse(productRe, productIm, padded);
  const cross = padded.slice(0, taps);
  if (auto[0]! <= 0) return new Float64Array(length);
  // The delayed copies' Gram matrix is Toeplitz in the autocorrelation; a whisker of diagonal
  // loading keeps a band-limited reference (a bass line) solvable.
  const gram = new Float64Array(taps * taps);
  for (let i = 0; i < taps; i++) {
    for (let j = 0; j < taps; j++) gram[i * taps + j] = auto[Math.abs(i - j)]!;
    gram[i * taps + i]! += auto[0]! * 1e-10;
  }
  const filter = solveSymmetric(gram, cross, taps);
  padded.fill(0);
  padded.set(filter);
  fft.forward(padded, productRe, productIm);
  for (let k = 0; k < bins; k++) {
    const re = productRe[k]! * refRe[k]! - productIm[k]! * refIm[k]!;
    const im = productRe[k]! * refIm[k]! + productIm[k]! * refRe[k]!;
    productRe[k] = re;
    productIm[k] = im;
  }
  fft.inverse(productRe, productIm, padded);
  return padded.slice(0, length);
}

const decibels = (signal: number, noise: number) => (noise > 0 ? 10 * Math.log10(signal / noise) : Infinity);

/** SDR of `estimate` against `reference` (one array per channel, same lengths). */
export function signalToDistortion(
  reference: readonly Float32Array[],
  estimate: readonly Float32Array[],
  options: SdrOptions = {},
): SdrResult {
  const { filterLength = 512, frameLength = 44_100 } = options;
  if (reference.length !== estimate.length || reference.some((channel, c) => channel.length !== estimate[c]!.length)) {
    throw new RangeError('reference and estimate differ in shape');
  }
  const length = reference[0]?.length ?? 0;
  const frameCount = Math.max(1, Math.floor(length / frameLength));
  const target = new Float64Array(frameCount);
  const error = new Float64Array(frameCount);
  const referenceEnergy = new Float64Array(frameCount);
  const estimateEnergy = new Float64Array(frameCount);
  for (let c = 0; c < reference.length; c++) {
    const explained = explainedPart(reference[c]!, estimate[c]!, filterLength);
    for (let i = 0; i < length; i++) {
      // Samples past the last whole frame count in it.
      const frame = Math.min(frameCount - 1, Math.floor(i / frameLength));
      target[frame]! += explained[i]! ** 2;
      error[frame]! += (estimate[c]![i]! - explained[i]!) ** 2;
      referenceEnergy[frame]! += reference[c]![i]! ** 2;
      estimateEnergy[frame]! += estimate[c]![i]! ** 2;
    }
  }
  const sum = (values: Float64Array) => values.reduce((total, value) => total + value, 0);
  const framewise: number[] = [];
  for (let f = 0; f < frameCount; f++) {
    if (referenceEnergy[f]! > 0 && estimateEnergy[f]! > 0) framewise.push(decibels(target[f]!, error[f]!));
  }
  framewise.sort((a, b) => a - b);
  const middle = framewise.length >> 1;
  const median =
    framewise.length === 0
      ? NaN
      : framewise.length % 2
        ? framewise[middle]!
        : (framewise[middle - 1]! + framewise[middle]!) / 2;
  return { median, global: decibels(sum(target), sum(error)), frames: framewise.length };
}
