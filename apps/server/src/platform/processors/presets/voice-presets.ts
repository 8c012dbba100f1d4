import type { MediaTools } from '../../media/ffmpeg';
import { VOICE_IDS, type ProcessorEngine, type VoiceConverter, type VoiceId, type VoiceInput } from '../processor';
import { runFilterGraph, wavFrames } from './filter-runner';

/**
 * The built-in voice conversion: no model and no one's voice, only a pitch shift, a formant shift and
 * an EQ per preset. It runs Debian's ffmpeg binary as a separate program and uses its `rubberband`
 * filter (Rubber Band is GPL-2.0-or-later; it is linked into that binary, not into Mixroom, so
 * nothing GPL-2.0-only is bundled with this AGPL-3.0 code).
 */
export const VOICE_PRESET_ENGINE: ProcessorEngine = {
  id: 'builtin-voice-presets',
  label: 'voice preset (pitch and formant, no model)',
  kind: 'voice-preset',
};

export interface VoicePreset {
  id: VoiceId;
  name: string;
  /** Shown on the Voice Conversion screen; says plainly that this is a preset, not a cloned voice. */
  description: string;
  /** How far the sung notes move, semitones (the task's `pitch` is added to it). */
  semitones: number;
  /**
   * How far the formants (the vocal tract's resonances, what makes a voice sound big or small) move,
   * semitones. Apart from the pitch: moving both together is the "chipmunk" effect, moving the
   * pitch alone keeps the singer's size.
   */
  formantSemitones: number;
  /** The timbre: ffmpeg EQ filters after the shift, then a level trim so boosts do not clip. */
  eq: string[];
}

/** The six voices in the screen's order; the first, Roberto, is the default. */
export const VOICE_PRESETS: readonly VoicePreset[] = [
  {
    id: 'roberto',
    name: 'Roberto',
    description:
      'A voice preset, not a clone: deeper and warmer — down 3 semitones, formants lowered 2, a fuller low end.',
    semitones: -3,
    formantSemitones: -2,
    eq: ['lowshelf=f=180:g=3', 'equalizer=f=3000:t=o:w=1:g=-2', 'volume=-2dB'],
  },
  {
    id: 'susy',
    name: 'Susy',
    description:
      'A voice preset, not a clone: higher and lighter — up 4 semitones, formants raised 3, a touch of presence.',
    semitones: 4,
    formantSemitones: 3,
    eq: ['highpass=f=110', 'equalizer=f=3500:t=o:w=1:g=3', 'volume=-2dB'],
  },
  {
    id: 'nausicaa',
    name: 'Nausicaa',
    description:
      'A voice preset, not a clone: airy and soft — up 5 semitones, formants raised 2, a thinner body and an open top.',
    semitones: 5,
    formantSemitones: 2,
    eq: ['highpass=f=150', 'equalizer=f=400:t=o:w=1:g=-3', 'highshelf=f=8000:g=6', 'volume=-3dB'],
  },
  {
    id: 'chris',
    name: 'Chris',
    description: 'A voice preset, not a clone: low and full — down 5 semitones, formants lowered 3, rounder highs.',
    semitones: -5,
    formantSemitones: -3,
    eq: ['lowshelf=f=150:g=2', 'equalizer=f=250:t=o:w=1:g=2', 'highshelf=f=7000:g=-2', 'volume=-2dB'],
  },
  {
    id: 'ponyo',
    name: 'Ponyo',
    description:
      'A voice preset, not a clone: a bright, small voice — up 8 semitones, formants raised 6, thin lows, lifted highs.',
    semitones: 8,
    formantSemitones: 6,
    eq: ['highpass=f=250', 'equalizer=f=2500:t=o:w=1:g=3', 'highshelf=f=6000:g=4', 'volume=-4dB'],
  },
  {
    id: 'lilly',
    name: 'Lilly',
    description: 'A voice preset, not a clone: higher and clear — up 7 semitones, formants raised 4, presence lifted.',
    semitones: 7,
    formantSemitones: 4,
    eq: ['highpass=f=180', 'equalizer=f=4000:t=o:w=1:g=3', 'volume=-2dB'],
  },
];

// The catalogue and the interface's id list must agree, in the same order.
if (VOICE_PRESETS.map((p) => p.id).join() !== VOICE_IDS.join())
  throw new Error('VOICE_PRESETS out of step with VOICE_IDS');

/** What the UI lists: id, name and description, in order (the default first). */
export const VOICE_CATALOGUE = VOICE_PRESETS.map(({ id, name, description }) => ({ id, name, description }));

/** The task's pitch is kept within two octaves either way: beyond that no preset sounds like a voice. */
export const MAX_EXTRA_SEMITONES = 24;

const ratio = (semitones: number) => 2 ** (semitones / 12);

/** Rubber Band at its best pitch quality, channels together so the stereo image stays put. */
const rubberband = (semitones: number, formant: 'shifted' | 'preserved') =>
  `rubberband=pitch=${ratio(semitones).toFixed(8)}:formant=${formant}:pitchq=quality:channels=together`;

/**
 * The ffmpeg filter chain of a preset. Two Rubber Band passes give the formants their own amount: the
 * first moves pitch and formants together by the formant shift; the second moves the pitch alone
 * (formants preserved) by what remains. ffmpeg's filter compensates Rubber Band's latency, to within
 * ~10 ms per pass (measured: a shift up comes out slightly early, a shift down slightly late), so the
 * converted vocals still sit on the accompaniment.
 */
export function voiceFilterChain(preset: VoicePreset, extraSemitones: number): string[] {
  const pitch = preset.semitones + extraSemitones;
  const chain = ['aformat=sample_fmts=flt:channel_layouts=stereo'];
  if (preset.formantSemitones !== 0) chain.push(rubberband(preset.formantSemitones, 'shifted'));
  if (pitch !== preset.formantSemitones) chain.push(rubberband(pitch - preset.formantSemitones, 'preserved'));
  return [...chain, ...preset.eq];
}

export function voicePreset(id: VoiceId): VoicePreset {
  const preset = VOICE_PRESETS.find((p) => p.id === id);
  if (!preset) throw new RangeError(`Unknown voice: ${String(id)}`);
  return preset;
}

export class PresetVoiceConverter implements VoiceConverter {
  readonly engine = VOICE_PRESET_ENGINE;

  constructor(private readonly tools: MediaTools) {}

  async convert(input: VoiceInput): Promise<{ engine: ProcessorEngine }> {
    const preset = voicePreset(input.voice);
    if (!Number.isFinite(input.pitch) || Math.abs(input.pitch) > MAX_EXTRA_SEMITONES)
      throw new RangeError(`The pitch must be between −${MAX_EXTRA_SEMITONES} and ${MAX_EXTRA_SEMITONES} semitones.`);
    const { frames, sampleRate } = await wavFrames(input.input);
    const chain = voiceFilterChain(preset, input.pitch);
    // Rubber Band's output can end a few milliseconds short of the input or past it: pad, then cut,
    // to the input's length exactly.
    const graph = `[0:a]${[...chain, `apad=whole_len=${frames}`, `atrim=end_sample=${frames}`].join(',')}[out]`;
    await runFilterGraph(this.tools, { input: input.input, output: input.output, graph, frames, sampleRate }, input);
    return { engine: this.engine };
  }
}
