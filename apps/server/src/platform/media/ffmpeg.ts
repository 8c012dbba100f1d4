import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { PeakAccumulator, type PeakBins } from './peaks';
import { toolCommand, tracked } from './tool-processes';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

const works = (binary: string) => spawnSync(binary, ['-version'], { stdio: 'ignore' }).status === 0;

/** The folder where the start command puts the npm builds of ffmpeg on a machine that has none. */
function fallbackFolder(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.cache', 'mixroom-media', 'package.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * FFMPEG_PATH / FFPROBE_PATH, else the system's (Debian's ffmpeg), else the static builds published
 * on npm as @ffmpeg-installer and @ffprobe-installer: installed as dependencies, or fetched by the
 * start command into node_modules/.cache/mixroom-media only when the machine has no ffmpeg.
 */
export function locateMediaTools(env: {
  ffmpegPath?: string | undefined;
  ffprobePath?: string | undefined;
}): MediaTools {
  const here = fileURLToPath(import.meta.url);
  const fallback = fallbackFolder(dirname(here));
  const requires = [createRequire(here), ...(fallback ? [createRequire(fallback)] : [])];
  const shipped = (name: string): string | null => {
    for (const require of requires) {
      try {
        return (require(name) as { path: string }).path;
      } catch {
        // not installed this way; try the next
      }
    }
    return null;
  };
  const pick = (configured: string | undefined, system: string, module: string) => {
    if (configured) return configured;
    if (works(system)) return system;
    return shipped(module) ?? system;
  };
  return {
    ffmpeg: pick(env.ffmpegPath, 'ffmpeg', '@ffmpeg-installer/ffmpeg'),
    ffprobe: pick(env.ffprobePath, 'ffprobe', '@ffprobe-installer/ffprobe'),
  };
}

export interface ProbeResult {
  format: string;
  codec: string;
  channels: number;
  sampleRate: number;
  bitDepth: number | null;
  bitRate: number | null;
  durationSeconds: number;
}

/** Why a file could not be processed: `message` is the tool's own words (paths included), for logs only. */
export class MediaError extends Error {
  constructor(
    message: string,
    readonly reason: 'unreadable' | 'no-audio' = 'unreadable',
  ) {
    super(message);
  }
}

function run(binary: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = tracked(spawn(...toolCommand(binary, args), { stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Reads the first audio stream's facts; a file without decodable audio is a MediaError. */
export async function probe(tools: MediaTools, input: string): Promise<ProbeResult> {
  const result = await run(tools.ffprobe, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    input,
  ]);
  if (result.code !== 0) throw new MediaError(result.stderr.trim().split('\n').pop() || 'The file could not be read.');
  const parsed = JSON.parse(result.stdout) as {
    streams?: {
      codec_type?: string;
      codec_name?: string;
      channels?: number;
      sample_rate?: string;
      bits_per_raw_sample?: string;
      bits_per_sample?: number;
      duration?: string;
      bit_rate?: string;
    }[];
    format?: { format_name?: string; duration?: string; bit_rate?: string };
  };
  const audio = parsed.streams?.find((s) => s.codec_type === 'audio');
  if (!audio) throw new MediaError('The file has no audio stream.', 'no-audio');
  const duration = Number(audio.duration ?? parsed.format?.duration ?? NaN);
  if (!Number.isFinite(duration) || duration <= 0) throw new MediaError('The audio has no duration.');
  const bits = Number(audio.bits_per_raw_sample ?? audio.bits_per_sample ?? 0);
  return {
    format: parsed.format?.format_name ?? 'unknown',
    codec: audio.codec_name ?? 'unknown',
    channels: audio.channels ?? 0,
    sampleRate: Number(audio.sample_rate ?? 0),
    bitDepth: bits > 0 ? bits : null,
    bitRate: parsed.format?.bit_rate ? Number(parsed.format.bit_rate) : null,
    durationSeconds: duration,
  };
}

/** A measurement that doesn't exist (a silent file's true peak, its gated-out loudness) is null. */
export type Loudness = { integrated: number | null; truePeak: number | null; range: number | null };

/** ebur128's floor: every block below the absolute gate, so nothing was integrated. */
const GATED_OUT_LUFS = -70;

// '-inf' (the true peak of digital silence) is no number: JSON would store it as null anyway.
const number = (text: string | undefined) => {
  const value = Number(text);
  return text === undefined || !Number.isFinite(value) ? null : value;
};

/** Parses the summary ebur128 prints when the stream ends. */
export function parseEbur128(stderr: string): Loudness | null {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) return null;
  const summary = stderr.slice(at);
  const measured = number(/I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1]);
  const truePeak = number(/Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1]);
  // Digital silence: no block passes the gate, so there is no loudness and no range to give.
  const integrated = measured !== null && measured > GATED_OUT_LUFS ? measured : null;
  const range = integrated === null ? null : number(/LRA:\s+(-?[\d.]+) LU/.exec(summary)?.[1]);
  return { integrated, truePeak, range };
}

function collect(
  child: ReturnType<typeof spawn>,
  onProgressLine?: (line: string) => void,
): Promise<{ code: number | null; stderrTail: string }> {
  let stderrTail = '';
  // ebur128 logs a line per 100 ms; keep only what a summary or an error needs.
  (child.stderr as Readable).on('data', (d: Buffer) => (stderrTail = (stderrTail + d.toString()).slice(-8000)));
  if (onProgressLine) (child.stdio[3] as Readable).on('data', (d: Buffer) => onProgressLine(d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderrTail }));
  });
}

const failure = (run: { stderrTail: string }, fallback: string) =>
  new MediaError(run.stderrTail.trim().split('\n').pop() || fallback);

/** Lowers a background process's CPU priority, so what makes a version ready for review goes first. */
function runInBackground(child: ReturnType<typeof spawn>): void {
  if (!child.pid) return;
  try {
    setPriority(child.pid, 10);
  } catch {
    // Not permitted here: it simply runs at normal priority.
  }
}

/**
 * EBU R128 integrated loudness, loudness range and true peak (4× oversampling) of the first audio
 * stream: ffmpeg's ebur128, the reference the loudness dialog is checked against.
 */
export async function measureLoudness(tools: MediaTools, input: string): Promise<Loudness | null> {
  const args = [
    '-hide_banner',
    '-nostats',
    '-i',
    input,
    '-map',
    '0:a:0',
    '-af',
    'ebur128=peak=true',
    '-f',
    'null',
    '-',
  ];
  const child = tracked(spawn(...toolCommand(tools.ffmpeg, args), { stdio: ['ignore', 'ignore', 'pipe'] }));
  runInBackground(child);
  const run = await collect(child);
  if (run.code !== 0) throw failure(run, 'The loudness could not be measured.');
  return parseEbur128(run.stderrTail);
}

/**
 * Output options of the lossy preview every browser plays: AAC-LC in MP4 (Chromium, Firefox and
 * Safari; the native `aac` encoder of every ffmpeg build), moov first so playback starts at once.
 * The muxer's edit list hides the encoder's 1024 priming samples, so times in the preview match
 * the original's. 44.1 and 48 kHz are the rates every platform decoder accepts (Windows' AAC
 * decoder, which Firefox uses there, takes no other), and more than two channels are folded to stereo.
 */
export function lossyPreviewOptions(media: { sampleRate: number; channels: number }): string[] {
  const stereo = media.channels !== 1;
  return [
    '-vn',
    '-c:a',
    'aac',
    '-b:a',
    stereo ? '256k' : '128k',
    '-ar',
    media.sampleRate === 44100 ? '44100' : '48000',
    ...(media.channels > 2 ? ['-ac', '2'] : []),
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
  ];
}

/** Lines of ffmpeg's `-v error` output that mean the decoder met bad data (damage, a cut-off tail). */
export function decodeProblems(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) =>
      /invalid data|truncat|corrupt|error while decoding|decode_frame\(\) failed|invalid residual|header missing|overread/i.test(
        line,
      ),
    );
}

export interface DecodedPeaks {
  bins: PeakBins;
  /** What the decoder reported about bad data; empty for a clean file. */
  problems: string[];
}

/** Where a decode's PCM goes besides the peaks: the loudness meter (see LoudnessTask), with backpressure. */
export interface PcmSink {
  /** False once the sink is behind; the decode then waits for `drained`. */
  push(chunk: Buffer): boolean;
  drained(): Promise<void>;
  end(): void;
}

/**
 * Waveform peaks through ffmpeg for formats that need decoding (MP3, FLAC, AAC, AIFF...): mono
 * 16-bit PCM at the file's own rate, folded as it streams; plus, when asked, the lossy preview
 * and 32-bit float PCM of every channel for the loudness meter (`pcm`), all from the same decode.
 */
export async function decodePeaks(
  tools: MediaTools,
  input: string,
  options: {
    sampleRate: number;
    channels: number;
    durationSeconds: number;
    previewPath?: string;
    pcm?: PcmSink;
    onProgress?: (fraction: number) => void;
  },
): Promise<DecodedPeaks> {
  const args = [...firstAudioOf(input), '-ac', '1', '-f', 's16le', 'pipe:1'];
  if (options.previewPath) args.push('-map', '0:a:0', ...lossyPreviewOptions(options), '-y', options.previewPath);
  args.push('-progress', 'pipe:3');
  if (options.pcm) args.push('-map', '0:a:0', '-f', 'f32le', 'pipe:4');
  const child = tracked(
    spawn(...toolCommand(tools.ffmpeg, args), { stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] }),
  );
  const peaks = new PeakAccumulator(options.sampleRate);
  child.stdout!.on('data', (chunk: Buffer) => peaks.push(chunk));
  const pcm = options.pcm;
  if (pcm) {
    const floats = child.stdio[4] as Readable;
    floats.on('data', (chunk: Buffer) => {
      if (pcm.push(chunk)) return;
      // ffmpeg blocks on the full pipe meanwhile: the decode runs at the meter's pace, memory stays bounded.
      floats.pause();
      void pcm.drained().then(() => floats.resume());
    });
    floats.once('end', () => pcm.end());
  }
  const run = await collect(child, (text) => {
    const match = /out_time_us=(\d+)/.exec(text);
    if (match && options.onProgress) options.onProgress(Math.min(1, Number(match[1]) / 1e6 / options.durationSeconds));
  });
  if (run.code !== 0) throw failure(run, 'The audio could not be decoded.');
  return { bins: peaks.finish(), problems: decodeProblems(run.stderrTail) };
}

/** ffmpeg reading `input` quietly (errors only, no stats), taking its first audio stream. */
function firstAudioOf(input: string): string[] {
  return ['-hide_banner', '-nostats', '-loglevel', 'error', '-i', input, '-map', '0:a:0'];
}

/** The lossy playback preview of a file browsers may play as it is (see `lossyPreviewOptions`), at low priority. */
export async function encodeLossyPreview(
  tools: MediaTools,
  input: string,
  output: string,
  media: { sampleRate: number; channels: number },
): Promise<void> {
  const args = [...firstAudioOf(input), ...lossyPreviewOptions(media), '-y', output];
  const child = tracked(spawn(...toolCommand(tools.ffmpeg, args), { stdio: ['ignore', 'ignore', 'pipe'] }));
  runInBackground(child);
  const run = await collect(child);
  if (run.code !== 0) throw failure(run, 'The preview could not be encoded.');
}

/**
 * A spectrogram of the whole file as one PNG (time left to right, log frequency up to 11 kHz),
 * which the player stretches under the waveform. Mono at 22.05 kHz keeps ffmpeg's buffer of the
 * whole signal to ~320 MB for an hour of audio.
 */
export async function renderSpectrogram(
  tools: MediaTools,
  input: string,
  output: string,
  size = { width: 4096, height: 256 },
): Promise<void> {
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-i',
    input,
    '-filter_complex',
    `[0:a:0]aformat=channel_layouts=mono,aresample=22050,showspectrumpic=s=${size.width}x${size.height}:legend=0:mode=combined:color=magma:scale=log:fscale=log`,
    '-frames:v',
    '1',
    '-y',
    output,
  ];
  const run = await collect(
    tracked(spawn(...toolCommand(tools.ffmpeg, args), { stdio: ['ignore', 'ignore', 'pipe'] })),
  );
  if (run.code !== 0)
    throw new MediaError(run.stderrTail.trim().split('\n').pop() || 'The spectrogram could not be rendered.');
}
