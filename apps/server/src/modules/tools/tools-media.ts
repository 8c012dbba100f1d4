import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PeaksFile } from '@mixroom/contracts';
import { decodePeaks, MediaError, probe, type MediaTools } from '../../platform/media/ffmpeg';
import { toolCommand, tracked } from '../../platform/media/tool-processes';

/** The processors' working format: 44.1 kHz stereo 32-bit float WAV. */
const WORK_FORMAT = ['-ar', '44100', '-ac', '2', '-c:a', 'pcm_f32le', '-f', 'wav'];
/** What users download: AAC in an M4A at 256 kbit/s, a size and quality every player takes. */
const M4A = ['-c:a', 'aac', '-b:a', '256k', '-movflags', '+faststart', '-f', 'mp4'];

function ffmpeg(tools: MediaTools, args: string[], signal?: AbortSignal, stdin?: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = tracked(
      spawn(...toolCommand(tools.ffmpeg, ['-hide_banner', '-nostats', '-loglevel', 'error', ...args]), {
        stdio: [stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'],
      }),
    );
    if (stdin && child.stdin) {
      // ffmpeg may stop reading early (it failed): its closed pipe is its error, told on close.
      child.stdin.on('error', () => undefined);
      stdin.once('error', (error) => {
        child.kill('SIGKILL');
        reject(error);
      });
      stdin.pipe(child.stdin);
    }
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const abort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', abort, { once: true });
    child.once('error', reject);
    child.once('close', (code) => {
      signal?.removeEventListener('abort', abort);
      if (code === 0) resolve();
      else reject(new MediaError(stderr.trim().split('\n').pop() || 'The audio could not be processed.'));
    });
  });
}

/** Decodes any input to the processors' format. */
export function decodeToWork(tools: MediaTools, input: string, output: string, signal?: AbortSignal): Promise<void> {
  return ffmpeg(tools, ['-i', input, '-map', '0:a:0', ...WORK_FORMAT, '-y', output], signal);
}

/** Encodes a processor's WAV as the M4A users download. */
export function encodeM4a(tools: MediaTools, input: string, output: string, signal?: AbortSignal): Promise<void> {
  return ffmpeg(tools, ['-i', input, '-map', '0:a:0', ...M4A, '-y', output], signal);
}

/** Where a float WAV's samples are and how they are laid out (`WavFloatReader` reads it). */
export interface FloatWavLayout {
  path: string;
  dataOffset: number;
  channels: number;
  sampleRate: number;
}

/**
 * The first `frames` frames of a float WAV still being written, as FLAC (16-bit, lossless from
 * there): the preview of a running separation. Only those bytes are read, so what the processor
 * writes after them meanwhile does not matter.
 */
export function encodeFlacPrefix(
  tools: MediaTools,
  wav: FloatWavLayout,
  frames: number,
  output: string,
  signal?: AbortSignal,
): Promise<void> {
  const bytes = frames * wav.channels * 4;
  const source = createReadStream(wav.path, { start: wav.dataOffset, end: wav.dataOffset + bytes - 1 });
  const raw = ['-f', 'f32le', '-ar', String(wav.sampleRate), '-ac', String(wav.channels), '-i', 'pipe:0'];
  return ffmpeg(tools, [...raw, '-c:a', 'flac', '-sample_fmt', 's16', '-f', 'flac', '-y', output], signal, source);
}

/**
 * The Revoice result: the accompaniment and the effected voice summed sample for sample (both are
 * the input's length), without amix's level halving so the song keeps its loudness; a limiter
 * keeps the sum from clipping.
 */
export function mixToM4a(
  tools: MediaTools,
  accompaniment: string,
  voice: string,
  output: string,
  signal?: AbortSignal,
): Promise<void> {
  const graph = '[0:a][1:a]amix=inputs=2:duration=longest:normalize=0,alimiter=limit=0.98[out]';
  return ffmpeg(
    tools,
    ['-i', accompaniment, '-i', voice, '-filter_complex', graph, '-map', '[out]', ...M4A, '-y', output],
    signal,
  );
}

/** The duration ffprobe reads, or null when it reads none (an unknown duration counts as too long). */
export async function durationOf(tools: MediaTools, path: string): Promise<number | null> {
  try {
    const facts = await probe(tools, path);
    return Number.isFinite(facts.durationSeconds) && facts.durationSeconds > 0 ? facts.durationSeconds : null;
  } catch {
    return null;
  }
}

/** The player's peaks of an output (the storage peaks format), or null when it could not be decoded. */
export async function peaksOf(tools: MediaTools, path: string): Promise<PeaksFile | null> {
  try {
    const facts = await probe(tools, path);
    const decoded = await decodePeaks(tools, path, {
      sampleRate: facts.sampleRate,
      channels: facts.channels,
      durationSeconds: facts.durationSeconds,
    });
    return decoded.bins.file();
  } catch {
    return null;
  }
}

/** Writes a stream to a file. */
export async function streamToFile(stream: Readable, path: string): Promise<void> {
  await pipeline(stream, createWriteStream(path));
}
