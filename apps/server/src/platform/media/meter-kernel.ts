import type { KWeighting } from './k-weighting';
import type { PcmFormat } from './loudness-meter';
import {
  COEFFICIENTS,
  COUNTS,
  EXTREMES,
  PHASE_KERNELS,
  STAGE_BYTES,
  STAGE_PAD,
  STATE,
  STATE_VALUES,
  WINDOWS,
  meterModule,
  type SampleKind,
} from './meter-kernel-code';
import { PHASE_KERNEL_TAPS, type TruePeakBuffers } from './true-peak';

const PAGE = 65536;

type Run = (
  src: number,
  count: number,
  dstLeft: number,
  dstRight: number,
  at: number,
  gate: number,
  candidatesLeft: number,
  candidatesRight: number,
) => void;

const flush = (value: number) => (value > 1e-25 || value < -1e-25 ? value : 0);
const align16 = (bytes: number) => Math.ceil(bytes / 16) * 16;

type PeakOf = (window: number, intervals: number, count: number, peak: number) => number;

/**
 * One meter's kernel (code in meter-kernel-code.ts): its own memory, with the channel windows, the
 * gate's candidates and the extremes as views the meter and its true-peak meter read.
 */
export class MeterKernel implements TruePeakBuffers {
  /** Per channel: the window of `windowLength` samples the kernel writes into. */
  readonly windows: Float64Array[];
  /** Since `resetExtremes`: largest left, largest right, smallest left, smallest right. */
  readonly extremes: Float64Array;
  /** Per channel: window positions of the samples that reached the gate (the true-peak meter's). */
  readonly candidates: Int32Array[];
  /** Per channel: how many of `candidates` are held. */
  readonly counts: Int32Array;
  /** One channel's interval starts for `peakOf`: two per candidate at most. */
  readonly intervals: Int32Array;
  /** Whole frames the stage holds. */
  readonly stageFrames: number;
  private readonly run: Run;
  private readonly peakOfIntervals: PeakOf;
  private readonly memory: Uint8Array;
  private readonly state: Float64Array;
  private readonly stage: number;
  private readonly bytesPerFrame: number;

  constructor(format: PcmFormat, filters: KWeighting, windowLength: number) {
    const channels = format.channels as 1 | 2;
    const kind: SampleKind = format.float
      ? 'f32'
      : format.bitsPerSample === 16
        ? 's16'
        : format.bitsPerSample === 24
          ? 's24'
          : 's32';
    const windowBytes = align16(windowLength * 8);
    const candidateBytes = align16(windowLength * 4);
    const candidatesAt = WINDOWS + channels * windowBytes;
    const intervalsAt = candidatesAt + channels * candidateBytes;
    this.stage = intervalsAt + 2 * candidateBytes;
    const pages = Math.ceil((this.stage + STAGE_BYTES + STAGE_PAD) / PAGE);
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    const instance = new WebAssembly.Instance(meterModule(), { env: { memory } });
    this.run = instance.exports[`${kind}x${channels}`] as Run;
    this.peakOfIntervals = instance.exports.peakOf as PeakOf;
    this.memory = new Uint8Array(memory.buffer);
    this.windows = Array.from(
      { length: channels },
      (_, c) => new Float64Array(memory.buffer, WINDOWS + c * windowBytes, windowLength),
    );
    this.extremes = new Float64Array(memory.buffer, EXTREMES, 4);
    this.candidates = Array.from(
      { length: channels },
      (_, c) => new Int32Array(memory.buffer, candidatesAt + c * candidateBytes, windowLength),
    );
    this.counts = new Int32Array(memory.buffer, COUNTS, 2);
    this.intervals = new Int32Array(memory.buffer, intervalsAt, 2 * windowLength);
    new Float64Array(memory.buffer, PHASE_KERNELS, PHASE_KERNEL_TAPS.length).set(PHASE_KERNEL_TAPS);
    this.state = new Float64Array(memory.buffer, STATE, STATE_VALUES + 2);
    this.bytesPerFrame = (format.bitsPerSample / 8) * channels;
    this.stageFrames = Math.floor(STAGE_BYTES / this.bytesPerFrame);
    const [shelf, pass] = filters;
    const integerScale = 2 ** (1 - format.bitsPerSample);
    new Float64Array(memory.buffer, COEFFICIENTS, 8).set([
      shelf.b0,
      shelf.b1,
      shelf.b2,
      shelf.a1,
      shelf.a2,
      pass.a1,
      pass.a2,
      format.float ? 1 : integerScale,
    ]);
  }

  /** Copies whole frames into the stage (at most `stageFrames`); `decode` then reads them by frame index. */
  stageBytes(data: Buffer, byte: number, frames: number): void {
    this.memory.set(data.subarray(byte, byte + frames * this.bytesPerFrame), this.stage);
  }

  resetExtremes(): void {
    this.extremes.fill(0);
  }

  /**
   * Decodes `count` staged frames from frame `from` into every window at `at`, widens the
   * extremes, appends the positions of samples whose |value| reaches `gate` to their channel's
   * candidates, and adds their K-weighted z² to the sums.
   */
  decode(from: number, count: number, at: number, gate: number): void {
    const left = this.windows[0]!;
    const right = this.windows[1] ?? left;
    this.run(
      this.stage + from * this.bytesPerFrame,
      count,
      left.byteOffset + at * 8,
      right.byteOffset + at * 8,
      at,
      gate,
      this.candidates[0]!.byteOffset,
      (this.candidates[1] ?? this.candidates[0]!).byteOffset,
    );
  }

  peakOf(channel: number, count: number, peak: number): number {
    return this.peakOfIntervals(this.windows[channel]!.byteOffset, this.intervals.byteOffset, count, peak);
  }

  /** The K-weighted sum of squares since the last call (channels summed), and a fresh start for the next. */
  takeSum(): number {
    const state = this.state;
    const sum = this.windows.length === 2 ? state[STATE_VALUES]! + state[STATE_VALUES + 1]! : state[STATE_VALUES]!;
    // Tiny filter states are flushed to 0 between segments: denormal arithmetic is slow on every CPU.
    for (let i = 0; i < STATE_VALUES; i++) state[i] = flush(state[i]!);
    state[STATE_VALUES] = 0;
    state[STATE_VALUES + 1] = 0;
    return sum;
  }
}
