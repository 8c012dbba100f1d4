import { spawn } from 'node:child_process';
import { open, rename, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { MediaError, type MediaTools } from '../../media/ffmpeg';
import { toolCommand, tracked } from '../../media/tool-processes';
import { readWavLayout } from '../../media/wav-peaks';
import type { ProcessorRun } from '../processor';

/** Frames and rate of a PCM or float WAV, read from its header alone. */
export async function wavFrames(path: string): Promise<{ frames: number; sampleRate: number; channels: number }> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await file.read(head, 0, head.length, 0);
    const layout = readWavLayout(head, size);
    if (!layout) throw new MediaError('The input is not a PCM or float WAV file.');
    const frameBytes = (layout.bitsPerSample / 8) * layout.channels;
    return { frames: layout.dataLength / frameBytes, sampleRate: layout.sampleRate, channels: layout.channels };
  } finally {
    await file.close();
  }
}

/** What the processors write: the interface's 44.1 kHz stereo 32-bit float WAV. */
export const OUTPUT_FORMAT = ['-ar', '44100', '-ac', '2', '-c:a', 'pcm_f32le', '-f', 'wav'];

export interface FilterJob {
  input: string;
  output: string;
  /** Further inputs after the main one (`[1:a]`, `[2:a]`…), e.g. an impulse response. */
  extraInputs?: string[];
  /** A -filter_complex graph reading `[0:a]` (and the extra inputs) and writing `[out]`. */
  graph: string;
  /** Length of the input, for progress. */
  frames: number;
  sampleRate: number;
}

/** The abort reason as an Error, so callers see why (the task was cancelled, the node stops). */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'The processing was cancelled.', 'AbortError');
}

/**
 * Runs ffmpeg over one file with a filter graph, streaming from disk to disk (ffmpeg holds only its
 * filters' buffers), reporting progress from its `-progress` lines. The output is written under a
 * temporary name and renamed at the end, so a cancelled or failed run never leaves a file that looks
 * finished. Abort kills the process at once.
 */
export async function runFilterGraph(tools: MediaTools, job: FilterJob, run: ProcessorRun): Promise<void> {
  if (run.signal.aborted) throw abortError(run.signal);
  const partial = `${job.output}.part`;
  const args = [
    ...['-hide_banner', '-nostats', '-loglevel', 'error', '-nostdin'],
    ...['-i', job.input],
    ...(job.extraInputs ?? []).flatMap((extra) => ['-i', extra]),
    ...['-filter_complex', job.graph, '-map', '[out]'],
    ...OUTPUT_FORMAT,
    ...['-stats_period', '0.25', '-progress', 'pipe:3', '-y', partial],
  ];
  const child = tracked(spawn(...toolCommand(tools.ffmpeg, args), { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] }));
  let stderrTail = '';
  (child.stderr as Readable).on('data', (d: Buffer) => (stderrTail = (stderrTail + d.toString()).slice(-4000)));
  const totalUs = (job.frames / job.sampleRate) * 1e6;
  let reported = 0;
  (child.stdio[3] as Readable).on('data', (d: Buffer) => {
    const matches = [...d.toString().matchAll(/out_time_us=(\d+)/g)];
    const last = matches.at(-1)?.[1];
    if (last === undefined || totalUs <= 0) return;
    const fraction = Math.min(0.99, Number(last) / totalUs);
    // Progress is recorded by the stage; a report per percent is plenty.
    if (fraction - reported >= 0.01) {
      reported = fraction;
      void Promise.resolve(run.onProgress(fraction)).catch(() => undefined);
    }
  });
  const kill = () => child.kill('SIGKILL');
  run.signal.addEventListener('abort', kill, { once: true });
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (run.signal.aborted) throw abortError(run.signal);
    if (code !== 0) throw new MediaError(stderrTail.trim().split('\n').pop() || 'ffmpeg could not process the audio.');
    await rename(partial, job.output);
    await run.onProgress(1);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    run.signal.removeEventListener('abort', kill);
  }
}
