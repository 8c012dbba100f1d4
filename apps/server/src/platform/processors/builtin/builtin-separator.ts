/**
 * The separator every Mixroom has: signal processing, no model (no separation weights ship with
 * Mixroom), so it works on any node out of the box. How it decides is in stem-masks.ts; this file
 * streams the file through it.
 *
 * Chunks: the input is read a few seconds at a time, with enough samples around each chunk for
 * the STFT frames that touch it and the masks' context (their medians and averages look a few
 * frames away). Frames sit on one grid for the whole file and a mask only depends on its
 * neighbourhood, so a chunk's output is exactly what processing the whole file at once would give:
 * no seam, no crossfade, and memory bounded by the chunk (about 40 MB) whatever the file's length.
 * Progress is reported and the abort signal checked once per chunk.
 *
 * The stems of a mode sum back to the input (to float rounding): vocals, drums and bass are masked
 * from the input, no_vocals is the input minus vocals, other the input minus vocals, drums and
 * bass. Nothing is lost or invented, only assigned.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Stft } from '../audio/stft';
import { WavFloatReader, WavFloatWriter } from '../audio/wav-float-file';
import {
  STEMS_OF_MODE,
  type ProcessorEngine,
  type SeparationInput,
  type SeparationOutput,
  type Separator,
  type StemName,
} from '../processor';
import {
  type MaskSettings,
  MaskWorkspace,
  type StemMasks,
  type StereoBlock,
  allocateMasks,
  computeStemMasks,
  maskContextFrames,
} from './stem-masks';

export const BUILTIN_DSP_ENGINE: ProcessorEngine = {
  id: 'builtin-dsp',
  label: 'built-in (signal processing)',
  kind: 'signal-processing',
};

export interface BuiltinSeparatorSettings extends MaskSettings {
  /** STFT frame length and hop, in samples (at 44.1 kHz 4096 is 93 ms: fine enough in frequency to
   * tell a voice's harmonics from a guitar's, while a hop of a quarter keeps hits in place). */
  fftSize: number;
  hop: number;
  /** Seconds of output per chunk: memory grows with it, speed hardly. */
  chunkSeconds: number;
}

export const BUILTIN_SEPARATOR_DEFAULTS: BuiltinSeparatorSettings = {
  fftSize: 4096,
  hop: 1024,
  chunkSeconds: 5,
  harmonicRadius: 8,
  percussiveRadius: 12,
  coherenceFrames: 1,
  coherenceBins: 2,
  centreSharpness: 1,
  voiceLowHz: [90, 180],
  voiceHighHz: [8000, 14000],
  bassHz: [180, 260],
};

type Computed = 'vocals' | 'drums' | 'bass';

export class BuiltinSeparator implements Separator {
  readonly engine = BUILTIN_DSP_ENGINE;
  private readonly settings: BuiltinSeparatorSettings;

  constructor(settings: Partial<BuiltinSeparatorSettings> = {}) {
    this.settings = { ...BUILTIN_SEPARATOR_DEFAULTS, ...settings };
  }

  async separate(input: SeparationInput): Promise<SeparationOutput> {
    const stemNames = STEMS_OF_MODE[input.mode];
    const paths = Object.fromEntries(stemNames.map((stem) => [stem, join(input.outputDir, `${stem}.wav`)])) as Partial<
      Record<StemName, string>
    >;
    const reader = await WavFloatReader.open(input.input);
    const writers = new Map<StemName, WavFloatWriter>();
    try {
      if (reader.channels > 2) throw new Error(`expected stereo input, got ${reader.channels} channels`);
      for (const stem of stemNames) {
        writers.set(stem, await WavFloatWriter.create(paths[stem]!, { sampleRate: reader.sampleRate, channels: 2 }));
      }
      await this.run(reader, input, writers);
      for (const writer of writers.values()) await writer.close();
      return { stems: paths, engine: this.engine };
    } catch (error) {
      // Leave no half-written stem behind for anyone to mistake for a result.
      for (const writer of writers.values()) await writer.close().catch(() => undefined);
      await Promise.all(Object.values(paths).map((path) => rm(path, { force: true })));
      throw error;
    } finally {
      await reader.close();
    }
  }

  private async run(
    reader: WavFloatReader,
    input: SeparationInput,
    writers: Map<StemName, WavFloatWriter>,
  ): Promise<void> {
    const { settings } = this;
    const stft = new Stft({ size: settings.fftSize, hop: settings.hop, window: 'sqrt-hann' });
    const { bins, hop, size } = stft;
    const computed: Computed[] = input.mode === 'EVERYTHING' ? ['vocals', 'drums', 'bass'] : ['vocals'];
    const length = reader.frames;
    const chunk = Math.max(1, Math.round((settings.chunkSeconds * reader.sampleRate) / hop)) * hop;
    const context = maskContextFrames(settings);
    const maxFrames = chunk / hop + size / hop + 2 * context + 1;
    const spectra = () => ({ re: new Float32Array(maxFrames * bins), im: new Float32Array(maxFrames * bins) });
    const block: StereoBlock = { frames: 0, bins, binHz: reader.sampleRate / size, left: spectra(), right: spectra() };
    const workspace = new MaskWorkspace(maxFrames * bins, bins);
    const masks = allocateMasks(maxFrames * bins);
    const maskedRe = new Float32Array(bins);
    const maskedIm = new Float32Array(bins);

    await input.onProgress(0);
    for (let start = 0; start < length; start += chunk) {
      input.signal.throwIfAborted();
      const end = Math.min(length, start + chunk);
      // Frames touching [start, end), and `context` more on each side for the masks.
      const firstFrame = Math.floor(start / hop) - context;
      const lastFrame = Math.ceil((end + size - hop) / hop) - 1 + context;
      block.frames = lastFrame - firstFrame + 1;
      const readStart = stft.frameStart(firstFrame);
      const channels = await readPadded(reader, readStart, stft.frameStart(lastFrame) + size - readStart);
      for (let j = 0; j < block.frames; j++) {
        const at = stft.frameStart(firstFrame + j) - readStart;
        const span = [j * bins, (j + 1) * bins] as const;
        stft.analyze(channels[0], at, block.left.re.subarray(...span), block.left.im.subarray(...span));
        stft.analyze(channels[1], at, block.right.re.subarray(...span), block.right.im.subarray(...span));
      }
      computeStemMasks(block, settings, context, block.frames - context, workspace, masks);

      const outputs = Object.fromEntries(
        computed.map((stem) => [stem, [new Float32Array(end - start), new Float32Array(end - start)]]),
      ) as Record<Computed, [Float32Array, Float32Array]>;
      for (let j = context; j < block.frames - context; j++) {
        const at = stft.frameStart(firstFrame + j) - start;
        for (const stem of computed) {
          for (const side of [0, 1] as const) {
            applyMask(masks, stem, side, block, j, maskedRe, maskedIm);
            stft.synthesize(maskedRe, maskedIm, outputs[stem][side], at);
          }
        }
      }
      const mix = channels.map((channel) => channel.subarray(start - readStart, end - readStart));
      await writeStems(writers, mix, outputs);
      await input.onProgress(end / length);
    }
    input.signal.throwIfAborted();
  }
}

/** Samples [from, from + count) of both channels, zeros outside the file; mono is doubled. */
async function readPadded(reader: WavFloatReader, from: number, count: number): Promise<[Float32Array, Float32Array]> {
  const left = new Float32Array(count);
  const right = new Float32Array(count);
  const first = Math.max(0, from);
  const read = await reader.read(first, from + count - first);
  left.set(read[0]!, first - from);
  right.set(read[1] ?? read[0]!, first - from);
  return [left, right];
}

function applyMask(
  masks: StemMasks,
  stem: Computed,
  side: 0 | 1,
  block: StereoBlock,
  frame: number,
  re: Float32Array,
  im: Float32Array,
): void {
  const mask = masks[stem][side];
  const spectra = side === 0 ? block.left : block.right;
  const offset = frame * block.bins;
  for (let k = 0; k < block.bins; k++) {
    re[k] = spectra.re[offset + k]! * mask[offset + k]!;
    im[k] = spectra.im[offset + k]! * mask[offset + k]!;
  }
}

/** Writes the mode's stems of one chunk; no_vocals and other are what the masked stems leave. */
async function writeStems(
  writers: Map<StemName, WavFloatWriter>,
  mix: Float32Array[],
  outputs: Partial<Record<Computed, [Float32Array, Float32Array]>>,
): Promise<void> {
  const rest = (stems: Computed[]) =>
    mix.map((channel, side) =>
      channel.map((value, i) => stems.reduce((left, stem) => left - outputs[stem]![side]![i]!, value)),
    );
  for (const [stem, writer] of writers) {
    if (stem === 'no_vocals') await writer.write(rest(['vocals']));
    else if (stem === 'other') await writer.write(rest(['vocals', 'drums', 'bass']));
    else await writer.write(outputs[stem]!);
  }
}
