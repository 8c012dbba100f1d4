/**
 * A real-input FFT for the processors' signal processing, written here because none of Mixroom's
 * dependencies offers one and the separators need thousands of transforms per second of audio.
 *
 * A transform of `size` real samples (a power of two, at least 4) runs as one complex FFT of half
 * the size on the samples packed in pairs, then unpacks the `size / 2 + 1` bins of the one-sided
 * spectrum: half the work of a complex transform of the same length. Everything is precomputed in
 * the constructor and the transform allocates nothing, so one instance serves a whole file; an
 * instance keeps scratch space, so it must not be shared between concurrent callers (there are
 * none in one thread).
 *
 * Conventions: `forward` is unnormalised (X[k] = Σ x[n]·e^(−2πikn/N)) and `inverse` divides by
 * N, so `inverse(forward(x)) = x`.
 */
export class RealFft {
  /** Number of real samples of one transform. */
  readonly size: number;
  /** Number of bins of the one-sided spectrum: `size / 2 + 1` (DC to Nyquist). */
  readonly bins: number;

  private readonly half: number;
  private readonly bitReversed: Uint32Array;
  /** e^(−2πik/half) for k < half / 2: the complex FFT's twiddles. */
  private readonly twiddleRe: Float64Array;
  private readonly twiddleIm: Float64Array;
  /** e^(−2πik/size) for k ≤ half: the twiddles that unpack the real spectrum. */
  private readonly unpackRe: Float64Array;
  private readonly unpackIm: Float64Array;
  private readonly workRe: Float64Array;
  private readonly workIm: Float64Array;

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 4 || (size & (size - 1)) !== 0) {
      throw new RangeError(`FFT size must be a power of two ≥ 4, got ${size}`);
    }
    this.size = size;
    this.bins = size / 2 + 1;
    const half = size / 2;
    this.half = half;
    this.bitReversed = new Uint32Array(half);
    const bits = Math.log2(half);
    for (let i = 0; i < half; i++) {
      let reversed = 0;
      for (let b = 0; b < bits; b++) reversed |= ((i >> b) & 1) << (bits - 1 - b);
      this.bitReversed[i] = reversed;
    }
    this.twiddleRe = new Float64Array(Math.max(1, half / 2));
    this.twiddleIm = new Float64Array(Math.max(1, half / 2));
    for (let k = 0; k < half / 2; k++) {
      this.twiddleRe[k] = Math.cos((-2 * Math.PI * k) / half);
      this.twiddleIm[k] = Math.sin((-2 * Math.PI * k) / half);
    }
    this.unpackRe = new Float64Array(half + 1);
    this.unpackIm = new Float64Array(half + 1);
    for (let k = 0; k <= half; k++) {
      this.unpackRe[k] = Math.cos((-2 * Math.PI * k) / size);
      this.unpackIm[k] = Math.sin((-2 * Math.PI * k) / size);
    }
    this.workRe = new Float64Array(half);
    this.workIm = new Float64Array(half);
  }

  /**
   * Spectrum of `input[0..size)` into `re[0..bins)` and `im[0..bins)`. `im[0]` and `im[bins − 1]`
   * are always 0. The input is not modified.
   */
  forward(input: ArrayLike<number>, re: Float32Array | Float64Array, im: Float32Array | Float64Array): void {
    const { half, workRe, workIm, bitReversed, unpackRe, unpackIm } = this;
    for (let n = 0; n < half; n++) {
      const target = bitReversed[n]!;
      workRe[target] = input[2 * n]!;
      workIm[target] = input[2 * n + 1]!;
    }
    this.butterflies();
    // Z[k] = E[k] + i·O[k] with E, O the spectra of the even and odd samples;
    // X[k] = E[k] + e^(−2πik/N)·O[k].
    for (let k = 0; k <= half; k++) {
      const a = k === half ? 0 : k;
      const b = k === 0 ? 0 : half - k;
      const zr = workRe[a]!;
      const zi = workIm[a]!;
      const cr = workRe[b]!;
      const ci = -workIm[b]!;
      const er = (zr + cr) / 2;
      const ei = (zi + ci) / 2;
      // O = (Z − conj(Z[half − k])) / 2i
      const or = (zi - ci) / 2;
      const oi = -(zr - cr) / 2;
      const wr = unpackRe[k]!;
      const wi = unpackIm[k]!;
      re[k] = er + wr * or - wi * oi;
      im[k] = ei + wr * oi + wi * or;
    }
    im[0] = 0;
    im[half] = 0;
  }

  /**
   * Real signal of the one-sided spectrum `re[0..bins)`, `im[0..bins)` into `output[0..size)`,
   * divided by `size`. The imaginary parts of DC and Nyquist are ignored (a real signal has none).
   */
  inverse(re: ArrayLike<number>, im: ArrayLike<number>, output: Float32Array | Float64Array): void {
    const { half, workRe, workIm, bitReversed, unpackRe, unpackIm } = this;
    // E[k] = (X[k] + conj(X[half − k])) / 2, O[k] = (X[k] − conj(X[half − k]))·e^(2πik/N) / 2,
    // Z[k] = E[k] + i·O[k]; the complex inverse runs as a forward FFT of the conjugate.
    for (let k = 0; k < half; k++) {
      const xr = re[k]!;
      const xi = k === 0 ? 0 : im[k]!;
      const yr = re[half - k]!;
      const yi = k === 0 ? 0 : -im[half - k]!;
      const er = (xr + yr) / 2;
      const ei = (xi + yi) / 2;
      const dr = (xr - yr) / 2;
      const di = (xi - yi) / 2;
      const wr = unpackRe[k]!;
      const wi = -unpackIm[k]!;
      const or = dr * wr - di * wi;
      const oi = dr * wi + di * wr;
      const target = bitReversed[k]!;
      workRe[target] = er - oi;
      workIm[target] = -(ei + or);
    }
    this.butterflies();
    const scale = 1 / half;
    for (let n = 0; n < half; n++) {
      output[2 * n] = workRe[n]! * scale;
      output[2 * n + 1] = -workIm[n]! * scale;
    }
  }

  /** In-place radix-2 decimation-in-time butterflies over the bit-reversed work arrays. */
  private butterflies(): void {
    const { half, workRe, workIm, twiddleRe, twiddleIm } = this;
    for (let span = 1; span < half; span *= 2) {
      const step = half / (2 * span);
      for (let start = 0; start < half; start += 2 * span) {
        for (let j = 0; j < span; j++) {
          const wr = twiddleRe[j * step]!;
          const wi = twiddleIm[j * step]!;
          const p = start + j;
          const q = p + span;
          const qr = workRe[q]! * wr - workIm[q]! * wi;
          const qi = workRe[q]! * wi + workIm[q]! * wr;
          const pr = workRe[p]!;
          const pi = workIm[p]!;
          workRe[p] = pr + qr;
          workIm[p] = pi + qi;
          workRe[q] = pr - qr;
          workIm[q] = pi - qi;
        }
      }
    }
  }
}
