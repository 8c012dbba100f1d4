import type { Loudness } from './ffmpeg';
import { kWeighting } from './k-weighting';
import { MeterKernel } from './meter-kernel';
import { gatedLoudness, type MeteredSegments } from './loudness-gating';
import { TRUE_PEAK_TAPS, TruePeakMeter } from './true-peak';

/** How PCM bytes are laid out: interleaved frames, little-endian. */
export interface PcmFormat {
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  float: boolean;
}

/**
 * EBU R128 integrated loudness, loudness range and true peak of mono or stereo PCM, fed the bytes of
 * the decode that also makes the waveform (so loudness needs no decode of its own). Integrated
 * loudness follows BS.1770: K-weighted mean square per channel over 400 ms blocks every 100 ms (a
 * block is four 100 ms segments), channels summed with weight 1, blocks gated at −70 LUFS and then
 * at 10 LU below the mean of those kept. The range follows EBU Tech 3342: 3 s windows every 100 ms,
 * gated at −70 LUFS and 20 LU below their mean, from the 10th to the 95th percentile. A trailing
 * part-segment counts for the peak, not for loudness (as in ffmpeg's ebur128, the reference).
 */
export class LoudnessMeter {
  private readonly segmentFrames: number;
  /** Per channel: true-peak history, then the current segment, then room for the final zeros. */
  private readonly windows: Float64Array[];
  /** Decodes into the windows, keeps the extremes, notes the true-peak gate's candidates, K-weights: one loop, in WebAssembly. */
  private readonly kernel: MeterKernel;
  private readonly truePeak: TruePeakMeter;
  private readonly bytesPerFrame: number;
  /** K-weighted mean square of each complete 100 ms segment, channels summed. */
  private segmentPowers = new Float64Array(1024);
  private segments = 0;
  private filled = 0;
  private carry: Buffer | null = null;

  /** Mono or stereo only: more channels need per-channel weights from the layout (see `supports`). */
  static supports(format: PcmFormat): boolean {
    return (
      format.channels >= 1 &&
      format.channels <= 2 &&
      format.sampleRate >= 8000 &&
      (format.float ? format.bitsPerSample === 32 : [16, 24, 32].includes(format.bitsPerSample))
    );
  }

  constructor(format: PcmFormat) {
    if (!LoudnessMeter.supports(format)) throw new Error('Unsupported PCM format for loudness.');
    this.segmentFrames = Math.round(format.sampleRate / 10);
    this.bytesPerFrame = (format.bitsPerSample / 8) * format.channels;
    this.kernel = new MeterKernel(
      format,
      kWeighting(format.sampleRate),
      TRUE_PEAK_TAPS + this.segmentFrames + TRUE_PEAK_TAPS,
    );
    this.windows = this.kernel.windows;
    this.truePeak = new TruePeakMeter(this.kernel);
  }

  /** Samples the true-peak meter interpolated around: what its gate let through. */
  get interpolatedSamples(): number {
    return this.truePeak.interpolatedSamples;
  }

  /**
   * Interleaved little-endian PCM bytes; a frame may be split across calls. Only the split frame is
   * joined by copying (a stream's chunks need not be whole frames; copying each whole chunk cost a
   * fifth of the meter's time).
   */
  push(chunk: Buffer): void {
    let start = 0;
    if (this.carry) {
      const need = this.bytesPerFrame - this.carry.length;
      if (chunk.length < need) {
        this.carry = Buffer.concat([this.carry, chunk]);
        return;
      }
      this.meter(Buffer.concat([this.carry, chunk.subarray(0, need)]), 0, 1);
      this.carry = null;
      start = need;
    }
    const frames = Math.floor((chunk.length - start) / this.bytesPerFrame);
    const rest = start + frames * this.bytesPerFrame;
    if (rest < chunk.length) this.carry = Buffer.from(chunk.subarray(rest));
    this.meter(chunk, start, frames);
  }

  /** Meters `frames` whole frames of `data` from byte `start` on, through the kernel's stage. */
  private meter(data: Buffer, start: number, frames: number): void {
    for (let staged = 0; staged < frames;) {
      const count = Math.min(frames - staged, this.kernel.stageFrames);
      this.kernel.stageBytes(data, start + staged * this.bytesPerFrame, count);
      this.meterStaged(count);
      staged += count;
    }
  }

  /** The staged frames, segment by segment. */
  private meterStaged(frames: number): void {
    let frame = 0;
    while (frame < frames) {
      const take = Math.min(frames - frame, this.segmentFrames - this.filled);
      this.kernel.decode(frame, take, TRUE_PEAK_TAPS + this.filled, this.truePeak.threshold);
      frame += take;
      this.filled += take;
      if (this.filled === this.segmentFrames) this.endSegment(false);
    }
  }

  /** Keeps the segment's K-weighted power and hands the segment to the true-peak meter. */
  private endSegment(last: boolean): void {
    const frames = this.filled;
    const loudest = this.loudestOf();
    this.kernel.resetExtremes();
    const sum = this.kernel.takeSum();
    if (!last) this.keepSegment(sum / frames);
    this.truePeak.segment(frames, loudest, last);
    this.filled = 0;
  }

  /** The segment's largest |x|, from the extremes the kernel kept. */
  private loudestOf(): number {
    const [highLeft, highRight, lowLeft, lowRight] = this.kernel.extremes;
    const left = Math.max(highLeft!, -lowLeft!);
    return this.windows.length === 2 ? Math.max(left, highRight!, -lowRight!) : left;
  }

  private keepSegment(power: number): void {
    if (this.segments === this.segmentPowers.length) {
      const bigger = new Float64Array(this.segments * 2);
      bigger.set(this.segmentPowers);
      this.segmentPowers = bigger;
    }
    this.segmentPowers[this.segments++] = power;
  }

  /**
   * Ends the stream: the K-weighted power of each complete segment and the true peak. A meter that
   * ran over one part of a file keeps only its own segments (`keep`), and where the file goes on
   * past what it read (`continues`) it leaves the intervals next to its last samples to the next
   * part instead of padding them with silence.
   */
  finishSegments(keep?: { first: number; count: number; continues: boolean }): MeteredSegments {
    if (!keep?.continues) this.endSegment(true);
    const first = keep?.first ?? 0;
    const count = Math.max(0, Math.min(keep?.count ?? Infinity, this.segments - first));
    return { powers: this.segmentPowers.slice(first, first + count), truePeak: this.truePeak.result() };
  }

  /** Ends the stream: the measurements, with null for what silence leaves undefined. */
  finish(): Loudness {
    return gatedLoudness(this.finishSegments());
  }
}
