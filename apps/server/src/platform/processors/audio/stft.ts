/**
 * Short-time Fourier transform, one frame at a time, with an inverse by weighted overlap-add that
 * reconstructs its input exactly: a processor that changes nothing gives its input back (to
 * float rounding), so whatever a mask removes is all the mask's doing.
 *
 * Frames sit on one grid for the whole file: frame i starts at sample `i·hop − (size − hop)`, so
 * frame 0 is the first frame that touches sample 0 and every sample of [0, length) is covered by
 * `size / hop` frames. A processor working in chunks analyses the frames a chunk needs on that
 * same grid (reading a little before and after it), which is why chunked and whole-file results
 * are identical.
 *
 * Windows: `hann` analyses with a periodic Hann window and synthesises with Hann too (as
 * torch.stft/istft and librosa do, so models trained on them see the spectra they expect);
 * `sqrt-hann` uses the square root of Hann on both sides, which keeps the synthesis smooth when
 * masks change sharply from frame to frame. Either way the synthesis window is divided by the
 * windows' overlap-added product, so reconstruction is exact for any hop that divides the size.
 */
import { RealFft } from './fft';

export type StftWindow = 'hann' | 'sqrt-hann';

export interface StftOptions {
  /** Samples per frame (a power of two ≥ 4). */
  size: number;
  /** Samples between frame starts; must divide `size` (e.g. size / 4). */
  hop: number;
  /** Default `hann`. */
  window?: StftWindow;
}

/** A periodic Hann window (its copies spaced by a divisor of its length sum to a constant). */
export function hannWindow(size: number): Float64Array {
  return Float64Array.from({ length: size }, (_, n) => 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / size));
}

/** The square root of {@link hannWindow}. */
export function sqrtHannWindow(size: number): Float64Array {
  return hannWindow(size).map(Math.sqrt);
}

export class Stft {
  readonly size: number;
  readonly hop: number;
  /** Bins per frame: `size / 2 + 1`. */
  readonly bins: number;
  readonly analysisWindow: Float64Array;
  /** Already normalised: overlap-added `analysis · synthesis` is exactly 1. */
  readonly synthesisWindow: Float64Array;

  private readonly fft: RealFft;
  private readonly frame: Float64Array;

  constructor(options: StftOptions) {
    const { size, hop, window = 'hann' } = options;
    if (!Number.isInteger(hop) || hop < 1 || size % hop !== 0) {
      throw new RangeError(`STFT hop must divide the size, got size ${size}, hop ${hop}`);
    }
    this.fft = new RealFft(size);
    this.size = size;
    this.hop = hop;
    this.bins = this.fft.bins;
    this.analysisWindow = window === 'hann' ? hannWindow(size) : sqrtHannWindow(size);
    const synthesis = window === 'hann' ? hannWindow(size) : sqrtHannWindow(size);
    // Every sample is covered by size / hop frames; divide by what their windows add up to there.
    const overlap = new Float64Array(hop);
    for (let n = 0; n < size; n++) overlap[n % hop]! += this.analysisWindow[n]! * synthesis[n]!;
    this.synthesisWindow = synthesis.map((value, n) => value / overlap[n % hop]!);
    this.frame = new Float64Array(size);
  }

  /** First sample of frame `index` (negative for the first frames). */
  frameStart(index: number): number {
    return index * this.hop - (this.size - this.hop);
  }

  /** Frames whose start is at or after `sample`: the index of the first of them. */
  firstFrameStartingFrom(sample: number): number {
    return Math.ceil((sample + this.size - this.hop) / this.hop);
  }

  /** Frames needed to cover samples [0, length): frames 0 .. frameCount − 1. */
  frameCount(length: number): number {
    return length <= 0 ? 0 : Math.floor((length - 1 + this.size - this.hop) / this.hop) + 1;
  }

  /**
   * Spectrum of the frame starting at `start` in `signal` (samples outside the array read as 0)
   * into `re[0..bins)`, `im[0..bins)`. `start` is relative to the array: a caller holding a chunk
   * that begins at sample s of the file passes `frameStart(i) − s`.
   */
  analyze(
    signal: Float32Array | Float64Array,
    start: number,
    re: Float32Array | Float64Array,
    im: Float32Array | Float64Array,
  ): void {
    const { frame, analysisWindow, size } = this;
    const from = Math.max(0, -start);
    const to = Math.min(size, signal.length - start);
    frame.fill(0);
    for (let n = from; n < to; n++) frame[n] = signal[start + n]! * analysisWindow[n]!;
    this.fft.forward(frame, re, im);
  }

  /**
   * Inverse of one frame's spectrum, windowed and added into `output` at `start` (relative to the
   * array, as in {@link analyze}); samples falling outside `output` are dropped.
   */
  synthesize(re: ArrayLike<number>, im: ArrayLike<number>, output: Float32Array | Float64Array, start: number): void {
    const { frame, synthesisWindow, size } = this;
    this.fft.inverse(re, im, frame);
    const from = Math.max(0, -start);
    const to = Math.min(size, output.length - start);
    for (let n = from; n < to; n++) output[start + n]! += frame[n]! * synthesisWindow[n]!;
  }
}
