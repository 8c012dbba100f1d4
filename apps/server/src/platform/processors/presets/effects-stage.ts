import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MediaError, type MediaTools } from '../../media/ffmpeg';
import { toolCommand, tracked } from '../../media/tool-processes';
import type { EffectPlugin, EffectsInput, EffectsStage, ProcessorEngine } from '../processor';
import { runFilterGraph, wavFrames } from './filter-runner';

/**
 * The Revoice task's last stage: a tempo-synced delay, then a reverb, over the converted vocals.
 *
 * Units. The spec's VST session forces the plugins' tempo to bpm / 499 — a host-tempo parameter
 * normalised to 0..1, where 1 is 499 bpm (`forcedTempo`). Mixroom passes the bpm itself and reads
 * the time parameters as beats of it:
 * - delay `time` 0.6 → 0.6 beats → 0.6 × 60 / bpm seconds: 300 ms at the default 120 bpm, 400 ms at 90;
 * - reverb `predelay` 0.2 → 0.2 beats: 100 ms at 120 bpm (a tempo-tied predelay keeps the words clear
 *   of the tail at any tempo);
 * - reverb `size` 0..1 → a decay time (RT60) of 0.2 + 4.8 × size seconds: 0.15 → 0.92 s, a small plate;
 * - `feedback` is the level of each repeat against the one before; `mix` the wet share: the output is
 *   (1 − mix) × dry + mix × wet.
 * The output keeps the input's length: the vocals span the whole song, and the Revoice download mixes
 * them with the accompaniment sample for sample.
 */
export const EFFECTS_ENGINE: ProcessorEngine = {
  id: 'builtin-effects',
  label: 'built-in effects (delay and reverb)',
  kind: 'signal-processing',
};

/** The spec's presets, in the order the VST session lists them (delay, then reverb). */
export const DEFAULT_EFFECT_PLUGINS: readonly EffectPlugin[] = [
  {
    name: 'delay',
    parameters: [
      { name: 'time', value: 0.6 },
      { name: 'feedback', value: 0.2 },
      { name: 'mix', value: 0.22 },
    ],
  },
  {
    name: 'reverb',
    parameters: [
      { name: 'predelay', value: 0.2 },
      { name: 'size', value: 0.15 },
      { name: 'mix', value: 0.26 },
    ],
  },
];

/** The spec's default when the tempo is unknown. */
export const DEFAULT_BPM = 120;
/** The normalised tempo the spec's VST host is given: bpm / 499. */
export const forcedTempo = (bpm: number) => bpm / 499;
const usableBpm = (bpm: number) => (Number.isFinite(bpm) && bpm >= 20 && bpm <= 499 ? bpm : DEFAULT_BPM);
const beatsToSeconds = (beats: number, bpm: number) => (beats * 60) / usableBpm(bpm);

function parameter(plugin: EffectPlugin, name: string, min: number, max: number): number {
  const fallback = DEFAULT_EFFECT_PLUGINS.find((p) => p.name === plugin.name)!.parameters.find((p) => p.name === name)!;
  const value = plugin.parameters.find((p) => p.name === name)?.value ?? fallback.value;
  if (!Number.isFinite(value) || value < min || value > max)
    throw new RangeError(`The ${plugin.name}'s ${name} must be between ${min} and ${max}.`);
  return value;
}

export interface DelaySettings {
  seconds: number;
  feedback: number;
  mix: number;
}

export function delaySettings(plugin: EffectPlugin, bpm: number): DelaySettings {
  return {
    seconds: beatsToSeconds(parameter(plugin, 'time', 0.01, 16), bpm),
    // Below 1, so the repeats die away.
    feedback: parameter(plugin, 'feedback', 0, 0.95),
    mix: parameter(plugin, 'mix', 0, 1),
  };
}

export interface ReverbSettings {
  predelaySeconds: number;
  rt60Seconds: number;
  mix: number;
}

export function reverbSettings(plugin: EffectPlugin, bpm: number): ReverbSettings {
  return {
    predelaySeconds: beatsToSeconds(parameter(plugin, 'predelay', 0, 2), bpm),
    rt60Seconds: 0.2 + 4.8 * parameter(plugin, 'size', 0, 1),
    mix: parameter(plugin, 'mix', 0, 1),
  };
}

/** Repeats quieter than this (−100 dB) are left out. */
const INAUDIBLE = 1e-5;
/** aecho's longest delay. */
const MAX_ECHO_MS = 90_000;

/**
 * A feedback delay as ffmpeg's `aecho`, which has taps but no feedback path: the k-th repeat is a
 * tap at k × time with level mix × feedback^(k−1), summed with the dry signal at 1 − mix. Repeats
 * are added until they are inaudible.
 */
export function delayFilter({ seconds, feedback, mix }: DelaySettings): string {
  const delays: string[] = [];
  const decays: string[] = [];
  for (let k = 1; k <= 64; k++) {
    const level = mix * feedback ** (k - 1);
    const ms = seconds * 1000 * k;
    if (level < INAUDIBLE || ms > MAX_ECHO_MS) break;
    delays.push(ms.toFixed(3));
    decays.push(level.toPrecision(6));
  }
  if (delays.length === 0) return `volume=${(1 - mix).toPrecision(6)}`;
  return `aecho=in_gain=${(1 - mix).toPrecision(6)}:out_gain=1:delays=${delays.join('|')}:decays=${decays.join('|')}`;
}

/** A small deterministic PRNG (mulberry32): the same settings give the same reverb, run after run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The reverb's impulse response, one array per channel: the dry signal as a unit impulse at 0 scaled
 * by 1 − mix, silence for the predelay, then a tail of noise decaying by 60 dB over RT60, scaled to
 * an energy of mix² so a broadband signal's wet part comes out at `mix` of its level. The tail
 * darkens as it decays (a one-pole low-pass from 9 kHz down to 2 kHz, its loss made up so the
 * broadband decay stays exact), as air and walls absorb highs first. Each channel has its own
 * noise: that is what makes the tail wide.
 */
export function reverbImpulse(settings: ReverbSettings, sampleRate: number): Float32Array[] {
  const start = Math.round(settings.predelaySeconds * sampleRate);
  const tail = Math.max(1, Math.round(settings.rt60Seconds * sampleRate));
  const perSample = Math.log(1000) / (settings.rt60Seconds * sampleRate); // amplitude: −60 dB at RT60
  return [1, 2].map((channel) => {
    const noise = random(0x5eed + channel);
    const shaped = new Float64Array(tail);
    let low = 0;
    let energy = 0;
    for (let i = 0; i < tail; i++) {
      const cutoff = 9000 * (2000 / 9000) ** (i / tail);
      const a = Math.exp((-2 * Math.PI * cutoff) / sampleRate);
      low = (1 - a) * (noise() * 2 - 1) + a * low;
      const value = (low / Math.sqrt((1 - a) / (1 + a))) * Math.exp(-perSample * i);
      shaped[i] = value;
      energy += value * value;
    }
    const impulse = new Float32Array(start + tail);
    const gain = settings.mix / Math.sqrt(energy);
    for (let i = 0; i < tail; i++) impulse[start + i] = shaped[i]! * gain;
    impulse[0] = impulse[0]! + (1 - settings.mix);
    return impulse;
  });
}

/** A 32-bit float WAV of a few seconds (an impulse response): small enough to write in one go. */
export async function writeFloatWav(path: string, channels: Float32Array[], sampleRate: number): Promise<void> {
  const frames = channels[0]?.length ?? 0;
  const count = channels.length;
  const data = Buffer.alloc(frames * count * 4);
  for (let i = 0; i < frames; i++)
    for (let c = 0; c < count; c++) data.writeFloatLE(channels[c]![i]!, (i * count + c) * 4);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8, 'ascii');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(3, 20); // IEEE float
  head.writeUInt16LE(count, 22);
  head.writeUInt32LE(sampleRate, 24);
  head.writeUInt32LE(sampleRate * count * 4, 28);
  head.writeUInt16LE(count * 4, 32);
  head.writeUInt16LE(32, 34);
  head.write('data', 36, 'ascii');
  head.writeUInt32LE(data.length, 40);
  await writeFile(path, Buffer.concat([head, data]));
}

const afirGains = new Map<string, Promise<number>>();

/**
 * What ffmpeg's afir multiplies a stereo impulse response by even with `gtype=none`: measured, not
 * assumed — Debian's 5.1 doubles it, and another build may not. A unit impulse through a unit
 * response, once per ffmpeg binary; the reverb's response is divided by it.
 */
function afirGain(tools: MediaTools): Promise<number> {
  let gain = afirGains.get(tools.ffmpeg);
  if (!gain) {
    const unit = (seconds: number) => [
      '-f',
      'lavfi',
      '-i',
      `aevalsrc=if(eq(n\\,0)\\,1\\,0):s=44100:d=${seconds}:c=stereo`,
    ];
    const args = [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', ...unit(0.05), ...unit(0.01)],
      ...['-filter_complex', '[0:a][1:a]afir=gtype=none:irfmt=input[out]', '-map', '[out]', '-f', 'f32le', 'pipe:1'],
    ];
    gain = new Promise<number>((resolve, reject) => {
      tracked(
        execFile(...toolCommand(tools.ffmpeg, args), { encoding: 'buffer' }, (error, stdout) => {
          const first = stdout.length >= 4 ? stdout.readFloatLE(0) : 0;
          if (error || !(first > 0)) reject(new MediaError("ffmpeg's afir filter could not be measured."));
          else resolve(first);
        }),
      );
    });
    gain.catch(() => afirGains.delete(tools.ffmpeg));
    afirGains.set(tools.ffmpeg, gain);
  }
  return gain;
}

export class BuiltinEffectsStage implements EffectsStage {
  readonly engine = EFFECTS_ENGINE;

  constructor(private readonly tools: MediaTools) {}

  async apply(input: EffectsInput): Promise<{ engine: ProcessorEngine }> {
    const { frames, sampleRate } = await wavFrames(input.input);
    const rate = 44_100;
    const impulses: string[] = [];
    // One chain, plugin after plugin in the session's order; each reverb convolves with its own file.
    let label = 'in';
    const chain = [`[0:a]aresample=${rate},aformat=sample_fmts=flt:channel_layouts=stereo[in]`];
    for (const [index, plugin] of input.plugins.entries()) {
      const next = `p${index}`;
      if (plugin.name === 'delay') {
        chain.push(`[${label}]${delayFilter(delaySettings(plugin, input.bpm))}[${next}]`);
      } else if (plugin.name === 'reverb') {
        const path = join(input.scratchDir, `reverb-${index}.wav`);
        const gain = await afirGain(this.tools);
        const impulse = reverbImpulse(reverbSettings(plugin, input.bpm), rate).map((c) => c.map((v) => v / gain));
        await writeFloatWav(path, impulse, rate);
        impulses.push(path);
        // gtype=none: the impulse carries the dry and wet levels itself; ffmpeg must not rescale it.
        chain.push(`[${label}][${impulses.length}:a]afir=gtype=none:dry=1:wet=1:irfmt=input[${next}]`);
      } else {
        throw new RangeError(`Unknown effect: ${String((plugin as { name: unknown }).name)}`);
      }
      label = next;
    }
    const length = Math.round((frames * rate) / sampleRate);
    chain.push(`[${label}]apad=whole_len=${length},atrim=end_sample=${length}[out]`);
    const graph = chain.join(';');
    await runFilterGraph(
      this.tools,
      { input: input.input, output: input.output, extraInputs: impulses, graph, frames, sampleRate },
      input,
    );
    return { engine: this.engine };
  }
}
