import { spawn } from 'node:child_process';
import { fft } from '../../media/fft';
import { MediaError, type MediaTools } from '../../media/ffmpeg';
import { toolCommand, tracked } from '../../media/tool-processes';

/**
 * The tempo of a file, for the effects stage's tempo-synced delay and reverb. The spec detects it on
 * the client and falls back to 120 bpm; Mixroom detects it on the worker, the same way each time:
 *
 * 1. an onset-strength envelope: spectral flux (how much louder each frequency got since the last
 *    frame, log-compressed, rises only) at ~86 frames per second, minus its local mean;
 * 2. its autocorrelation: a steady beat makes peaks at every multiple of the beat period;
 * 3. a comb over 60–200 bpm: each tempo scores its period's first four multiples, less a little of
 *    what lies halfway between them (half the true tempo hits those; the true tempo does not), with
 *    a gentle preference for tempos near 120 between a tempo, its double and its half.
 *
 * When no tempo stands out (speech, noise, silence, a file shorter than a few beats) it says so and
 * gives the spec's default, 120.
 */
export const DEFAULT_BPM = 120;
export const BPM_RANGE = { min: 60, max: 200 } as const;

export interface TempoEstimate {
  bpm: number;
  /** False when the answer is the 120 bpm default because no tempo stood out. */
  confident: boolean;
  /** The winning comb's mean normalised autocorrelation (about 0 for noise, near 1 for a click). */
  strength: number;
}

const SAMPLE_RATE = 11_025; // kicks, snares and clicks are all below 5.5 kHz
const FRAME = 512;
const HOP = 128;
export const ENVELOPE_RATE = SAMPLE_RATE / HOP; // ~86.1 frames per second
/** Six minutes are plenty to hear a tempo; a longer file is judged on its first six. */
const MAX_SECONDS = 360;
/** Below this comb strength the tempo is a guess: the default is given instead. */
const MIN_STRENGTH = 0.15;
const COMB_MULTIPLES = 4;
/**
 * How much the off-beats (halfway between the comb's teeth) count against a tempo. Small: it only
 * has to break the tie between a click track's tempo and its half, which hit the same peaks; a
 * bigger weight would punish a drum loop's true tempo for its hi-hats on the eighths.
 */
const OFF_BEAT_WEIGHT = 0.1;
/**
 * A beat pattern repeats every bar and every beat alike (kick–snare: every two beats), so the comb
 * at half or double the tempo can score as high as the tempo itself. Like people tapping along, it
 * leans towards moderate tempos: a log-normal weight around 120 bpm, one octave wide.
 */
const prior = (bpm: number) => Math.exp(-0.5 * Math.log2(bpm / DEFAULT_BPM) ** 2);
/** Flux below this (a steady tone, rounding noise) holds no onsets, however periodic it looks. */
const MIN_ONSET = 0.05;

/**
 * Spectral flux of mono samples arriving in chunks, one value per hop. Levels are log(1 + |X|): loud
 * partials are compressed so a soft snare still counts, yet quiet noise (hi-hats) stays small next
 * to a kick — a harder compression makes every hi-hat as strong as the beat.
 */
export class OnsetEnvelope {
  private readonly window = Float64Array.from(
    { length: FRAME },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME),
  );
  private previous: Float64Array | null = null;
  private buffer = new Float32Array(FRAME * 8);
  private filled = 0;
  private readonly values: number[] = [];

  push(samples: Float32Array): void {
    if (this.filled + samples.length > this.buffer.length) {
      const grown = new Float32Array(Math.max(this.buffer.length * 2, this.filled + samples.length));
      grown.set(this.buffer.subarray(0, this.filled));
      this.buffer = grown;
    }
    this.buffer.set(samples, this.filled);
    this.filled += samples.length;
    let start = 0;
    for (; start + FRAME <= this.filled; start += HOP) this.frame(this.buffer.subarray(start, start + FRAME));
    this.buffer.copyWithin(0, start, this.filled);
    this.filled -= start;
  }

  private frame(samples: Float32Array): void {
    const re = new Float64Array(FRAME);
    const im = new Float64Array(FRAME);
    for (let i = 0; i < FRAME; i++) re[i] = samples[i]! * this.window[i]!;
    fft(re, im);
    const level = new Float64Array(FRAME / 2);
    for (let k = 1; k < FRAME / 2; k++) level[k] = Math.log1p(Math.hypot(re[k]!, im[k]!));
    let flux = 0;
    if (this.previous) for (let k = 1; k < FRAME / 2; k++) flux += Math.max(0, level[k]! - this.previous[k]!);
    this.previous = level;
    this.values.push(flux);
  }

  /** The envelope less its local mean (~0.5 s), rises only, lightly smoothed so peaks span a few frames. */
  finish(): Float32Array {
    const raw = this.values;
    const half = Math.round(ENVELOPE_RATE / 4);
    const sums = new Float64Array(raw.length + 1);
    raw.forEach((v, i) => (sums[i + 1] = sums[i]! + v));
    const detrended = raw.map((v, i) => {
      const [from, to] = [Math.max(0, i - half), Math.min(raw.length, i + half + 1)];
      return Math.max(0, v - (sums[to]! - sums[from]!) / (to - from));
    });
    return Float32Array.from(
      detrended,
      (v, i) => (detrended[i - 1] ?? v) * 0.25 + v * 0.5 + (detrended[i + 1] ?? v) * 0.25,
    );
  }
}

/** The tempo of an onset envelope sampled at `rate` frames per second (see the file's comment). */
export function tempoOfEnvelope(envelope: Float32Array, rate = ENVELOPE_RATE): TempoEstimate {
  const unsure = (strength = 0): TempoEstimate => ({ bpm: DEFAULT_BPM, confident: false, strength });
  const n = envelope.length;
  const maxLag = Math.min(Math.ceil((COMB_MULTIPLES * 60 * rate) / BPM_RANGE.min) + 2, Math.floor(n / 2));
  const mean = envelope.reduce((sum, v) => sum + v, 0) / Math.max(1, n);
  const centred = Float64Array.from(envelope, (v) => v - mean);
  const energy = centred.reduce((sum, v) => sum + v * v, 0);
  // Silence or a steady sound, or too short to hold two slow beats.
  const loudest = envelope.reduce((most, v) => Math.max(most, v), 0);
  if (loudest < MIN_ONSET || energy <= 0 || maxLag < (2 * 60 * rate) / BPM_RANGE.min) return unsure();
  // Normalised, unbiased autocorrelation: 1 at lag 0, whatever the overlap left at a long lag.
  const acf = new Float64Array(maxLag + 2);
  for (let lag = 0; lag < acf.length; lag++) {
    let sum = 0;
    for (let i = 0; i + lag < n; i++) sum += centred[i]! * centred[i + lag]!;
    acf[lag] = sum / (n - lag) / (energy / n);
  }
  const at = (lag: number) => {
    const i = Math.floor(lag);
    if (i + 1 >= acf.length) return 0;
    return acf[i]! + (acf[i + 1]! - acf[i]!) * (lag - i);
  };
  const score = (bpm: number) => {
    const period = (60 * rate) / bpm;
    let on = 0;
    let off = 0;
    let used = 0;
    for (let k = 1; k <= COMB_MULTIPLES && k * period < acf.length - 1; k++, used++) {
      on += at(k * period);
      off += at((k - 0.5) * period);
    }
    return used === 0 ? -Infinity : (on - OFF_BEAT_WEIGHT * off) / used;
  };
  // Coarse, then fine around the best: the comb's peaks are a few frames wide.
  let best = { bpm: DEFAULT_BPM, score: -Infinity, weighted: -Infinity };
  const consider = (bpm: number) => {
    const s = score(bpm);
    const weighted = s * prior(bpm);
    if (weighted > best.weighted) best = { bpm, score: s, weighted };
  };
  for (let bpm = BPM_RANGE.min; bpm <= BPM_RANGE.max; bpm += 0.5) consider(bpm);
  const coarse = best.bpm;
  for (let bpm = coarse - 0.5; bpm <= coarse + 0.5; bpm += 0.02) consider(bpm);
  if (!(best.score >= MIN_STRENGTH)) return unsure(Math.max(0, best.score));
  return { bpm: Math.round(best.bpm * 10) / 10, confident: true, strength: best.score };
}

/**
 * Decodes the file's first audio stream (any format ffmpeg reads) to mono at 11.025 kHz and folds
 * it into the onset envelope as it streams: memory holds the envelope (~86 numbers a second), never
 * the audio. A file ffmpeg cannot read is a MediaError; an aborted signal stops ffmpeg at once.
 */
export async function detectBpm(tools: MediaTools, input: string, signal?: AbortSignal): Promise<TempoEstimate> {
  signal?.throwIfAborted();
  const args = [
    ...['-hide_banner', '-nostats', '-loglevel', 'error', '-nostdin', '-i', input, '-map', '0:a:0'],
    ...['-t', String(MAX_SECONDS), '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 'f32le', 'pipe:1'],
  ];
  const child = tracked(spawn(...toolCommand(tools.ffmpeg, args), { stdio: ['ignore', 'pipe', 'pipe'] }));
  const kill = () => child.kill('SIGKILL');
  signal?.addEventListener('abort', kill, { once: true });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  exited.catch(() => undefined); // awaited below; a spawn error must not go unhandled meanwhile
  try {
    const envelope = new OnsetEnvelope();
    let carry = Buffer.alloc(0);
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const whole = bytes.length - (bytes.length % 4);
      // A copy: the chunk's offset need not be aligned for a Float32Array.
      const samples = new Float32Array(whole / 4);
      Buffer.from(samples.buffer).set(bytes.subarray(0, whole));
      envelope.push(samples);
      carry = Buffer.from(bytes.subarray(whole));
    }
    const code = await exited;
    signal?.throwIfAborted();
    if (code !== 0) throw new MediaError(stderr.trim().split('\n').pop() || 'The audio could not be decoded.');
    return tempoOfEnvelope(envelope.finish());
  } finally {
    signal?.removeEventListener('abort', kill);
    child.kill('SIGKILL');
  }
}
