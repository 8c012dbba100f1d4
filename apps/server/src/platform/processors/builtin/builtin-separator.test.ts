import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RealFft } from '../audio/fft';
import { WavFloatReader, WavFloatWriter } from '../audio/wav-float-file';
import type { SeparationInput, StemName } from '../processor';
import { BuiltinSeparator } from './builtin-separator';

const RATE = 44_100;
const SECONDS = 4;
const LENGTH = RATE * SECONDS;
type Stereo = [Float32Array, Float32Array];

/**
 * A small song: a centred "voice" (330 Hz with harmonics and vibrato), a chord hard left, clicks
 * with bright noise for drums near the centre, and a 55 Hz bass in the centre.
 */
function mixture(): Stereo {
  const left = new Float32Array(LENGTH);
  const right = new Float32Array(LENGTH);
  let state = 99;
  const noise = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 31 - 1;
  };
  let voicePhase = 0;
  for (let i = 0; i < LENGTH; i++) {
    const t = i / RATE;
    voicePhase += (330 * 2 ** ((0.3 * Math.sin(2 * Math.PI * 5 * t)) / 12)) / RATE;
    let voice = 0;
    for (let h = 1; h <= 8; h++) voice += Math.sin(2 * Math.PI * h * voicePhase) / h;
    const chord = [262, 392, 523].reduce((sum, f) => sum + Math.sin(2 * Math.PI * f * t), 0) / 3;
    const bass = Math.sin(2 * Math.PI * 55 * t);
    left[i] = 0.2 * voice + 0.25 * chord + 0.3 * bass;
    right[i] = 0.2 * voice + 0.3 * bass;
  }
  // A click every quarter second: an impulse and 20 ms of decaying noise, slightly right.
  for (let at = 1000; at < LENGTH; at += RATE / 4) {
    for (let i = 0; i < 900 && at + i < LENGTH; i++) {
      const hit = (i === 0 ? 1 : 0.5 * noise()) * Math.exp(-i / 200);
      left[at + i]! += 0.4 * hit;
      right[at + i]! += 0.5 * hit;
    }
  }
  return [left, right];
}

/** Energy of a signal between two frequencies (one FFT of the whole signal). */
function bandEnergy(signal: Float32Array, fromHz: number, toHz: number): number {
  let size = 4;
  while (size < signal.length) size *= 2;
  const fft = new RealFft(size);
  const padded = new Float64Array(size);
  padded.set(signal);
  const re = new Float64Array(fft.bins);
  const im = new Float64Array(fft.bins);
  fft.forward(padded, re, im);
  let energy = 0;
  for (let k = Math.ceil((fromHz * size) / RATE); k <= Math.floor((toHz * size) / RATE); k++)
    energy += re[k]! ** 2 + im[k]! ** 2;
  return energy;
}

async function readStem(path: string): Promise<Stereo> {
  const reader = await WavFloatReader.open(path);
  const [left, right] = await reader.read(0, reader.frames);
  await reader.close();
  return [left!, right!];
}

const dir = mkdtempSync(join(tmpdir(), 'builtin-separator-'));
const input = join(dir, 'mix.wav');
const mix = mixture();
let outputIndex = 0;

function run(overrides: Partial<SeparationInput> = {}): SeparationInput {
  const outputDir = join(dir, `out-${outputIndex++}`);
  mkdirSync(outputDir);
  return {
    input,
    mode: 'EVERYTHING',
    outputDir,
    scratchDir: dir,
    signal: new AbortController().signal,
    onProgress: () => undefined,
    ...overrides,
  };
}

beforeAll(async () => {
  const writer = await WavFloatWriter.create(input, { sampleRate: RATE, channels: 2 });
  await writer.write(mix);
  await writer.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('BuiltinSeparator', () => {
  // Three chunks of the four seconds.
  const separator = new BuiltinSeparator({ chunkSeconds: 1.5 });
  let stems: Record<StemName, Stereo>;
  const progress: number[] = [];

  beforeAll(async () => {
    const result = await separator.separate(run({ onProgress: (fraction) => void progress.push(fraction) }));
    expect(result.engine).toEqual({
      id: 'builtin-dsp',
      label: 'built-in (signal processing)',
      kind: 'signal-processing',
    });
    expect(Object.keys(result.stems).sort()).toEqual(['bass', 'drums', 'no_vocals', 'other', 'vocals']);
    stems = {} as Record<StemName, Stereo>;
    for (const [stem, path] of Object.entries(result.stems)) stems[stem as StemName] = await readStem(path);
  });

  it('reports progress from 0 to 1, never backwards', () => {
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress.length).toBeGreaterThan(2);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('puts each source mostly in its own stem', () => {
    const share = (stem: StemName, side: 0 | 1, fromHz: number, toHz: number) => {
      const parts = (['vocals', 'drums', 'bass', 'other'] as const).map((name) =>
        bandEnergy(stems[name][side], fromHz, toHz),
      );
      return bandEnergy(stems[stem][side], fromHz, toHz) / parts.reduce((sum, value) => sum + value, 0);
    };
    // The voice alone is in the right channel around 330 Hz and 660 Hz (its vibrato spans ±6 Hz).
    expect(share('vocals', 1, 315, 345)).toBeGreaterThan(0.6);
    expect(share('vocals', 1, 640, 680)).toBeGreaterThan(0.6);
    // The chord is hard left: the voice stem keeps little of it, other most of it.
    expect(share('other', 0, 387, 397)).toBeGreaterThan(0.7);
    expect(share('vocals', 0, 387, 397)).toBeLessThan(0.1);
    expect(share('bass', 1, 50, 60)).toBeGreaterThan(0.8);
    // Only the clicks reach above 6 kHz.
    expect(share('drums', 0, 6000, 16000)).toBeGreaterThan(0.7);
    expect(share('drums', 1, 6000, 16000)).toBeGreaterThan(0.7);
  });

  it('gives stems that sum back to the mixture', () => {
    for (const side of [0, 1] as const) {
      let worstFour = 0;
      let worstTwo = 0;
      for (let i = 0; i < LENGTH; i++) {
        const four = stems.vocals[side][i]! + stems.drums[side][i]! + stems.bass[side][i]! + stems.other[side][i]!;
        worstFour = Math.max(worstFour, Math.abs(four - mix[side][i]!));
        worstTwo = Math.max(worstTwo, Math.abs(stems.vocals[side][i]! + stems.no_vocals[side][i]! - mix[side][i]!));
      }
      expect(worstFour).toBeLessThan(1e-5);
      expect(worstTwo).toBeLessThan(1e-5);
    }
  });

  it('gives the same samples in chunks as in one piece: no seam at chunk boundaries', async () => {
    const whole = await new BuiltinSeparator({ chunkSeconds: 60 }).separate(run());
    for (const stem of ['vocals', 'drums', 'bass'] as const) {
      const other = await readStem(whole.stems[stem]!);
      for (const side of [0, 1] as const) {
        let worst = 0;
        for (let i = 0; i < LENGTH; i++) worst = Math.max(worst, Math.abs(other[side][i]! - stems[stem][side][i]!));
        expect(worst).toBeLessThan(1e-5);
      }
    }
  });

  it('writes only vocals and no_vocals for two stems', async () => {
    const options = run({ mode: 'TWOSTEMS' });
    const result = await separator.separate(options);
    expect(Object.keys(result.stems).sort()).toEqual(['no_vocals', 'vocals']);
    expect(readdirSync(options.outputDir).sort()).toEqual(['no_vocals.wav', 'vocals.wav']);
    const vocals = await readStem(result.stems.vocals!);
    expect(vocals[1][RATE]).toBeCloseTo(stems.vocals[1][RATE]!, 5);
  });

  it('separates an empty file into empty stems', async () => {
    const empty = join(dir, 'empty.wav');
    await (await WavFloatWriter.create(empty, { sampleRate: RATE, channels: 2 })).close();
    const seen: number[] = [];
    const result = await separator.separate(run({ input: empty, onProgress: (fraction) => void seen.push(fraction) }));
    expect(seen).toEqual([0, 1]);
    for (const path of Object.values(result.stems)) expect((await readStem(path))[0]).toHaveLength(0);
  });

  it('stops at the next chunk when aborted and leaves no stem behind', async () => {
    const controller = new AbortController();
    const options = run({
      signal: controller.signal,
      onProgress: (fraction) => {
        if (fraction > 0) controller.abort();
      },
    });
    const seen: number[] = [];
    const wrapped = {
      ...options,
      onProgress: (fraction: number) => (seen.push(fraction), options.onProgress(fraction)),
    };
    await expect(new BuiltinSeparator({ chunkSeconds: 0.5 }).separate(wrapped)).rejects.toThrow(/abort/i);
    expect(seen).toHaveLength(2);
    expect(existsSync(join(options.outputDir, 'vocals.wav'))).toBe(false);
    expect(readdirSync(options.outputDir)).toEqual([]);
  });
});
