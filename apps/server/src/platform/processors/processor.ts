/**
 * The AI tools' processors, one interface per kind of work. A processor reads and writes files by
 * path (44.1 kHz stereo 32-bit float WAV in the node's temp space), never whole files in memory:
 * an hour of stereo float audio is 1.2 GB, so every processor works in chunks. The worker decodes
 * the input with ffmpeg before the first stage and encodes the outputs after the last.
 */

/** What produced an output; shown beside every output so nobody mistakes a preset for a model. */
export interface ProcessorEngine {
  /** Stable id kept with each output, e.g. `builtin-dsp`, `onnx:umx-small`, `remote:gpu-1`. */
  id: string;
  /** Shown to users, e.g. "built-in (signal processing)". */
  label: string;
  kind: 'signal-processing' | 'voice-preset' | 'onnx-model' | 'remote';
}

export type StemMode = 'TWOSTEMS' | 'EVERYTHING';
export type StemName = 'vocals' | 'no_vocals' | 'drums' | 'bass' | 'other';
/** TWOSTEMS writes vocals and no_vocals; EVERYTHING adds drums, bass and other. */
export const STEMS_OF_MODE: Record<StemMode, readonly StemName[]> = {
  TWOSTEMS: ['vocals', 'no_vocals'],
  EVERYTHING: ['vocals', 'no_vocals', 'drums', 'bass', 'other'],
};

/** The six voices of the Voice Conversion screen, in the order shown; the first is the default. */
export const VOICE_IDS = ['roberto', 'susy', 'nausicaa', 'chris', 'ponyo', 'lilly'] as const;
export type VoiceId = (typeof VOICE_IDS)[number];

export interface ProcessorRun {
  /** Called with 0..1 as work advances; may be awaited (the stage records progress). */
  onProgress: (fraction: number) => void | Promise<void>;
  /** Aborted when the task is cancelled or the node stops; the processor stops at the next chunk. */
  signal: AbortSignal;
  /** A folder of the temp space the processor may write scratch files into. */
  scratchDir: string;
}

/**
 * The finished start of a separation's stems while it runs: the first `frames` frames of every
 * stem file are final (what later chunks write only follows them), so they can be played already.
 */
export interface PartialStems {
  frames: number;
  /** Frames of the whole input: when `frames` reaches it, the stems are complete. */
  total: number;
  sampleRate: number;
  /** Stem → its float WAV, still growing (its header's sizes are written when it is closed). */
  stems: Partial<Record<StemName, string>>;
}

export interface SeparationInput extends ProcessorRun {
  /** 44.1 kHz stereo float WAV. */
  input: string;
  mode: StemMode;
  /** Where to write `{stem}.wav` for every stem of the mode (same format as the input). */
  outputDir: string;
  /**
   * Called after each chunk with the stems' finished start; awaited, so the processor writes on
   * only once the caller has what it wanted of them. A processor that finishes all at once (remote)
   * never calls it.
   */
  onPartial?: (partial: PartialStems) => void | Promise<void>;
}

export interface SeparationOutput {
  stems: Partial<Record<StemName, string>>;
  engine: ProcessorEngine;
}

export interface Separator {
  readonly engine: ProcessorEngine;
  separate(input: SeparationInput): Promise<SeparationOutput>;
}

export interface VoiceInput extends ProcessorRun {
  /** The separated vocals, 44.1 kHz stereo float WAV. */
  input: string;
  output: string;
  voice: VoiceId;
  /** Semitones added to the voice's own shift; the spec's default is 0. */
  pitch: number;
}

export interface VoiceConverter {
  readonly engine: ProcessorEngine;
  convert(input: VoiceInput): Promise<{ engine: ProcessorEngine }>;
}

/** One plugin of the effects stage and its parameters, as the spec's VST session lists them. */
export interface EffectPlugin {
  name: 'delay' | 'reverb';
  parameters: { name: string; value: number }[];
}

export interface EffectsInput extends ProcessorRun {
  input: string;
  output: string;
  plugins: EffectPlugin[];
  /** Tempo of the input; delay times are in beats of it. */
  bpm: number;
}

export interface EffectsStage {
  readonly engine: ProcessorEngine;
  apply(input: EffectsInput): Promise<{ engine: ProcessorEngine }>;
}
