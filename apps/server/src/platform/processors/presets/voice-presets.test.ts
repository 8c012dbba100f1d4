import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateMediaTools } from '../../media/ffmpeg';
import { VOICE_IDS, type VoiceInput } from '../processor';
import { wavFrames } from './filter-runner';
import { PresetVoiceConverter, VOICE_CATALOGUE, VOICE_PRESETS } from './voice-presets';

const run = promisify(execFile);
const RATE = 44_100;
const F0 = 196; // G3, a sung note in every voice's range
const tools = locateMediaTools({});
let dir: string;

/** A sung-like note: ten harmonics falling off as 1/k, from 0.3 s to 1.7 s of a 2 s file. */
async function sungNote(path: string, seconds = 2): Promise<void> {
  const harmonics = Array.from({ length: 10 }, (_, k) => `${(0.3 / (k + 1)).toFixed(4)}*sin(2*PI*${F0 * (k + 1)}*t)`);
  const gate = seconds === 2 ? 'between(t,0.3,1.7)*' : '';
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi'],
    ...['-i', `aevalsrc='${gate}(${harmonics.join('+')})':s=${RATE}:d=${seconds}:c=stereo`],
    ...['-c:a', 'pcm_f32le', '-y', path],
  ]);
}

async function monoSamples(path: string): Promise<Float32Array> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', path, '-ac', '1', '-f', 'f32le', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 64 << 20,
  });
  return new Float32Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.length));
}

/**
 * The fundamental by autocorrelation over 0.6–1.4 s: the shortest lag whose correlation is within 10%
 * of the best (so a period's double is not taken for it), refined by a parabola through its peak.
 */
function fundamental(samples: Float32Array): number {
  const from = Math.round(0.6 * RATE);
  const length = Math.round(0.8 * RATE);
  const acf = (lag: number) => {
    let sum = 0;
    for (let i = from; i < from + length; i++) sum += samples[i]! * samples[i + lag]!;
    return sum;
  };
  const lags = Array.from({ length: 600 }, (_, i) => i + 40); // 1100 Hz down to 69 Hz
  const values = lags.map(acf);
  const best = Math.max(...values);
  const i = values.findIndex((v, k) => k > 0 && v >= 0.9 * best && v >= values[k - 1]! && v >= (values[k + 1] ?? 0));
  const [a, b, c] = [values[i - 1]!, values[i]!, values[i + 1]!];
  const period = lags[i]! + (a - c) / (2 * (a - 2 * b + c));
  return RATE / period;
}

/** How far B's loudness envelope (1 ms steps) sits after A's, ms, by cross-correlation. */
function lagMs(a: Float32Array, b: Float32Array): number {
  const env = (x: Float32Array) =>
    Array.from({ length: Math.floor(x.length / 44) }, (_, k) => Math.hypot(...x.subarray(k * 44, k * 44 + 44)));
  const [ea, eb] = [env(a), env(b)];
  let best = { lag: 0, score: -1 };
  for (let lag = -50; lag <= 50; lag++) {
    let score = 0;
    for (let i = 0; i < ea.length; i++) score += ea[i]! * (eb[i + lag] ?? 0);
    if (score > best.score) best = { lag, score };
  }
  return (best.lag * 44 * 1000) / RATE;
}

const cents = (measured: number, expected: number) => 1200 * Math.log2(measured / expected);

const job = (
  input: string,
  output: string,
  voice: VoiceInput['voice'],
  pitch = 0,
  signal = new AbortController().signal,
) => ({
  input,
  output,
  voice,
  pitch,
  signal,
  scratchDir: dir,
  onProgress: () => undefined,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'voice-presets-'));
  await sungNote(join(dir, 'note.wav'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the voice presets catalogue', () => {
  it('lists the six voices in the screen order, Roberto first, each honest about being a preset', () => {
    expect(VOICE_CATALOGUE.map((v) => v.name)).toEqual(['Roberto', 'Susy', 'Nausicaa', 'Chris', 'Ponyo', 'Lilly']);
    expect(VOICE_CATALOGUE.map((v) => v.id)).toEqual([...VOICE_IDS]);
    for (const voice of VOICE_CATALOGUE) expect(voice.description).toMatch(/^A voice preset, not a clone:/);
  });
});

describe('converting a voice with a preset', () => {
  const converter = new PresetVoiceConverter(tools);
  const input = () => join(dir, 'note.wav');

  it.each(VOICE_PRESETS.map((p) => [p.id, p.semitones] as const))(
    '%s moves the sung note by its %d semitones, keeps the length and stays in time',
    async (voice, semitones) => {
      const output = join(dir, `${voice}.wav`);
      const result = await converter.convert(job(input(), output, voice));
      expect(result.engine).toEqual({
        id: 'builtin-voice-presets',
        label: 'voice preset (pitch and formant, no model)',
        kind: 'voice-preset',
      });
      const [before, after] = await Promise.all([monoSamples(input()), monoSamples(output)]);
      expect(Math.abs(cents(fundamental(before), F0))).toBeLessThan(2);
      expect(Math.abs(cents(fundamental(after), F0 * 2 ** (semitones / 12)))).toBeLessThan(15);
      expect((await wavFrames(output)).frames).toBe((await wavFrames(input())).frames);
      expect(Math.abs(lagMs(before, after))).toBeLessThanOrEqual(20);
    },
  );

  it("adds the task's pitch to the voice's own shift", async () => {
    const output = join(dir, 'susy-minus-two.wav');
    await converter.convert(job(input(), output, 'susy', -2));
    expect(Math.abs(cents(fundamental(await monoSamples(output)), F0 * 2 ** (2 / 12)))).toBeLessThan(15);
  });

  it('refuses a pitch beyond two octaves', async () => {
    await expect(converter.convert(job(input(), join(dir, 'x.wav'), 'roberto', 30))).rejects.toThrow(RangeError);
  });

  it('stops when the task is cancelled, leaving no output behind', async () => {
    const long = join(dir, 'long.wav');
    await sungNote(long, 20);
    const output = join(dir, 'cancelled.wav');
    const controller = new AbortController();
    const progress: number[] = [];
    const converting = converter.convert({
      ...job(long, output, 'ponyo', 0, controller.signal),
      onProgress: (fraction) => {
        progress.push(fraction);
        if (fraction < 1) controller.abort(new Error('cancelled by the user'));
      },
    });
    await expect(converting).rejects.toThrow('cancelled by the user');
    expect(progress[0]).toBeLessThan(1);
    expect(existsSync(output)).toBe(false);
    expect((await readdir(dir)).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('does not start when the task is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const output = join(dir, 'never.wav');
    await expect(converter.convert(job(input(), output, 'lilly', 0, controller.signal))).rejects.toThrow();
    expect(existsSync(output)).toBe(false);
  });
});
