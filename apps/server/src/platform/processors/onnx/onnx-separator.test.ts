import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stft } from '../audio/stft';
import { WavFloatReader, WavFloatWriter } from '../audio/wav-float-file';
import { type SeparationInput, type StemMode } from '../processor';
import { BENCHMARK_SONG_SECONDS, BENCHMARK_SONGS, mixtureOf, renderSong } from '../quality/benchmark-song';
import { OnnxModelError } from './onnx-manifest';
import { OnnxSeparator } from './onnx-separator';
import {
  buildComplexModel,
  buildMagnitudeModel,
  buildStackedMaskModel,
  buildWaveformModel,
  lowPassLogits,
} from './onnx-test-model-builder';

/**
 * End to end on models the test builds, over the benchmark's mix: the chunked, cross-faded result
 * must equal the same model run once over the whole file (computed here without the processor's
 * code), within 1e-4.
 */

const RATE = 44_100;
const N_FFT = 1024;
const HOP = 256;
const BINS = N_FFT / 2 + 1;
/** 3.1 s: four 1 s chunks with 0.25 s overlaps, the last one partial and off the hop grid. */
const LENGTH = Math.round(3.1 * RATE) + 17;

let dir: string;
let models: string;
let mix: string;
let excerpt: Float32Array[];
/** The bench's whole song B. */
let song: Float32Array[];
let songFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'onnx-separator-'));
  models = join(dir, 'models');
  await mkdir(models);
  // The bench's song B (sung voice, drums, bass, guitar and keys, panned; it needs no tool to
  // make), the mix the bench scores the built-in separator on: whole, and its first LENGTH samples
  // for the quicker checks of each model kind.
  song = mixtureOf(renderSong(BENCHMARK_SONGS[1], BENCHMARK_SONG_SECONDS, dir));
  excerpt = song.map((channel) => channel.slice(0, LENGTH));
  mix = join(dir, 'mix.wav');
  const writer = await WavFloatWriter.create(mix, { sampleRate: RATE, channels: 2 });
  await writer.write(excerpt);
  await writer.close();
  songFile = join(dir, 'song.wav');
  const whole = await WavFloatWriter.create(songFile, { sampleRate: RATE, channels: 2 });
  await whole.write(song);
  await whole.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function addModel(name: string, model: Uint8Array, manifest: Record<string, unknown>) {
  await writeFile(join(models, `${name}.onnx`), model);
  const fields = { name, sampleRate: RATE, chunkSeconds: 1, overlapSeconds: 0.25, ...manifest };
  await writeFile(join(models, `${name}.json`), JSON.stringify(fields));
}

async function separate(separator: OnnxSeparator, mode: StemMode, overrides: Partial<SeparationInput> = {}) {
  const outputDir = await mkdtemp(join(dir, 'out-'));
  const progress: number[] = [];
  const finished: number[] = [];
  const result = await separator.separate({
    input: mix,
    mode,
    outputDir,
    scratchDir: outputDir,
    signal: new AbortController().signal,
    onProgress: (fraction) => void progress.push(fraction),
    onPartial: (partial) => void finished.push(partial.frames),
    ...overrides,
  });
  return { result, progress, finished, outputDir };
}

async function readStem(path: string | undefined): Promise<Float32Array[]> {
  const reader = await WavFloatReader.open(path!);
  const channels = await reader.read(0, reader.frames);
  await reader.close();
  return channels;
}

function maxError(actual: Float32Array[], expected: Float32Array[]) {
  let max = 0;
  for (let c = 0; c < expected.length; c++) {
    expect(actual[c]!.length).toBe(expected[c]!.length);
    for (let i = 0; i < expected[c]!.length; i++) max = Math.max(max, Math.abs(actual[c]![i]! - expected[c]![i]!));
  }
  return max;
}

/** The whole file through the model at once: one STFT, one run, one inverse. */
async function wholeFileSpectral(
  file: string,
  run: (magnitudes: Tensor, session: InferenceSession) => Promise<Float32Array[]>,
  mixture = excerpt,
) {
  const length = mixture[0]!.length;
  const stft = new Stft({ size: N_FFT, hop: HOP });
  const frames = stft.frameCount(length);
  const re = mixture.map(() => new Float32Array(frames * BINS));
  const im = mixture.map(() => new Float32Array(frames * BINS));
  const magnitudes = new Float32Array(2 * BINS * frames);
  mixture.forEach((signal, c) => {
    for (let f = 0; f < frames; f++) {
      const at = f * BINS;
      stft.analyze(signal, stft.frameStart(f), re[c]!.subarray(at, at + BINS), im[c]!.subarray(at, at + BINS));
      for (let b = 0; b < BINS; b++)
        magnitudes[(c * BINS + b) * frames + f] = Math.hypot(re[c]![at + b]!, im[c]![at + b]!);
    }
  });
  const session = await InferenceSession.create(file);
  // Gains per stem, [channel, bin, frame].
  const gains = await run(new Tensor('float32', magnitudes, [1, 2, BINS, frames]), session);
  await session.release();
  return gains.map((gain) =>
    mixture.map((_, c) => {
      const out = new Float32Array(length);
      const yRe = new Float64Array(BINS);
      const yIm = new Float64Array(BINS);
      for (let f = 0; f < frames; f++) {
        for (let b = 0; b < BINS; b++) {
          const g = gain[(c * BINS + b) * frames + f]!;
          yRe[b] = g * re[c]![f * BINS + b]!;
          yIm[b] = g * im[c]![f * BINS + b]!;
        }
        stft.synthesize(yRe, yIm, out, stft.frameStart(f));
      }
      return out;
    }),
  );
}

const spectral = {
  kind: 'spectrogram-mask',
  stems: ['bass', 'other'],
  stft: { nFft: N_FFT, hop: HOP, window: 'hann' },
  // Just over twice nFft: the cross-fade ramp is short, so edge errors would show at full size.
  overlapSeconds: 0.05,
};

describe('OnnxSeparator', () => {
  it('gives the whole-file result of a magnitude model with the soft-mask post-filter, chunk by chunk', async () => {
    const options = { bins: BINS, cutoffBin: 8, sharpness: 0.5 };
    await addModel('split', buildMagnitudeModel(options), {
      ...spectral,
      input: { name: 'mix', layout: ['batch', 'channels', 'bins', 'frames'] },
      output: { name: ['bass', 'other'], layout: ['batch', 'channels', 'bins', 'frames'], value: 'magnitude' },
      wiener: { power: 2 },
    });
    const separator = new OnnxSeparator(models, 'split');
    expect(separator.engine).toEqual({ id: 'onnx:split', label: 'model: split (ONNX)', kind: 'onnx-model' });
    const { result, progress, finished } = await separate(separator, 'EVERYTHING');
    expect(Object.keys(result.stems).sort()).toEqual(['bass', 'other']);
    expect(progress).toEqual([0.25, 0.5, 0.75, 1]);
    // The finished start grows chunk by chunk (what a running task's preview plays), to the end.
    expect(finished).toHaveLength(4);
    expect(finished.every((frames, i) => i === 0 || frames > finished[i - 1]!)).toBe(true);
    expect(finished.at(-1)).toBe(LENGTH);

    const expected = await wholeFileSpectral(join(models, 'split.onnx'), async (magnitudes, session) => {
      const out = await session.run({ mix: magnitudes });
      const v = [out.bass!.data as Float32Array, out.other!.data as Float32Array];
      // Ratio of power estimates, point by point.
      return v.map((own) => own.map((x, i) => (x * x) / (v[0]![i]! ** 2 + v[1]![i]! ** 2 || Infinity)));
    });
    const bassError = maxError(await readStem(result.stems.bass), expected[0]!);
    const otherError = maxError(await readStem(result.stems.other), expected[1]!);
    expect(bassError).toBeLessThan(1e-4);
    expect(otherError).toBeLessThan(1e-4);
    // The split really separates: the low stem holds the low tone, so it differs from the mixture.
    expect(maxError(await readStem(result.stems.bass), excerpt)).toBeGreaterThan(0.1);
    await separator.close();
  });

  it("separates the benchmark's whole song as an unchunked run would, within 1e-4, its finished start growing", async () => {
    // The magnitude model with its soft-mask post-filter, in the manifest's 1 s chunks with 0.25 s overlaps.
    await addModel('bench', buildMagnitudeModel({ bins: BINS, cutoffBin: 6, sharpness: 0.5 }), {
      ...spectral,
      overlapSeconds: 0.25,
      input: { name: 'mix', layout: ['batch', 'channels', 'bins', 'frames'] },
      output: { name: ['bass', 'other'], layout: ['batch', 'channels', 'bins', 'frames'], value: 'magnitude' },
      wiener: { power: 2 },
    });
    const separator = new OnnxSeparator(models, 'bench');
    const { result, finished } = await separate(separator, 'EVERYTHING', { input: songFile });
    expect(finished.length).toBeGreaterThan(30);
    expect(finished.at(-1)).toBe(song[0]!.length);
    const expected = await wholeFileSpectral(
      join(models, 'bench.onnx'),
      async (magnitudes, session) => {
        const out = await session.run({ mix: magnitudes });
        const v = [out.bass!.data as Float32Array, out.other!.data as Float32Array];
        return v.map((own) => own.map((x, i) => (x * x) / (v[0]![i]! ** 2 + v[1]![i]! ** 2 || Infinity)));
      },
      song,
    );
    const bass = await readStem(result.stems.bass);
    expect(maxError(bass, expected[0]!)).toBeLessThan(1e-4);
    expect(maxError(await readStem(result.stems.other), expected[1]!)).toBeLessThan(1e-4);
    // Not the mixture again: the low stem holds the bass line and the kick.
    expect(maxError(bass, song)).toBeGreaterThan(0.1);
    await separator.close();
  });

  it('reads a stacked mask output in another axis order, and its stems add up to the mixture', async () => {
    await addModel('stacked', buildStackedMaskModel({ bins: BINS, cutoffBin: 12, sharpness: 1 }), {
      ...spectral,
      input: { name: 'spectrum', layout: ['batch', 'channels', 'frames', 'bins'] },
      output: { name: 'masks', layout: ['stems', 'batch', 'channels', 'frames', 'bins'], value: 'mask' },
    });
    const separator = new OnnxSeparator(models, 'stacked');
    const { result } = await separate(separator, 'EVERYTHING');
    const expected = await wholeFileSpectral(join(models, 'stacked.onnx'), async (magnitudes, session) => {
      // This model's input is [batch, channels, frames, bins]: feed it that way, read masks back.
      const frames = magnitudes.dims[3]!;
      const source = magnitudes.data as Float32Array;
      const moved = new Float32Array(source.length);
      for (let c = 0; c < 2; c++)
        for (let b = 0; b < BINS; b++)
          for (let f = 0; f < frames; f++) moved[(c * frames + f) * BINS + b] = source[(c * BINS + b) * frames + f]!;
      const out = await session.run({ spectrum: new Tensor('float32', moved, [1, 2, frames, BINS]) });
      const masks = out.masks!.data as Float32Array;
      const perStem = 2 * frames * BINS;
      return [0, 1].map((s) =>
        Float32Array.from({ length: 2 * BINS * frames }, (_, i) => {
          const c = Math.floor(i / (BINS * frames));
          const b = Math.floor(i / frames) % BINS;
          const f = i % frames;
          return masks[s * perStem + (c * frames + f) * BINS + b]!;
        }),
      );
    });
    const bass = await readStem(result.stems.bass);
    const other = await readStem(result.stems.other);
    const error = Math.max(maxError(bass, expected[0]!), maxError(other, expected[1]!));
    expect(error).toBeLessThan(1e-4);
    const sum = bass.map((channel, c) => channel.map((x, i) => x + other[c]![i]!));
    expect(maxError(sum, excerpt)).toBeLessThan(1e-4);
    await separator.close();
  });

  it('sees chunk edges: without the context the cross-fade leaves out, chunks differ from the whole file', async () => {
    const options = { bins: BINS, cutoffBin: 12, sharpness: 1 };
    const manifest = {
      ...spectral,
      input: { name: 'spectrum', layout: ['batch', 'channels', 'frames', 'bins'] },
      output: { name: 'masks', layout: ['stems', 'batch', 'channels', 'frames', 'bins'], value: 'mask' },
    };
    await addModel('edges', buildStackedMaskModel(options), { ...manifest, contextSeconds: 0 });
    const guarded = new OnnxSeparator(models, 'stacked');
    const unguarded = new OnnxSeparator(models, 'edges');
    const expected = await readStem((await separate(guarded, 'EVERYTHING')).result.stems.bass);
    const error = maxError(await readStem((await separate(unguarded, 'EVERYTHING')).result.stems.bass), expected);
    // Several times the 1e-4 the other tests allow: they would catch an edge that leaks in.
    expect(error).toBeGreaterThan(3e-4);
    await Promise.all([guarded.close(), unguarded.close()]);
  });

  it('runs a complex-as-channels model with a frequency cut-off and a fixed frame count (MDX-Net)', async () => {
    const options = { bins: 300, frames: 180, cutoffBin: 40, sharpness: 0.3 };
    await addModel('complex', buildComplexModel(options), {
      ...spectral,
      stems: ['drums'],
      input: {
        name: 'input',
        layout: ['batch', 'channels', 'bins', 'frames'],
        value: 'complex',
        bins: 300,
        frames: 180,
      },
      output: { name: 'output', layout: ['batch', 'channels', 'bins', 'frames'], value: 'complex' },
    });
    const separator = new OnnxSeparator(models, 'complex');
    const { result } = await separate(separator, 'EVERYTHING');
    expect(Object.keys(result.stems)).toEqual(['drums']);
    // The model's gain below its cut-off, silence above (its fixed frames do not fit the whole file).
    const logits = lowPassLogits(options.bins, options.cutoffBin, options.sharpness);
    const [expected] = await wholeFileSpectral(join(models, 'complex.onnx'), async (magnitudes) => {
      const frames = magnitudes.dims[3]!;
      return [
        Float32Array.from({ length: 2 * BINS * frames }, (_, i) => {
          const b = Math.floor(i / frames) % BINS;
          return b < options.bins ? 1 / (1 + Math.exp(-logits[b]!)) : 0;
        }),
      ];
    });
    expect(maxError(await readStem(result.stems.drums), expected!)).toBeLessThan(1e-4);
    await separator.close();
  });

  it('runs a waveform model and maps vocals and accompaniment onto TWOSTEMS', async () => {
    const taps: [number[], number[]] = [
      [0.1, 0.2, 0.4, 0.2, 0.1],
      [-0.1, -0.2, 0.6, -0.2, -0.1],
    ];
    await addModel('wave', buildWaveformModel(taps), {
      kind: 'waveform',
      stems: ['vocals', 'accompaniment'],
      contextSeconds: 0.001,
      input: { name: 'wave', layout: ['batch', 'channels', 'samples'] },
      output: { name: 'stems', layout: ['batch', 'stems', 'channels', 'samples'] },
    });
    const separator = new OnnxSeparator(models, 'wave');
    const { result } = await separate(separator, 'TWOSTEMS');
    expect(Object.keys(result.stems).sort()).toEqual(['no_vocals', 'vocals']);
    const session = await InferenceSession.create(join(models, 'wave.onnx'));
    const whole = new Float32Array(2 * LENGTH);
    excerpt.forEach((channel, c) => whole.set(channel, c * LENGTH));
    const out = (await session.run({ wave: new Tensor('float32', whole, [1, 2, LENGTH]) })).stems!.data as Float32Array;
    await session.release();
    const stem = (s: number) => [0, 1].map((c) => out.slice((s * 2 + c) * LENGTH, (s * 2 + c + 1) * LENGTH));
    const error = Math.max(
      maxError(await readStem(result.stems.vocals), stem(0)),
      maxError(await readStem(result.stems.no_vocals), stem(1)),
    );
    expect(error).toBeLessThan(1e-4);
    await separator.close();
  });

  it('names a missing model file, and refuses a mode the model has no stems for', async () => {
    await addModel('orphan', buildWaveformModel([[1], [1]]), {
      kind: 'waveform',
      stems: ['bass', 'other'],
      input: { name: 'wave', layout: ['batch', 'channels', 'samples'] },
      output: { name: 'stems', layout: ['batch', 'stems', 'channels', 'samples'] },
    });
    const separator = new OnnxSeparator(models, 'orphan');
    await expect(separate(separator, 'TWOSTEMS')).rejects.toThrow(
      'stems: (bass, other) give none of the stems of TWOSTEMS',
    );
    await separator.close();
    await rm(join(models, 'orphan.onnx'));
    const error = await separate(new OnnxSeparator(models, 'orphan'), 'EVERYTHING').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnnxModelError);
    expect((error as OnnxModelError).file).toBe(join(models, 'orphan.onnx'));
    expect((error as Error).message).toContain('is missing');
  });

  it('stops between chunks when aborted and leaves no half-written stems; an empty file gives empty stems', async () => {
    await addModel('abortable', buildWaveformModel([[1], [0]]), {
      kind: 'waveform',
      stems: ['vocals', 'accompaniment'],
      input: { name: 'wave', layout: ['batch', 'channels', 'samples'] },
      output: { name: 'stems', layout: ['batch', 'stems', 'channels', 'samples'] },
    });
    const separator = new OnnxSeparator(models, 'abortable');
    const controller = new AbortController();
    const progress: number[] = [];
    const outputDir = await mkdtemp(join(dir, 'aborted-'));
    const run = separate(separator, 'TWOSTEMS', {
      outputDir,
      signal: controller.signal,
      onProgress: (fraction) => {
        progress.push(fraction);
        controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(progress).toEqual([0.25]);
    expect(await readdir(outputDir)).toEqual([]);
    // An empty file gives empty stems without running the model.
    const empty = join(dir, 'empty.wav');
    await (await WavFloatWriter.create(empty, { sampleRate: RATE, channels: 2 })).close();
    const { result } = await separate(separator, 'TWOSTEMS', { input: empty });
    expect((await readStem(result.stems.no_vocals)).map((channel) => channel.length)).toEqual([0, 0]);
    // Aborted before it starts: nothing is read or written.
    await expect(separate(separator, 'TWOSTEMS', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    await separator.close();
  });
});
