import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxModelError, parseOnnxManifest } from './onnx-manifest';
import { OnnxModelSession } from './onnx-model-session';
import { buildStackedMaskModel, buildWaveformModel, lowPassLogits } from './onnx-test-model-builder';
import { permuteAxes } from './tensor-layout';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'onnx-session-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function manifestOf(fields: Record<string, unknown>) {
  return parseOnnxManifest(
    JSON.stringify({ name: 'm', sampleRate: 44100, chunkSeconds: 1, overlapSeconds: 0.5, ...fields }),
    'm.json',
  );
}

describe('tensor layouts', () => {
  it('permutes axes both ways', () => {
    const data = Float32Array.from({ length: 24 }, (_, i) => i);
    const sizes = { channels: 2, bins: 3, frames: 4 };
    const moved = permuteAxes(data, ['channels', 'bins', 'frames'], ['frames', 'channels', 'bins'], sizes);
    // [c=1, b=2, f=3] is 1·12 + 2·4 + 3 = 23 before and 3·6 + 1·3 + 2 = 23 after.
    expect(moved[3 * 6 + 1 * 3 + 2]).toBe(23);
    expect(moved[0 * 6 + 1 * 3 + 0]).toBe(12);
    expect(
      Array.from(permuteAxes(moved, ['frames', 'channels', 'bins'], ['channels', 'bins', 'frames'], sizes)),
    ).toEqual(Array.from(data));
  });
});

describe('OnnxModelSession', () => {
  it('runs a stacked-mask model and returns each stem in canonical order', async () => {
    const bins = 9;
    const file = join(dir, 'stacked.onnx');
    await writeFile(file, buildStackedMaskModel({ bins, cutoffBin: 4, sharpness: 2 }));
    const manifest = manifestOf({
      kind: 'spectrogram-mask',
      stems: ['bass', 'other'],
      stft: { nFft: 16, hop: 4 },
      contextSeconds: 0,
      input: { name: 'spectrum', layout: ['batch', 'channels', 'frames', 'bins'] },
      output: { name: 'masks', layout: ['stems', 'batch', 'channels', 'frames', 'bins'], value: 'mask' },
    });
    const session = await OnnxModelSession.load(file, manifest);
    const frames = 5;
    const input = Float32Array.from({ length: 2 * bins * frames }, (_, i) => i % 7);
    const [bass, other] = await session.run(input, { channels: 2, bins, frames }, ['channels', 'bins', 'frames']);
    const logits = lowPassLogits(bins, 4, 2);
    for (let c = 0; c < 2; c++) {
      for (let b = 0; b < bins; b++) {
        for (let f = 0; f < frames; f++) {
          const at = (c * bins + b) * frames + f;
          expect(bass![at]).toBeCloseTo(sigmoid(logits[b]!), 6);
          expect(other![at]).toBeCloseTo(1 - sigmoid(logits[b]!), 6);
        }
      }
    }
    await session.release();
  });

  it('runs a waveform model', async () => {
    const file = join(dir, 'wave.onnx');
    await writeFile(
      file,
      buildWaveformModel([
        [0, 1, 0],
        [0.5, 0, 0.5],
      ]),
    );
    const manifest = manifestOf({
      kind: 'waveform',
      stems: ['vocals', 'other'],
      input: { name: 'wave', layout: ['batch', 'channels', 'samples'] },
      output: { name: 'stems', layout: ['batch', 'stems', 'channels', 'samples'] },
    });
    const session = await OnnxModelSession.load(file, manifest);
    const input = Float32Array.from([1, 2, 3, 4, 10, 20, 30, 40]);
    const [vocals, other] = await session.run(input, { channels: 2, samples: 4 }, ['channels', 'samples']);
    expect(Array.from(vocals!)).toEqual([1, 2, 3, 4, 10, 20, 30, 40]);
    // Zero padding at both ends: (x[n−1] + x[n+1]) / 2.
    expect(Array.from(other!)).toEqual([1, 2, 3, 1.5, 10, 20, 30, 15]);
    await session.release();
  });

  it('names the missing model file and names that are not in the model', async () => {
    const manifest = manifestOf({
      kind: 'waveform',
      stems: ['vocals', 'other'],
      input: { name: 'audio', layout: ['batch', 'channels', 'samples'] },
      output: { name: 'stems', layout: ['batch', 'stems', 'channels', 'samples'] },
    });
    const absent = join(dir, 'absent.onnx');
    await expect(OnnxModelSession.load(absent, manifest)).rejects.toThrow(`${absent}: is missing`);
    const file = join(dir, 'wave2.onnx');
    await writeFile(file, buildWaveformModel([[1], [1]]));
    const error = await OnnxModelSession.load(file, manifest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnnxModelError);
    expect((error as OnnxModelError).message).toContain('input.name: names audio; the model has wave');
  });
});
