import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateMediaTools, MediaError } from '../../media/ffmpeg';
import { detectBpm } from './bpm-detect';

const run = promisify(execFile);
const tools = locateMediaTools({});
let dir: string;

/** A 44.1 kHz stereo float WAV from an ffmpeg expression of t (seconds). */
async function render(name: string, expression: string, seconds: number): Promise<string> {
  const path = join(dir, `${name}.wav`);
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi'],
    ...['-i', `aevalsrc='${expression}':s=44100:d=${seconds}:c=stereo`, '-c:a', 'pcm_f32le', '-y', path],
  ]);
  return path;
}

/** A metronome: a 1 kHz click decaying in ~10 ms on every beat. */
const clicks = (bpm: number) => `0.8*exp(-200*mod(t,${60 / bpm}))*sin(2*PI*1000*t)`;

/**
 * A drum loop: a kick (a 55 Hz thump) on beats 1 and 3, a snare (a noise burst) on 2 and 4, closed
 * hi-hats (short, quiet noise) on every eighth note.
 */
function drumLoop(bpm: number): string {
  const beat = 60 / bpm;
  const kick = `0.9*exp(-25*mod(t,${2 * beat}))*sin(2*PI*55*t)`;
  const snare = `0.5*exp(-30*mod(t+${beat},${2 * beat}))*(2*random(0)-1)`;
  const hats = `0.15*exp(-120*mod(t,${beat / 2}))*(2*random(1)-1)`;
  return `${kick}+${snare}+${hats}`;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bpm-detect-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('detecting the tempo of a file', () => {
  it.each([90, 120, 140, 70])('hears a click track at %d bpm', async (bpm) => {
    const tempo = await detectBpm(tools, await render(`click-${bpm}`, clicks(bpm), 16));
    expect(tempo.confident).toBe(true);
    expect(Math.abs(tempo.bpm - bpm)).toBeLessThanOrEqual(0.5);
  });

  it('hears a drum loop at 100 bpm (kick, snare, hi-hats on the eighths), not its double or half', async () => {
    const tempo = await detectBpm(tools, await render('drums-100', drumLoop(100), 16));
    expect(tempo.confident).toBe(true);
    expect(Math.abs(tempo.bpm - 100)).toBeLessThanOrEqual(0.5);
  });

  it('hears a drum loop at 128 bpm', async () => {
    const tempo = await detectBpm(tools, await render('drums-128', drumLoop(128), 16));
    expect(Math.abs(tempo.bpm - 128)).toBeLessThanOrEqual(0.5);
  });

  it.each([
    ['noise', '0.3*(2*random(0)-1)', 10],
    ['silence', '0', 10],
    ['a steady tone', '0.5*sin(2*PI*440*t)', 10],
    ['two seconds of clicks', clicks(120), 2],
  ] as const)('gives 120 bpm, unsure, for %s', async (name, expression, seconds) => {
    const tempo = await detectBpm(tools, await render(name.replaceAll(' ', '-'), expression, seconds));
    expect(tempo).toMatchObject({ bpm: 120, confident: false });
  });

  it('refuses a file that is not audio', async () => {
    const path = join(dir, 'not-audio.wav');
    await writeFile(path, 'not a wave file');
    await expect(detectBpm(tools, path)).rejects.toBeInstanceOf(MediaError);
  });

  it('does not start once cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(detectBpm(tools, join(dir, 'click-90.wav'), controller.signal)).rejects.toThrow('cancelled');
  });
});
