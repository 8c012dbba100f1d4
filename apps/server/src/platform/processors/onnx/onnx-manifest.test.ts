import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxModelCatalog } from './onnx-model-catalog';
import { OnnxModelError, parseOnnxManifest, readOnnxManifest } from './onnx-manifest';
import { chunkPlanOf } from './onnx-separator';
import { buildWaveformModel } from './onnx-test-model-builder';
import { stemRecipes } from './stem-mapper';

const umx = {
  name: 'umx',
  kind: 'spectrogram-mask',
  sampleRate: 44100,
  stems: ['vocals', 'drums', 'bass', 'other'],
  stft: { nFft: 4096, hop: 1024 },
  chunkSeconds: 10,
  overlapSeconds: 1,
  input: { name: 'mix', layout: ['batch', 'channels', 'bins', 'frames'] },
  output: { name: 'estimates', layout: ['stems', 'batch', 'channels', 'bins', 'frames'], value: 'magnitude' },
  wiener: {},
};

const waveform = {
  name: 'wave',
  kind: 'waveform',
  sampleRate: 44100,
  stems: ['vocals', 'accompaniment'],
  chunkSeconds: 8,
  overlapSeconds: 1,
  input: { name: 'wave', layout: ['batch', 'channels', 'samples'] },
  output: { name: 'stems', layout: ['batch', 'stems', 'channels', 'samples'] },
};

function parse(manifest: unknown, file = '/models/umx.json') {
  return parseOnnxManifest(JSON.stringify(manifest), file);
}

function problems(manifest: unknown): string {
  try {
    parse(manifest);
  } catch (error) {
    expect(error).toBeInstanceOf(OnnxModelError);
    return (error as Error).message;
  }
  throw new Error('the manifest was accepted');
}

describe('ONNX manifests', () => {
  it('accepts a spectrogram model and fills the defaults', () => {
    const manifest = parse(umx);
    expect(manifest.stft).toEqual({ nFft: 4096, hop: 1024, window: 'hann' });
    expect(manifest.input.value).toBe('magnitude');
    expect(manifest.wiener).toEqual({ power: 2 });
    // 10 s and 1 s in whole hops; the context defaults to nFft.
    expect(chunkPlanOf(manifest, 'umx.json')).toEqual({ length: 441344, overlap: 44032, context: 4096 });
  });

  it('names the file and the field of every problem', () => {
    expect(problems({ ...umx, stft: undefined })).toBe(
      '/models/umx.json: stft: is required for a spectrogram-mask model',
    );
    expect(problems({ ...umx, chunkSeconds: '10' })).toMatch(/^\/models\/umx\.json: chunkSeconds: .*number/);
    expect(problems({ ...umx, sampleRate: 48000 })).toContain('sampleRate: must be 44100');
    expect(problems({ ...umx, stems: ['vocals', 'vocals'] })).toContain('stems: stem names must be unique');
    expect(problems({ ...umx, stft: { nFft: 4096, hop: 1000 } })).toContain('stft.hop: must divide nFft');
    expect(problems({ ...umx, stft: { nFft: 6144, hop: 1024 } })).toContain('stft.nFft: must be a power of two');
    expect(problems({ ...umx, output: { ...umx.output, layout: ['batch', 'channels', 'bins', 'frames'] } })).toContain(
      'output.layout: must list each of batch, channels, bins, frames, stems once',
    );
    expect(problems({ ...umx, input: { ...umx.input, layout: ['batch', 'channels', 'samples'] } })).toContain(
      'input.layout: must list each of batch, channels, bins, frames once',
    );
    expect(problems({ ...umx, output: { ...umx.output, name: ['a', 'b'] } })).toContain(
      'output.name: lists 2 tensors for 4 stems',
    );
    expect(problems({ ...umx, overlapSeconds: 0.1 })).toContain(
      'overlapSeconds: must be at least twice the context (0.0929 s, nFft)',
    );
    expect(problems({ ...umx, overlapSeconds: 6 })).toContain('overlapSeconds: must be at most half of chunkSeconds');
    expect(problems({ ...umx, extra: true })).toContain('(manifest): Unrecognized key: "extra"');
    expect(problems({ ...waveform, wiener: {} })).toContain('wiener: is for spectrogram-mask models');
    expect(problems({ ...umx, input: { ...umx.input, value: 'complex' }, wiener: undefined })).toContain(
      'output.value: is complex exactly when input.value is complex',
    );
    // Several problems are reported together.
    expect(problems({ ...umx, name: 'a b', chunkSeconds: -1 }).split('; ')).toEqual([
      '/models/umx.json: name: letters, digits, ".", "_" or "-" (at most 64)',
      'chunkSeconds: Too small: expected number to be >0',
    ]);
    expect(() => parseOnnxManifest('{ "name": ', 'x.json')).toThrow(/^x\.json: is not JSON/);
  });

  it('checks that a chunk fits a model exported for a fixed size', () => {
    const mdx = parse({
      ...umx,
      stems: ['vocals'],
      stft: { nFft: 4096, hop: 1024 },
      chunkSeconds: 6,
      overlapSeconds: 0.5,
      input: {
        name: 'input',
        layout: ['batch', 'channels', 'bins', 'frames'],
        value: 'complex',
        bins: 2048,
        frames: 256,
      },
      output: { name: 'output', layout: ['batch', 'channels', 'bins', 'frames'], value: 'complex' },
      wiener: undefined,
    });
    expect(() => chunkPlanOf(mdx, 'mdx.json')).toThrow(
      'mdx.json: chunkSeconds: gives 261 frames but the model takes 256 (at most 5.874 s)',
    );
    expect(chunkPlanOf({ ...mdx, chunkSeconds: 5.87 }, 'mdx.json').length).toBe(253 * 1024);
    const fixed = parse({ ...waveform, input: { ...waveform.input, samples: 44100 * 4 } });
    expect(() => chunkPlanOf(fixed, 'wave.json')).toThrow(
      'chunkSeconds: gives 352800 samples but the model takes 176400',
    );
  });
});

describe('stem mapping', () => {
  const recipes = (stems: string[], mode: 'TWOSTEMS' | 'EVERYTHING') =>
    Object.fromEntries(
      stemRecipes(stems, mode).map((r) => [
        r.stem,
        [r.mixture ? 'mix' : '', ...r.terms.map((t) => `${t.sign > 0 ? '+' : '-'}${stems[t.index]}`)].join(''),
      ]),
    );

  it('sums the non-vocal stems of a four-stem model into no_vocals', () => {
    expect(recipes(['vocals', 'drums', 'bass', 'other'], 'EVERYTHING')).toEqual({
      vocals: '+vocals',
      no_vocals: '+drums+bass+other',
      drums: '+drums',
      bass: '+bass',
      other: '+other',
    });
  });

  it('uses mixture − vocals for a vocals-only model, and the complement when the model has one', () => {
    expect(recipes(['vocals'], 'EVERYTHING')).toEqual({ vocals: '+vocals', no_vocals: 'mix-vocals' });
    expect(recipes(['instrumental'], 'TWOSTEMS')).toEqual({ vocals: 'mix-instrumental', no_vocals: '+instrumental' });
  });

  it('folds extra stems into other, and derives other as the residual of the three', () => {
    expect(recipes(['drums', 'bass', 'other', 'vocals', 'guitar', 'piano'], 'EVERYTHING')).toMatchObject({
      other: '+other+guitar+piano',
      no_vocals: '+drums+bass+other+guitar+piano',
    });
    expect(recipes(['vocals', 'drums', 'bass'], 'EVERYTHING')).toMatchObject({
      other: 'mix-vocals-drums-bass',
      no_vocals: 'mix-vocals',
    });
  });
});

describe('OnnxModelCatalog', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'onnx-catalog-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lists usable models and says what is wrong with the others', async () => {
    const model = buildWaveformModel([[1], [1]]);
    await writeFile(join(dir, 'wave.json'), JSON.stringify(waveform));
    await writeFile(join(dir, 'wave.onnx'), model);
    await writeFile(join(dir, 'lonely.json'), JSON.stringify({ ...waveform, name: 'lonely' }));
    await writeFile(join(dir, 'renamed.json'), JSON.stringify(waveform));
    await writeFile(join(dir, 'renamed.onnx'), model);
    await writeFile(join(dir, 'bare.onnx'), model);
    const catalog = new OnnxModelCatalog(dir);
    const { models, problems } = await catalog.list();
    expect(models.map((m) => [m.name, m.engine.id, m.engine.label])).toEqual([
      ['wave', 'onnx:wave', 'model: wave (ONNX)'],
    ]);
    expect(problems.map((p) => p.message).sort()).toEqual([
      `${join(dir, 'bare.onnx')}: has no manifest bare.json beside it`,
      `${join(dir, 'lonely.onnx')}: is missing (its manifest is lonely.json)`,
      `${join(dir, 'renamed.json')}: name: is "wave" but the file is named for "renamed"`,
    ]);
    expect(catalog.separator('wave')).toBe(catalog.separator('wave'));
    expect((await catalog.separator('wave').load()).stems).toEqual(['vocals', 'accompaniment']);
    await catalog.close();
    const missing = await new OnnxModelCatalog(join(dir, 'nope')).list();
    expect(missing.problems[0]?.message).toContain(`${join(dir, 'nope')}: cannot be listed`);
    await expect(readOnnxManifest(dir, 'absent')).rejects.toThrow(`${join(dir, 'absent.json')}: cannot be read`);
  });
});
