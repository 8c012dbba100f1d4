import { spawn } from 'node:child_process';
import { toolCommand, tracked } from './tool-processes';
import type { Readable } from 'node:stream';
import { bandLevels, overallDifference, type OverallDifference } from './band-levels';
import { findOffset, fractionalTaps } from './difference-alignment';
import { ANALYSIS, DifferenceMeter, monoOf } from './difference-lane';
import { MediaError, type MediaTools } from './ffmpeg';

const FRAME_BYTES = 2 * ANALYSIS.channels;

/**
 * Reads interleaved int16 frames from a stream in the sizes asked for, holding no more than one
 * request plus the chunk in flight: the producer (ffmpeg) waits on its pipe meanwhile.
 */
export class PcmReader {
  private readonly chunks: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private readonly iterator: AsyncIterator<Buffer>;

  constructor(stream: Readable) {
    this.iterator = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  /** Up to `frames` frames; fewer only at the end of the stream, none after it. */
  async read(frames: number): Promise<Int16Array> {
    const wanted = frames * FRAME_BYTES;
    while (this.queued < wanted && !this.ended) {
      const next = await this.iterator.next();
      if (next.done) this.ended = true;
      else {
        this.chunks.push(next.value);
        this.queued += next.value.length;
      }
    }
    const take = Math.min(wanted, this.queued - (this.queued % FRAME_BYTES));
    const joined = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks.length = 0;
    const rest = joined.subarray(take);
    if (rest.length > 0 && !(this.ended && rest.length < FRAME_BYTES)) this.chunks.push(rest);
    this.queued = this.chunks.length ? rest.length : 0;
    // A copy, so the samples are aligned for an Int16Array whatever the chunk's offset.
    const samples = new Int16Array(take / 2);
    Buffer.from(samples.buffer).set(joined.subarray(0, take));
    return samples;
  }

  /** Puts frames back in front (read ahead to align), or silence to delay this side. */
  unread(frames: Int16Array): void {
    const bytes = Buffer.from(frames.buffer, frames.byteOffset, frames.byteLength);
    this.chunks.unshift(bytes);
    this.queued += bytes.length;
  }

  async skip(frames: number): Promise<void> {
    for (let left = frames; left > 0;) {
      const got = (await this.read(Math.min(left, ANALYSIS.sampleRate))).length / ANALYSIS.channels;
      if (got === 0) return;
      left -= got;
    }
  }
}

/** ffmpeg decoding a file's first audio stream to stereo int16 at the analysis rate, on a pipe. */
function decodeForAnalysis(tools: MediaTools, input: string) {
  const child = tracked(
    spawn(
      ...toolCommand(tools.ffmpeg, [
        ...['-hide_banner', '-nostats', '-loglevel', 'error', '-i', input, '-map', '0:a:0'],
        ...['-ac', String(ANALYSIS.channels), '-ar', String(ANALYSIS.sampleRate)],
        ...['-af', `lowpass=f=${ANALYSIS.bandHz},lowpass=f=${ANALYSIS.bandHz}`, '-f', 's16le', 'pipe:1'],
      ]),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    ),
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  let stopped = false;
  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0 || stopped) resolve();
      else reject(new MediaError(stderr.trim().split('\n').pop() || 'The audio could not be decoded.'));
    });
  });
  // Failures surface through `exited`; an unawaited rejection must not take the process down.
  exited.catch(() => undefined);
  return {
    reader: new PcmReader(child.stdout),
    exited,
    stop: () => {
      stopped = true;
      // The process only reports closed once its output is: output no one will read is dropped.
      child.stdout.destroy();
      child.kill('SIGKILL');
    },
  };
}

export interface DifferenceResult {
  /** How much later B starts than A, in seconds; null when that could not be found for sure. */
  offsetSeconds: number | null;
  /** The alignment's evidence: its correlation peak over the best other peak, and how alike A and B are there. */
  margin: number;
  correlation: number;
  /** B's level and tilt against A's over the whole file, at full bandwidth. */
  overall: OverallDifference;
  windowSeconds: number;
  levels: Float32Array;
}

/**
 * The difference lane of B against A in one streaming pass over both files: the opening stretch
 * of each is read ahead to find B's offset by cross-correlation, then both are read side by side a
 * second at a time with B shifted onto A's timeline. Memory stays flat whatever the length.
 */
export async function analyzeDifference(
  tools: MediaTools,
  inputs: { a: string; b: string },
  options: { durationSeconds: number; onProgress?: (fraction: number) => Promise<void> | void },
): Promise<DifferenceResult> {
  const rate = ANALYSIS.sampleRate;
  const a = decodeForAnalysis(tools, inputs.a);
  const b = decodeForAnalysis(tools, inputs.b);
  // The spectra are read by their own decoders meanwhile; a failure surfaces when they are awaited.
  const spectra = Promise.all([
    bandLevels(tools, inputs.a, options.durationSeconds),
    bandLevels(tools, inputs.b, options.durationSeconds),
  ]);
  spectra.catch(() => undefined);
  try {
    const head = (ANALYSIS.alignSeconds + ANALYSIS.maxOffsetSeconds) * rate;
    const [headA, headB] = [await a.reader.read(head), await b.reader.read(head)];
    const { lag, fraction, sure, margin, correlation } = findOffset(
      monoOf(headA),
      monoOf(headB),
      ANALYSIS.maxOffsetSeconds * rate,
    );
    a.reader.unread(headA);
    b.reader.unread(headB);
    // B is read from H − 1 frames before its aligned position: the filter reads around each frame.
    const shift = lag - ANALYSIS.halfTaps + 1;
    if (shift > 0) await b.reader.skip(shift);
    else if (shift < 0) b.reader.unread(new Int16Array(-shift * ANALYSIS.channels));
    const align = new FractionalAligner(fractionalTaps(fraction));

    const meter = new DifferenceMeter(Math.round(ANALYSIS.windowSeconds * rate));
    const expected = Math.max(1, options.durationSeconds * rate);
    let done = 0;
    let reported = 0;
    for (;;) {
      const blockA = await a.reader.read(rate);
      if (blockA.length === 0) break;
      const frames = blockA.length / ANALYSIS.channels;
      // Once B has ended, the rest of A is compared with silence.
      meter.push(blockA, align.next(await b.reader.read(frames + align.lookahead - align.held), frames));
      done += frames;
      const progress = Math.min(1, done / expected);
      if (progress - reported >= 0.05) {
        reported = progress;
        await options.onProgress?.(progress);
      }
    }
    await a.exited;
    // B may run on past A's end: what follows is not on A's timeline.
    b.stop();
    await b.exited;
    const [spectrumA, spectrumB] = await spectra;
    return {
      offsetSeconds: sure ? (lag + fraction) / rate : null,
      margin,
      correlation,
      overall: overallDifference(spectrumA, spectrumB),
      windowSeconds: ANALYSIS.windowSeconds,
      levels: meter.finish(),
    };
  } finally {
    a.stop();
    b.stop();
  }
}

/**
 * Reads B between its samples: each output frame is the taps over the 2H input frames from it on,
 * so the filter holds the last 2H − 1 frames (stereo) from one block to the next.
 */
class FractionalAligner {
  readonly lookahead: number;
  private carry = new Float32Array(0);

  constructor(private readonly taps: Float32Array) {
    this.lookahead = taps.length - 1;
  }

  /** Frames held from the last block. */
  get held(): number {
    return this.carry.length / ANALYSIS.channels;
  }

  next(input: Int16Array, frames: number): Float32Array {
    const channels = ANALYSIS.channels;
    const span = frames + this.lookahead;
    const x = new Float32Array(span * channels);
    x.set(this.carry);
    for (let i = 0; i < input.length && this.carry.length + i < x.length; i++) x[this.carry.length + i] = input[i]!;
    const out = new Float32Array(frames * channels);
    const taps = this.taps;
    for (let n = 0; n < frames; n++) {
      for (let c = 0; c < channels; c++) {
        let y = 0;
        for (let j = 0; j < taps.length; j++) y += taps[j]! * x[(n + j) * channels + c]!;
        out[n * channels + c] = y;
      }
    }
    this.carry = x.slice(frames * channels);
    return out;
  }
}
