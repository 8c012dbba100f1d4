/**
 * The separator every Mixroom has: signal processing, no model (no separation weights ship with
 * Mixroom), so it works on any node out of the box. What the masks look at is in stem-masks.ts;
 * this file streams the file through two stages of them: drums come out first, from short frames
 * of the mixture; vocals and bass then come out of what the drums leave, from long frames.
 *
 * Chunks: the input is read a few seconds at a time, with enough samples around each chunk for
 * both stages' frames and the masks' context (their medians and averages look a few frames away).
 * Each stage's frames sit on one grid for the whole file and a mask only depends on its
 * neighbourhood, so a chunk's output is exactly what processing the whole file at once would give:
 * no seam, no crossfade, and memory bounded by the chunk (about 100 MB of arrays for 5 s) whatever
 * the file's length. Progress is reported and the abort signal checked once per chunk.
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
  type BandSettings,
  STABLE_OUTPUTS,
  SpectralCues,
  type StageSettings,
  TRANSIENT_OUTPUTS,
  stableMasks,
  stageContextFrames,
  transientMasks,
} from './stem-masks';
import { type Stereo, StftStage } from './stft-stage';

export const BUILTIN_DSP_ENGINE: ProcessorEngine = {
  id: 'builtin-dsp',
  label: 'built-in (signal processing)',
  kind: 'signal-processing',
};

export interface BuiltinSeparatorSettings extends BandSettings {
  /** Long frames: fine in frequency, where steady instruments and bass are told from the rest. */
  stable: StageSettings;
  /** Short frames: fine in time, where drum hits are told from the voice. */
  transient: StageSettings;
  /** Seconds of output per chunk: memory grows with it, speed hardly. */
  chunkSeconds: number;
}

export const BUILTIN_SEPARATOR_DEFAULTS: BuiltinSeparatorSettings = {
  // 4096 samples at 44.1 kHz: 93 ms frames, 10.8 Hz bins; medians over ±280 ms and ±130 Hz.
  stable: { fftSize: 4096, hop: 1024, harmonicRadius: 12, percussiveRadius: 12, coherenceFrames: 2, coherenceBins: 3 },
  // 1024 samples: 23 ms frames, 43 Hz bins; medians over ±58 ms and ±690 Hz.
  transient: {
    fftSize: 1024,
    hop: 256,
    harmonicRadius: 10,
    percussiveRadius: 16,
    coherenceFrames: 2,
    coherenceBins: 1,
  },
  stableVocalWeight: 0.75,
  // Most of a voice's energy lies above 300 Hz and most of a bass line's below: the overlap is
  // split by the fades.
  voiceLowHz: [150, 300],
  voiceHighHz: [8000, 14000],
  bassHz: [180, 260],
  chunkSeconds: 5,
};

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
    const { sampleRate } = reader;
    const length = reader.frames;
    const longStft = new Stft({ size: settings.stable.fftSize, hop: settings.stable.hop, window: 'sqrt-hann' });
    const shortStft = new Stft({ size: settings.transient.fftSize, hop: settings.transient.hop, window: 'sqrt-hann' });
    const chunk = Math.max(1, Math.round((settings.chunkSeconds * sampleRate) / longStft.hop)) * longStft.hop;
    const stable = new StftStage(longStft, stageContextFrames(settings.stable), STABLE_OUTPUTS, sampleRate, chunk);
    const [needFrom, needTo] = stable.inputRange(0, chunk);
    const transient = new StftStage(
      shortStft,
      stageContextFrames(settings.transient),
      TRANSIENT_OUTPUTS,
      sampleRate,
      needTo - needFrom + 2 * longStft.hop,
    );
    const longCues = new SpectralCues(stable.capacity, longStft.bins);
    const shortCues = new SpectralCues(transient.capacity, shortStft.bins);

    await input.onProgress(0);
    for (let start = 0; start < length; start += chunk) {
      input.signal.throwIfAborted();
      const end = Math.min(length, start + chunk);
      // The stable stage needs [middleFrom, middleTo) of what the drums leave, and the transient
      // stage needs [readFrom, readTo) of the input for that.
      const [middleFrom, middleTo] = stable.inputRange(start, end);
      const [readFrom, readTo] = transient.inputRange(middleFrom, middleTo);
      const mixture = await readPadded(reader, readFrom, readTo - readFrom);
      const { drums } = transient.run(mixture, readFrom, middleFrom, middleTo, (block, from, to, masks) =>
        transientMasks(block, from, to, masks, shortCues, settings.transient),
      );
      const rest = mixture.map((channel, side) =>
        subtract(channel.subarray(middleFrom - readFrom, middleTo - readFrom), drums[side]!),
      ) as Stereo;
      const { vocals, bass } = stable.run(rest, middleFrom, start, end, (block, from, to, masks) =>
        stableMasks(block, from, to, masks, longCues, settings.stable, settings),
      );
      const inChunk = (pair: Stereo, pairStart: number) =>
        pair.map((channel) => channel.subarray(start - pairStart, end - pairStart)) as Stereo;
      await writeStems(writers, inChunk(mixture, readFrom), { vocals, drums: inChunk(drums, middleFrom), bass });
      await input.onProgress(end / length);
      await input.onPartial?.({ frames: end, total: length, sampleRate, stems: pathsOf(writers) });
    }
    input.signal.throwIfAborted();
    if (length === 0) await input.onProgress(1);
  }
}

function pathsOf(writers: Map<StemName, WavFloatWriter>): Partial<Record<StemName, string>> {
  return Object.fromEntries([...writers].map(([stem, writer]) => [stem, writer.path]));
}

function subtract(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! - b[i]!;
  return out;
}

/** Samples [from, from + count) of both channels, zeros outside the file; mono is doubled. */
async function readPadded(reader: WavFloatReader, from: number, count: number): Promise<Stereo> {
  const left = new Float32Array(count);
  const right = new Float32Array(count);
  const first = Math.max(0, from);
  const read = await reader.read(first, from + count - first);
  left.set(read[0]!, first - from);
  right.set(read[1] ?? read[0]!, first - from);
  return [left, right];
}

/** Writes the mode's stems of one chunk; no_vocals and other are what the masked stems leave. */
async function writeStems(
  writers: Map<StemName, WavFloatWriter>,
  mixture: Stereo,
  stems: Record<'vocals' | 'drums' | 'bass', Stereo>,
): Promise<void> {
  const noVocals = mixture.map((channel, side) => subtract(channel, stems.vocals[side]!)) as Stereo;
  for (const [stem, writer] of writers) {
    if (stem === 'no_vocals') await writer.write(noVocals);
    else if (stem === 'other') {
      await writer.write(
        noVocals.map((channel, side) => subtract(subtract(channel, stems.drums[side]!), stems.bass[side]!)),
      );
    } else await writer.write(stems[stem]);
  }
}
