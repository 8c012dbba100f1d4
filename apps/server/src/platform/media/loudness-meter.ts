import type { Loudness } from './ffmpeg';
import { kWeighting, weighMono, weighStereo, type KWeighting } from './k-weighting';
import { gatedLoudness, type MeteredSegments } from './loudness-gating';
import { channelDecoder, type ChannelDecoder } from './pcm-decoders';
import { TRUE_PEAK_TAPS, TruePeakMeter } from './true-peak';

/** The true-peak gate looks at 10 ms blocks. */
const BLOCKS_PER_SEGMENT = 10;

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
  /** Frames per block of the true-peak gate's scan: 10 ms. */
  readonly blockFrames: number;
  /** Per channel: true-peak history, then the current segment, then room for the final zeros. */
  private readonly windows: Float64Array[];
  private readonly states: Float64Array[];
  private readonly filters: KWeighting;
  private readonly truePeak: TruePeakMeter;
  private readonly bytesPerFrame: number;
  /** One channel's samples from interleaved bytes into a window: one small loop per sample format. */
  private readonly decodeChannel: ChannelDecoder;
  /** Per channel, per block of the current segment: its largest and its smallest sample. */
  private readonly extremes: Float64Array[];
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

  constructor(private readonly format: PcmFormat) {
    if (!LoudnessMeter.supports(format)) throw new Error('Unsupported PCM format for loudness.');
    this.segmentFrames = Math.round(format.sampleRate / 10);
    this.blockFrames = Math.ceil(this.segmentFrames / BLOCKS_PER_SEGMENT);
    this.bytesPerFrame = (format.bitsPerSample / 8) * format.channels;
    this.decodeChannel = channelDecoder(format);
    this.windows = Array.from(
      { length: format.channels },
      () => new Float64Array(TRUE_PEAK_TAPS + this.segmentFrames + TRUE_PEAK_TAPS),
    );
    this.extremes = Array.from(
      { length: format.channels },
      () => new Float64Array(2 * Math.ceil(this.segmentFrames / this.blockFrames)),
    );
    this.states = Array.from({ length: format.channels }, () => new Float64Array(4));
    this.filters = kWeighting(format.sampleRate);
    this.truePeak = new TruePeakMeter(this.windows, this.segmentFrames);
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

  /** Meters `frames` whole frames of `data` from byte `start` on, segment by segment. */
  private meter(data: Buffer, start: number, frames: number): void {
    let frame = 0;
    while (frame < frames) {
      // Never across a block's end: each call widens one block's extremes.
      const inBlock = this.filled % this.blockFrames;
      const take = Math.min(frames - frame, this.segmentFrames - this.filled, this.blockFrames - inBlock);
      this.decode(data, start + frame * this.bytesPerFrame, take, inBlock === 0);
      frame += take;
      this.filled += take;
      if (this.filled === this.segmentFrames) this.endSegment(false);
    }
  }

  /**
   * Writes `count` frames from `data` (starting at byte `byte`) into the channel windows as floats,
   * and widens their block's extremes per channel (starting afresh at a block's first frame).
   */
  private decode(data: Buffer, byte: number, count: number, blockStart: boolean): void {
    const at = TRUE_PEAK_TAPS + this.filled;
    const block = Math.floor(this.filled / this.blockFrames);
    const sampleBytes = this.format.bitsPerSample / 8;
    for (let c = 0; c < this.windows.length; c++) {
      const extremes = this.extremes[c]!.subarray(2 * block, 2 * block + 2);
      if (blockStart) extremes.fill(0);
      this.decodeChannel(data, byte + c * sampleBytes, this.bytesPerFrame, count, this.windows[c]!, at, extremes);
    }
  }

  /** K-weights the segment, keeps its power, and hands it to the true-peak meter. */
  private endSegment(last: boolean): void {
    const frames = this.filled;
    const loudest = this.scanBlocks(frames, this.truePeak.threshold);
    const sum =
      this.windows.length === 2
        ? weighStereo(this.filters, this.windows, this.states, frames)
        : weighMono(this.filters, this.windows[0]!, this.states[0]!, frames);
    if (!last) this.keepSegment(sum / frames);
    this.truePeak.segment(frames, loudest, last);
    this.filled = 0;
  }

  /**
   * The segment in blocks of `blockFrames` (10 ms): the positions of the samples that reach
   * `threshold`, for the true-peak meter, looked for only in blocks whose largest |x| (noted while
   * decoding) reaches it. Most blocks of most audio stay below the gate, so neither the decode nor
   * the filters' loop tests each sample. Returns the segment's largest |x|.
   */
  private scanBlocks(frames: number, threshold: number): number {
    const counts = this.truePeak.counts;
    let loudest = 0;
    for (let block = 0; block * this.blockFrames < frames; block++) {
      const start = TRUE_PEAK_TAPS + block * this.blockFrames;
      const stop = TRUE_PEAK_TAPS + Math.min(frames, (block + 1) * this.blockFrames);
      for (let c = 0; c < this.windows.length; c++) {
        const high = this.extremes[c]![2 * block]!;
        const low = this.extremes[c]![2 * block + 1]!;
        const magnitude = high > -low ? high : -low;
        if (magnitude >= threshold) {
          const window = this.windows[c]!;
          const candidates = this.truePeak.candidates[c]!;
          let count = counts[c]!;
          for (let i = start; i < stop; i++) if (Math.abs(window[i]!) >= threshold) candidates[count++] = i;
          counts[c] = count;
        }
        if (magnitude > loudest) loudest = magnitude;
      }
    }
    return loudest;
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
