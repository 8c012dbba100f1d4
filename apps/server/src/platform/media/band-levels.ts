import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fft } from './fft';
import { MediaError, type MediaTools } from './ffmpeg';
import { toolCommand, tracked } from './tool-processes';

/** The spectrum of a whole file in a few bands, at full bandwidth (the lane's analysis stops at 6 kHz). */
export const BANDS = {
  sampleRate: 48_000,
  /** Band edges in Hz: below 125, 125–250, … 4–8 kHz, above 8 kHz. */
  edgesHz: [0, 125, 250, 500, 1000, 2000, 4000, 8000, 24_000],
  fftSize: 4096,
  /** At most this many blocks are measured, spread evenly over the file: an hour costs what 3 minutes do. */
  maxBlocks: 2000,
} as const;

/**
 * Mean power per band of a file's first audio stream (dB, both channels), from a Hann-windowed FFT
 * of blocks spread over the whole file. Streams: memory stays one block whatever the length.
 */
export async function bandLevels(
  tools: MediaTools,
  input: string,
  /** A's length: a longer B is measured over as much of it. */
  durationSeconds: number,
): Promise<number[]> {
  const child = tracked(
    spawn(
      ...toolCommand(tools.ffmpeg, [
        ...['-hide_banner', '-nostats', '-loglevel', 'error', '-i', input, '-map', '0:a:0'],
        ...['-ac', '2', '-ar', String(BANDS.sampleRate), '-f', 's16le', 'pipe:1'],
      ]),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    ),
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve()
        : reject(new MediaError(stderr.trim().split('\n').pop() || 'The audio could not be decoded.')),
    );
  });
  exited.catch(() => undefined);
  try {
    const n = BANDS.fftSize;
    const blocks = Math.max(1, Math.ceil((durationSeconds * BANDS.sampleRate) / n));
    const stride = Math.max(1, Math.ceil(blocks / BANDS.maxBlocks));
    const window = Float64Array.from({ length: n }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n));
    const binOf = (hz: number) => Math.min(n / 2, Math.round((hz / BANDS.sampleRate) * n));
    const power = new Float64Array(BANDS.edgesHz.length - 1);
    let measured = 0;
    let block = 0;
    for await (const frames of blocksOf(child.stdout, n)) {
      // What runs on past A's end (a longer reference track) is not compared: it is not read either.
      if (block >= blocks) break;
      if (block++ % stride !== 0) continue;
      // Left as the real part, right as the imaginary: one FFT gives both channels' power.
      const re = new Float64Array(n);
      const im = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        re[i] = (frames[2 * i]! / 32768) * window[i]!;
        im[i] = (frames[2 * i + 1]! / 32768) * window[i]!;
      }
      fft(re, im);
      for (let band = 0; band < power.length; band++) {
        for (let k = Math.max(1, binOf(BANDS.edgesHz[band]!)); k < binOf(BANDS.edgesHz[band + 1]!); k++) {
          const m = n - k;
          power[band]! += (re[k]! ** 2 + im[k]! ** 2 + re[m]! ** 2 + im[m]! ** 2) / 2;
        }
      }
      measured++;
    }
    if (block < blocks) await exited;
    return [...power].map((p) => 10 * Math.log10(Math.max(p / Math.max(1, measured), 1e-20)));
  } finally {
    child.stdout.destroy();
    child.kill('SIGKILL');
  }
}

/** Whole blocks of `frames` interleaved stereo int16 frames from a stream; a last partial block is left out. */
async function* blocksOf(stream: Readable, frames: number): AsyncGenerator<Int16Array> {
  const bytes = frames * 4;
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= bytes) {
      // A copy, so the samples are aligned for an Int16Array whatever the chunk's offset.
      const block = new Int16Array(frames * 2);
      Buffer.from(block.buffer).set(pending.subarray(0, bytes));
      pending = pending.subarray(bytes);
      yield block;
    }
  }
}

export interface OverallDifference {
  /** B's level against A's, dB: the median of the bands' differences, so a shelf does not move it. */
  levelDb: number;
  /** Each band's difference beyond that level, dB (positive: B has more there). */
  bands: { fromHz: number; toHz: number; db: number }[];
}

/** Bands this far below A's loudest hold next to nothing: their difference says nothing. */
const EMPTY_BAND_DB = 60;

/** How B's spectrum differs from A's over the whole file: a level, and a tilt per band. */
export function overallDifference(a: number[], b: number[]): OverallDifference {
  const loudest = Math.max(...a);
  const used = a.map((level, i) => i).filter((i) => a[i]! > loudest - EMPTY_BAND_DB && Number.isFinite(b[i]));
  const differences = used.map((i) => b[i]! - a[i]!).sort((x, y) => x - y);
  const middle = differences.length >> 1;
  const median =
    differences.length === 0
      ? 0
      : differences.length % 2
        ? differences[middle]!
        : (differences[middle - 1]! + differences[middle]!) / 2;
  const round = (db: number) => Math.round(db * 10) / 10;
  return {
    levelDb: round(median),
    bands: used.map((i) => ({
      fromHz: BANDS.edgesHz[i]!,
      toHz: BANDS.edgesHz[i + 1]!,
      db: round(b[i]! - a[i]! - median),
    })),
  };
}
