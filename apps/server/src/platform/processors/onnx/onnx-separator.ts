import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Stft } from '../audio/stft';
import { WavFloatReader, WavFloatWriter } from '../audio/wav-float-file';
import {
  type ProcessorEngine,
  type SeparationInput,
  type SeparationOutput,
  type Separator,
  type StemName,
} from '../processor';
import { ChunkCrossfader, chunkCount, type ChunkPlan, chunkSpans } from './chunk-crossfader';
import { type ChunkSeparator, chunkSeparatorFor } from './chunk-separators';
import { type OnnxManifest, OnnxModelError, onnxModelFiles, readOnnxManifest } from './onnx-manifest';
import { OnnxModelSession } from './onnx-model-session';
import { mixStem, stemRecipes } from './stem-mapper';

export function onnxEngine(modelName: string): ProcessorEngine {
  return { id: `onnx:${modelName}`, label: `model: ${modelName} (ONNX)`, kind: 'onnx-model' };
}

export interface OnnxSeparatorOptions {
  /** ONNX Runtime's threads per run; default 1, as the worker runs several tasks side by side. */
  threads?: number;
}

interface LoadedModel {
  manifest: OnnxManifest;
  session: OnnxModelSession;
  chunks: ChunkSeparator;
  plan: ChunkPlan;
}

/**
 * Separates stems with an operator's ONNX model: `<folder>/<name>.onnx` described by
 * `<folder>/<name>.json` (docs/PROCESSORS-ONNX.md). The manifest and session are loaded on first
 * use and kept; a failed load is retried on the next call, so a fixed file needs no restart.
 */
export class OnnxSeparator implements Separator {
  readonly engine: ProcessorEngine;
  private loading: Promise<LoadedModel> | null = null;

  constructor(
    private readonly folder: string,
    readonly modelName: string,
    private readonly options: OnnxSeparatorOptions = {},
  ) {
    this.engine = onnxEngine(modelName);
  }

  /** Loads (once) and returns the manifest; throws OnnxModelError naming the file and field. */
  async load(): Promise<OnnxManifest> {
    return (await this.loaded()).manifest;
  }

  async separate(run: SeparationInput): Promise<SeparationOutput> {
    run.signal.throwIfAborted();
    const { manifest, chunks, plan } = await this.loaded();
    const recipes = stemRecipes(manifest.stems, run.mode);
    if (recipes.length === 0) {
      throw new OnnxModelError(onnxModelFiles(this.folder, this.modelName).manifest, [
        { field: 'stems', message: `(${manifest.stems.join(', ')}) give none of the stems of ${run.mode}` },
      ]);
    }
    const reader = await WavFloatReader.open(run.input);
    const paths = recipes.map((recipe) => join(run.outputDir, `${recipe.stem}.wav`));
    const writers: WavFloatWriter[] = [];
    let finished = false;
    try {
      if (reader.sampleRate !== manifest.sampleRate || reader.channels < 1 || reader.channels > 2) {
        throw new Error(
          `${run.input}: ${reader.channels} channels at ${reader.sampleRate} Hz; the model takes stereo at ${manifest.sampleRate} Hz`,
        );
      }
      for (const path of paths)
        writers.push(await WavFloatWriter.create(path, { sampleRate: reader.sampleRate, channels: 2 }));
      const crossfader = new ChunkCrossfader(plan, (stem, channels) => writers[stem]!.write(channels));
      const total = reader.frames;
      const count = chunkCount(total, plan);
      for (const span of chunkSpans(total, plan)) {
        run.signal.throwIfAborted();
        const read = await reader.read(span.start, span.end - span.start);
        // A mono file is heard on both channels, as a stereo model expects.
        const mixture = read.length === 1 ? [read[0]!, read[0]!.slice()] : read;
        // An empty file has nothing to run the model on; its stems are empty too.
        const stems =
          span.end > span.start
            ? await chunks.separate(mixture)
            : manifest.stems.map(() => mixture.map(() => new Float32Array(0)));
        const outputs = recipes.map((recipe) => mixStem(recipe, mixture, stems));
        await crossfader.add(span, outputs, span.end >= total);
        await run.onProgress((span.index + 1) / count);
        // The cross-fader has written what no later chunk changes: the stems' finished start.
        await run.onPartial?.({
          frames: writers[0]!.frames,
          total,
          sampleRate: reader.sampleRate,
          stems: Object.fromEntries(recipes.map((recipe, i) => [recipe.stem, paths[i]!])),
        });
      }
      await Promise.all(writers.map((writer) => writer.close()));
      finished = true;
    } finally {
      await reader.close();
      if (!finished) {
        // Half-written stems must not pass for results: close and remove them.
        await Promise.allSettled(writers.map((writer) => writer.close()));
        await Promise.allSettled(paths.map((path) => rm(path, { force: true })));
      }
    }
    const stems: Partial<Record<StemName, string>> = {};
    recipes.forEach((recipe, i) => (stems[recipe.stem] = paths[i]!));
    return { stems, engine: this.engine };
  }

  /** Releases the session; the next call loads it again. */
  async close(): Promise<void> {
    const loading = this.loading;
    this.loading = null;
    const model = await loading?.catch(() => null);
    await model?.session.release();
  }

  private loaded(): Promise<LoadedModel> {
    if (!this.loading) {
      const loading = this.loadModel();
      this.loading = loading;
      loading.catch(() => {
        if (this.loading === loading) this.loading = null;
      });
    }
    return this.loading;
  }

  private async loadModel(): Promise<LoadedModel> {
    const files = onnxModelFiles(this.folder, this.modelName);
    const manifest = await readOnnxManifest(this.folder, this.modelName);
    const plan = chunkPlanOf(manifest, files.manifest);
    const session = await OnnxModelSession.load(files.model, manifest, this.options.threads);
    return { manifest, session, chunks: chunkSeparatorFor(manifest, session), plan };
  }
}

/**
 * Chunk and overlap in samples; for spectrogram models whole hops, so every chunk's frames sit on
 * the file's frame grid. Checks that a chunk fits a model exported for a fixed size.
 */
export function chunkPlanOf(manifest: OnnxManifest, file: string): ChunkPlan {
  const rate = manifest.sampleRate;
  const hop = manifest.stft?.hop ?? 1;
  const whole = (seconds: number) => Math.max(1, Math.round((seconds * rate) / hop)) * hop;
  const length = whole(manifest.chunkSeconds);
  const overlap = manifest.overlapSeconds > 0 ? whole(manifest.overlapSeconds) : 0;
  const context = Math.min(
    Math.floor(overlap / 2),
    manifest.contextSeconds === undefined ? (manifest.stft?.nFft ?? 0) : Math.ceil(manifest.contextSeconds * rate),
  );
  const fail = (message: string) => new OnnxModelError(file, [{ field: 'chunkSeconds', message }]);
  if (manifest.stft && manifest.input.frames !== undefined) {
    const frames = new Stft({ size: manifest.stft.nFft, hop }).frameCount(length);
    if (frames > manifest.input.frames) {
      const most = ((manifest.input.frames - manifest.stft.nFft / hop + 1) * hop) / rate;
      throw fail(
        `gives ${frames} frames but the model takes ${manifest.input.frames} (at most ${(Math.floor(most * 1000) / 1000).toFixed(3)} s)`,
      );
    }
  }
  if (manifest.input.samples !== undefined && length > manifest.input.samples) {
    throw fail(`gives ${length} samples but the model takes ${manifest.input.samples}`);
  }
  if (2 * overlap > length) throw fail(`${length} samples is less than twice the overlap (${overlap})`);
  return { length, overlap, context };
}
