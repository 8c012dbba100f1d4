import type { Loudness } from './ffmpeg';
import { TRUE_PEAK_TAPS, TruePeakMeter } from './true-peak';

/** How PCM bytes are laid out: interleaved frames, little-endian. */
export interface PcmFormat {
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  float: boolean;
}

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
const RANGE_RELATIVE_GATE_LU = -20;
/** Gating blocks are 400 ms long and start every 100 ms; short-term windows (the range's) are 3 s. */
const SEGMENTS_PER_BLOCK = 4;
const SEGMENTS_PER_SHORT_TERM = 30;

const loudnessOf = (power: number) => -0.691 + 10 * Math.log10(power);
const powerOf = (loudness: number) => 10 ** ((loudness + 0.691) / 10);

/** A second-order section in transposed direct form II. */
interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/**
 * The K-weighting of BS.1770 at any sample rate: the high-shelf pre-filter (+4 dB above ~1.7 kHz)
 * then the RLB high-pass (~38 Hz), both from their analogue prototypes by the bilinear transform, so
 * at 48 kHz they are the published coefficients and at 44.1 or 96 kHz the same curves.
 */
export function kWeighting(sampleRate: number): [Biquad, Biquad] {
  const shelfK = Math.tan((Math.PI * 1681.974450955533) / sampleRate);
  const shelfQ = 0.7071752369554196;
  const vh = 10 ** (3.999843853973347 / 20);
  const vb = vh ** 0.4996667741545416;
  const shelfA0 = 1 + shelfK / shelfQ + shelfK * shelfK;
  const shelf: Biquad = {
    b0: (vh + (vb * shelfK) / shelfQ + shelfK * shelfK) / shelfA0,
    b1: (2 * (shelfK * shelfK - vh)) / shelfA0,
    b2: (vh - (vb * shelfK) / shelfQ + shelfK * shelfK) / shelfA0,
    a1: (2 * (shelfK * shelfK - 1)) / shelfA0,
    a2: (1 - shelfK / shelfQ + shelfK * shelfK) / shelfA0,
  };
  const passK = Math.tan((Math.PI * 38.13547087602444) / sampleRate);
  const passQ = 0.5003270373238773;
  const passA0 = 1 + passK / passQ + passK * passK;
  const highPass: Biquad = {
    b0: 1,
    b1: -2,
    b2: 1,
    a1: (2 * (passK * passK - 1)) / passA0,
    a2: (1 - passK / passQ + passK * passK) / passA0,
  };
  return [shelf, highPass];
}

/** Tiny filter states are flushed to 0 between segments: denormal arithmetic is slow on every CPU. */
const flush = (value: number) => (value > 1e-25 || value < -1e-25 ? value : 0);

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
  private readonly states: Float64Array[];
  private readonly filters: [Biquad, Biquad];
  private readonly truePeak: TruePeakMeter;
  private readonly bytesPerFrame: number;
  /** One channel's samples from interleaved bytes into a window: one small loop per sample format. */
  private readonly decodeChannel: ChannelDecoder;
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
    this.bytesPerFrame = (format.bitsPerSample / 8) * format.channels;
    this.decodeChannel = format.float ? decodeFloat32 : DECODERS[format.bitsPerSample as 16 | 24 | 32];
    this.windows = Array.from(
      { length: format.channels },
      () => new Float64Array(TRUE_PEAK_TAPS + this.segmentFrames + TRUE_PEAK_TAPS),
    );
    this.states = Array.from({ length: format.channels }, () => new Float64Array(4));
    this.filters = kWeighting(format.sampleRate);
    this.truePeak = new TruePeakMeter(this.windows, this.segmentFrames);
  }

  /** Samples the true-peak meter interpolated around: what its gate let through. */
  get interpolatedSamples(): number {
    return this.truePeak.interpolatedSamples;
  }

  /** Interleaved little-endian PCM bytes; a frame may be split across calls. */
  push(chunk: Buffer): void {
    let data = chunk;
    if (this.carry) {
      data = Buffer.concat([this.carry, chunk]);
      this.carry = null;
    }
    const whole = data.length - (data.length % this.bytesPerFrame);
    if (whole < data.length) this.carry = Buffer.from(data.subarray(whole));
    let frame = 0;
    const frames = whole / this.bytesPerFrame;
    while (frame < frames) {
      const take = Math.min(frames - frame, this.segmentFrames - this.filled);
      this.decode(data, frame, take);
      frame += take;
      this.filled += take;
      if (this.filled === this.segmentFrames) this.endSegment(false);
    }
  }

  /** Writes `count` frames from `data` (starting at frame `first`) into the channel windows as floats. */
  private decode(data: Buffer, first: number, count: number): void {
    const at = TRUE_PEAK_TAPS + this.filled;
    const sampleBytes = this.format.bitsPerSample / 8;
    for (let c = 0; c < this.windows.length; c++)
      this.decodeChannel(
        data,
        first * this.bytesPerFrame + c * sampleBytes,
        this.bytesPerFrame,
        count,
        this.windows[c]!,
        at,
      );
  }

  /** K-weights the segment, keeps its power, and hands it to the true-peak meter. */
  private endSegment(last: boolean): void {
    const frames = this.filled;
    const threshold = this.truePeak.threshold;
    let power = 0;
    let loudest = 0;
    for (let c = 0; c < this.windows.length; c++) {
      const pass = this.weigh(c, frames, threshold);
      power += pass.sum;
      if (pass.max > loudest) loudest = pass.max;
    }
    if (!last) this.keepSegment(power / frames);
    this.truePeak.segment(frames, loudest, last);
    this.filled = 0;
  }

  /**
   * One channel's pass over the segment: K-weighted sum of squares, max |x|, and the positions of
   * samples at or above `threshold` for the true-peak meter.
   */
  private weigh(channel: number, frames: number, threshold: number): { sum: number; max: number } {
    const [shelf, pass] = this.filters;
    // Coefficients in locals: the loop below runs for every sample of every channel.
    const { b0, b1, b2, a1, a2 } = shelf;
    const h1 = pass.a1;
    const h2 = pass.a2;
    const window = this.windows[channel]!;
    const state = this.states[channel]!;
    const candidates = this.truePeak.candidates[channel]!;
    let count = this.truePeak.counts[channel]!;
    let s1 = state[0]!;
    let s2 = state[1]!;
    let p1 = state[2]!;
    let p2 = state[3]!;
    let sum = 0;
    let max = 0;
    const end = TRUE_PEAK_TAPS + frames;
    for (let i = TRUE_PEAK_TAPS; i < end; i++) {
      const x = window[i]!;
      const magnitude = x < 0 ? -x : x;
      if (magnitude >= threshold) {
        candidates[count++] = i;
        if (magnitude > max) max = magnitude;
      }
      const y = b0 * x + s1;
      s1 = b1 * x - a1 * y + s2;
      s2 = b2 * x - a2 * y;
      const z = y + p1;
      p1 = -2 * y - h1 * z + p2;
      p2 = y - h2 * z;
      sum += z * z;
    }
    this.truePeak.counts[channel] = count;
    state[0] = flush(s1);
    state[1] = flush(s2);
    state[2] = flush(p1);
    state[3] = flush(p2);
    return { sum, max };
  }

  private keepSegment(power: number): void {
    if (this.segments === this.segmentPowers.length) {
      const bigger = new Float64Array(this.segments * 2);
      bigger.set(this.segmentPowers);
      this.segmentPowers = bigger;
    }
    this.segmentPowers[this.segments++] = power;
  }

  /** Mean power of every window of `span` segments that ends on a segment boundary (100 ms apart). */
  private windowPowers(span: number): number[] {
    const powers: number[] = [];
    let sum = 0;
    for (let i = 0; i < this.segments; i++) {
      sum += this.segmentPowers[i]!;
      if (i >= span) sum -= this.segmentPowers[i - span]!;
      // Summing and subtracting drifts by ~1e-16 of the largest power: far below any gate's reach.
      if (i >= span - 1) powers.push(Math.max(0, sum) / span);
    }
    return powers;
  }

  /** Ends the stream: the measurements, with null for what silence leaves undefined. */
  finish(): Loudness {
    this.endSegment(true);
    const truePeak = this.truePeak.result();
    const integrated = this.integrated();
    return {
      integrated,
      truePeak: truePeak > 0 ? 20 * Math.log10(truePeak) : null,
      // No loudness, no range: the same blocks fail the same gate.
      range: integrated === null ? null : this.range(),
    };
  }

  private integrated(): number | null {
    const blocks = this.windowPowers(SEGMENTS_PER_BLOCK).filter((p) => p > 0 && loudnessOf(p) >= ABSOLUTE_GATE_LUFS);
    if (blocks.length === 0) return null;
    const gate = powerOf(loudnessOf(mean(blocks)) + RELATIVE_GATE_LU);
    const kept = blocks.filter((p) => p >= gate);
    return loudnessOf(mean(kept));
  }

  private range(): number | null {
    const windows = this.windowPowers(SEGMENTS_PER_SHORT_TERM).filter(
      (p) => p > 0 && loudnessOf(p) >= ABSOLUTE_GATE_LUFS,
    );
    if (windows.length === 0) return null;
    const gate = loudnessOf(mean(windows)) + RANGE_RELATIVE_GATE_LU;
    const kept = windows
      .map(loudnessOf)
      .filter((l) => l >= gate)
      .sort((a, b) => a - b);
    if (kept.length === 0) return 0;
    const at = (percent: number) => kept[Math.max(0, Math.round((percent / 100) * kept.length) - 1)]!;
    return at(95) - at(10);
  }
}

type ChannelDecoder = (data: Buffer, byte: number, step: number, count: number, into: Float64Array, at: number) => void;

const DECODERS: Record<16 | 24 | 32, ChannelDecoder> = {
  16: (data, byte, step, count, into, at) => {
    for (let i = 0; i < count; i++, byte += step)
      into[at + i] = (data[byte]! | ((data[byte + 1]! << 24) >> 16)) / 32768;
  },
  24: (data, byte, step, count, into, at) => {
    for (let i = 0; i < count; i++, byte += step)
      into[at + i] = (data[byte]! | (data[byte + 1]! << 8) | ((data[byte + 2]! << 24) >> 8)) / 8388608;
  },
  32: (data, byte, step, count, into, at) => {
    for (let i = 0; i < count; i++, byte += step)
      into[at + i] =
        (data[byte]! | (data[byte + 1]! << 8) | (data[byte + 2]! << 16) | (data[byte + 3]! << 24)) / 2147483648;
  },
};

/** 32-bit float through a Float32Array view (the bytes copied once when they are not 4-aligned). */
const decodeFloat32: ChannelDecoder = (data, byte, step, count, into, at) => {
  const aligned = (data.byteOffset + byte) % 4 === 0 ? data : Buffer.from(data.subarray(byte - (byte % 4)));
  const offset = aligned === data ? byte : byte % 4;
  const view = new Float32Array(aligned.buffer, aligned.byteOffset + offset, Math.floor((aligned.length - offset) / 4));
  const stride = step / 4;
  for (let i = 0, j = 0; i < count; i++, j += stride) into[at + i] = view[j]!;
};

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
