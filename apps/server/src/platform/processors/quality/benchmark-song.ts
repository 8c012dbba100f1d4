/**
 * Songs for the separation bench, synthesised from known stems at 44.1 kHz stereo: drums (kick,
 * snare, hats, crash, overheads), a bass line, a plucked guitar and keys, and a voice — espeak-ng
 * speaking, or a sung melody with vibrato and vowel formants. Everything is seeded: the same song
 * comes out on every run. Here, beside the processors, so that the bench (bench/separation.bench.ts)
 * and the processors' own tests (the ONNX separator's end-to-end check) mix the same songs.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { RealFft } from '../audio/fft';
import type { StemName } from '../processor';

export type Stereo = [Float32Array, Float32Array];
export interface Song {
  name: string;
  voice: 'espeak' | 'sung';
  bpm: number;
  seed: number;
  /** MIDI note of the key's root in the bass octave. */
  root: number;
  guitarPan: number;
  keysPan: number;
}

const RATE = 44_100;

/** How long the bench's songs are (s). */
export const BENCHMARK_SONG_SECONDS = 30;

/** The bench's two songs: A with a spoken voice (needs espeak-ng), B sung (needs nothing). */
export const BENCHMARK_SONGS: readonly [Song, Song] = [
  { name: 'A (spoken voice)', voice: 'espeak', bpm: 96, seed: 1, root: 45, guitarPan: -0.65, keysPan: 0.55 },
  { name: 'B (sung voice)', voice: 'sung', bpm: 118, seed: 2, root: 40, guitarPan: 0.6, keysPan: -0.5 },
];
const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);
/** Semitones above the root of i, vi, iv, v-ish chords: a four-bar loop. */
const PROGRESSION = [0, 8, 3, 10];
const LYRICS = [
  'the city lights are calling me home tonight',
  'I walked the empty streets until the morning came',
  'every word you said is still ringing in my ears',
  'hold on to the feeling, never let it go',
];

function random(seed: number): () => number {
  let state = seed * 2654435761;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function stereo(length: number): Stereo {
  return [new Float32Array(length), new Float32Array(length)];
}

/** Adds a mono sound at `at` (samples) with a constant-power pan in [−1, 1]. */
function place(
  target: Stereo,
  sound: Float32Array,
  at: number,
  pan: number,
  gain = 1,
  delays: [number, number] = [0, 0],
): void {
  const angle = ((pan + 1) * Math.PI) / 4;
  const gains = [Math.cos(angle) * gain, Math.sin(angle) * gain];
  for (let side = 0; side < 2; side++) {
    const channel = target[side]!;
    const offset = at + delays[side]!;
    for (let i = 0; i < sound.length && offset + i < channel.length; i++)
      if (offset + i >= 0) channel[offset + i]! += sound[i]! * gains[side]!;
  }
}

function addInto(target: Float32Array, sound: Float32Array, at: number, gain = 1): void {
  for (let i = 0; i < sound.length && at + i < target.length; i++) target[at + i]! += sound[i]! * gain;
}

function sound(seconds: number, sample: (t: number, i: number) => number): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * RATE) }, (_, i) => sample(i / RATE, i));
}

/** First difference, repeated: a crude high-pass that leaves noise bright like cymbals. */
function brighten(signal: Float32Array, times: number): Float32Array {
  let out = signal;
  for (let n = 0; n < times; n++) out = out.map((value, i) => value - (i > 0 ? out[i - 1]! : 0));
  return out;
}

function drums(length: number, beat: number, rand: () => number): Stereo {
  const out = stereo(length);
  const overheads = new Float32Array(length);
  const noise = (seconds: number) => sound(seconds, () => rand() * 2 - 1);
  const kick = (() => {
    let phase = 0;
    return sound(0.45, (t) => {
      phase += (2 * Math.PI * (45 + 80 * Math.exp(-t / 0.035))) / RATE;
      return Math.sin(phase) * Math.exp(-t / 0.22) + (t < 0.004 ? (rand() - 0.5) * 0.6 : 0);
    });
  })();
  const snareNoise = brighten(noise(0.35), 1);
  const snare = sound(
    0.35,
    (t, i) => 0.8 * snareNoise[i]! * Math.exp(-t / 0.11) + 0.6 * Math.sin(2 * Math.PI * 190 * t) * Math.exp(-t / 0.07),
  );
  const hatNoise = brighten(noise(0.12), 3);
  const hat = sound(0.12, (t, i) => 0.35 * hatNoise[i]! * Math.exp(-t / 0.028));
  const crashNoise = brighten(noise(2), 2);
  const crash = sound(2, (t, i) => 0.3 * crashNoise[i]! * Math.exp(-t / 0.9));
  for (let n = 0; n * beat < length; n++) {
    const at = Math.round(n * beat);
    const inBar = n % 4;
    if (inBar === 0 || inBar === 2 || (n % 8 === 6 && rand() < 0.7)) place(out, kick, at, 0, 1);
    if (inBar === 1 || inBar === 3) {
      place(out, snare, at, -0.1, 0.8);
      addInto(overheads, snare, at, 0.5);
    }
    for (const half of [0, 0.5]) {
      const at8 = Math.round((n + half) * beat);
      const level = half ? 0.6 : 1;
      place(out, hat, at8, 0.35, level);
      addInto(overheads, hat, at8, level * 0.6);
    }
    if (n % 16 === 0) {
      place(out, crash, at, -0.45, 0.9);
      addInto(overheads, crash, at, 0.7);
    }
  }
  // A spaced pair: the same kit reaches the two overhead mics at different times and levels.
  place(out, brighten(overheads, 1), 0, -0.3, 0.35, [14, 0]);
  place(out, brighten(overheads, 1), 0, 0.3, 0.35, [0, 41]);
  return out;
}

function bass(length: number, beat: number, root: number): Stereo {
  const out = stereo(length);
  for (let n = 0; n * beat * 0.5 < length; n++) {
    const bar = Math.floor(n / 8);
    const note = root + PROGRESSION[bar % 4]! + (n % 8 === 7 ? 7 : 0);
    const f = hz(note);
    const tone = sound((beat * 0.48) / RATE, (t) => {
      let value = 0;
      for (let h = 1; h <= 12; h++)
        value += (Math.sin(2 * Math.PI * f * h * t) / h) * Math.exp(-0.25 * h * (1 + t * 6));
      return value * Math.min(1, t / 0.004) * Math.exp(-t / 0.5);
    });
    place(out, tone, Math.round(n * beat * 0.5), 0, 0.8);
  }
  return out;
}

/** Karplus–Strong: a burst of noise circulating in a damped delay line, a plucked string. */
function pluck(f: number, seconds: number, rand: () => number): Float32Array {
  const period = Math.max(2, Math.round(RATE / f));
  const line = Float32Array.from({ length: period }, () => rand() * 2 - 1);
  const out = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < out.length; i++) {
    const j = i % period;
    out[i] = line[j]!;
    line[j] = 0.497 * (line[j]! + line[(j + 1) % period]!);
  }
  return out;
}

function chords(length: number, beat: number, song: Song, rand: () => number): Stereo {
  const out = stereo(length);
  const bar = beat * 4;
  for (let b = 0; b * bar < length; b++) {
    const base = song.root + 24 + PROGRESSION[b % 4]!;
    const minor = b % 4 === 0 || b % 4 === 1;
    const notes = [base, base + (minor ? 3 : 4), base + 7, base + 12];
    for (const strum of [0, 1.5, 2, 3]) {
      notes.forEach((note, s) =>
        place(
          out,
          pluck(hz(note), (beat * 1.4) / RATE, rand),
          Math.round(b * bar + strum * beat + s * 600),
          song.guitarPan,
          0.25,
        ),
      );
    }
    // Keys: one sustained chord per bar, a little detuned on the far side for width.
    const keys = (detune: number) =>
      sound(bar / RATE, (t) => {
        let value = 0;
        for (const note of notes)
          for (let h = 1; h <= 4; h++) value += Math.sin(2 * Math.PI * hz(note + 12) * (1 + detune) * h * t) / (h * h);
        return value * Math.min(1, t / 0.05) * Math.min(1, (bar / RATE - t) / 0.05) * 0.08;
      });
    place(out, keys(0), Math.round(b * bar), song.keysPan, 1);
    place(out, keys(0.003), Math.round(b * bar), -song.keysPan, 0.35);
  }
  return out;
}

function spokenVoice(length: number, beat: number, dir: string): Float32Array {
  const out = new Float32Array(length);
  const file = join(dir, 'espeak.wav');
  for (let phrase = 0; phrase * beat * 8 < length; phrase++) {
    execFileSync('espeak-ng', [
      '-v',
      'en-us',
      '-s',
      '150',
      '-p',
      String(40 + (phrase % 3) * 8),
      '-w',
      file,
      LYRICS[phrase % LYRICS.length]!,
    ]);
    const raw = execFileSync('ffmpeg', [
      '-v',
      'error',
      '-i',
      file,
      '-ar',
      String(RATE),
      '-ac',
      '1',
      '-f',
      'f32le',
      '-',
    ]);
    const samples = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
    const at = Math.round(phrase * beat * 8);
    for (let i = 0; i < samples.length && at + i < length; i++) out[at + i] = samples[i]!;
  }
  return out;
}

/** Formants (Hz) of the vowels the melody is sung on. */
const VOWELS = [
  [800, 1150, 2900],
  [400, 2000, 2600],
  [300, 2300, 3000],
  [450, 800, 2830],
];

const meanSquare = (signal: Float32Array) => signal.reduce((sum, value) => sum + value * value, 0) / signal.length;

function sungVoice(length: number, beat: number, song: Song, rand: () => number): Float32Array {
  const out = new Float32Array(length);
  const melody = [7, 5, 3, 0, 3, 5, 7, 10, 12, 10, 7, 5, 3, 5, 0, -2];
  for (let n = 0; n * beat < length; n++) {
    if (n % 16 >= 13) continue; // a breath every four bars
    const note = song.root + 24 + melody[n % melody.length]!;
    const vowel = VOWELS[Math.floor(rand() * VOWELS.length)]!;
    const seconds = (beat * 0.95) / RATE;
    let phase = 0;
    const consonant = brighten(
      sound(0.03, () => rand() * 2 - 1),
      2,
    );
    const tone = sound(seconds, (t) => {
      const vibrato = 0.35 * Math.min(1, t / 0.25) * Math.sin(2 * Math.PI * 5.5 * t);
      const f0 = hz(note + vibrato);
      phase += f0 / RATE;
      let value = 0;
      for (let h = 1; h * f0 < 6000; h++) {
        const f = h * f0;
        const envelope = vowel.reduce(
          (sum, formant, i) => sum + 1 / (i + 1) / (1 + ((f - formant) / (60 + formant * 0.08)) ** 2),
          0,
        );
        value += (Math.sin(2 * Math.PI * h * phase) * envelope) / h ** 0.6;
      }
      return value * Math.min(1, t / 0.03) * Math.min(1, (seconds - t) / 0.05) * 0.2;
    });
    addInto(out, tone, Math.round(n * beat));
    // A consonant before the vowel, 10 dB under it, as in a close-miked vocal.
    const level = (0.3 * Math.sqrt(meanSquare(tone))) / Math.sqrt(meanSquare(consonant));
    addInto(out, consonant, Math.round(n * beat), level);
  }
  return out;
}

/** Convolution of `signal` with `kernel` (FFT, one block), cut to the signal's length. */
function convolve(signal: Float32Array, kernel: Float32Array): Float32Array {
  let size = 4;
  while (size < signal.length + kernel.length) size *= 2;
  const fft = new RealFft(size);
  const a = { re: new Float64Array(fft.bins), im: new Float64Array(fft.bins) };
  const b = { re: new Float64Array(fft.bins), im: new Float64Array(fft.bins) };
  const padded = new Float64Array(size);
  padded.set(signal);
  fft.forward(padded, a.re, a.im);
  padded.fill(0);
  padded.set(kernel);
  fft.forward(padded, b.re, b.im);
  for (let k = 0; k < fft.bins; k++) {
    const re = a.re[k]! * b.re[k]! - a.im[k]! * b.im[k]!;
    a.im[k] = a.re[k]! * b.im[k]! + a.im[k]! * b.re[k]!;
    a.re[k] = re;
  }
  fft.inverse(a.re, a.im, padded);
  return Float32Array.from(padded.subarray(0, signal.length));
}

const rms = (pair: Stereo) =>
  Math.sqrt(pair.reduce((sum, channel) => sum + channel.reduce((s, v) => s + v * v, 0), 0) / (2 * pair[0].length));
const scale = (pair: Stereo, gain: number) =>
  pair.forEach((channel) => channel.forEach((v, i) => (channel[i] = v * gain)));

/** The song's stems; no_vocals is drums + bass + other, and the mixture is vocals + no_vocals. */
export function renderSong(song: Song, seconds: number, dir: string): Record<StemName, Stereo> {
  const length = seconds * RATE;
  const beat = (60 / song.bpm) * RATE;
  const rand = random(song.seed);
  const dry = song.voice === 'espeak' ? spokenVoice(length, beat, dir) : sungVoice(length, beat, song, rand);
  // Vocal reverb: decaying noise, different in each channel, 12 dB under the dry voice.
  const impulse = () => sound(1.2, (t) => (rand() * 2 - 1) * Math.exp(-t / 0.3) * (t > 0.02 ? 1 : 0));
  const vocals: Stereo = stereo(length);
  place(vocals, dry, 0, 0);
  const wet = [convolve(dry, impulse()), convolve(dry, impulse())];
  const wetGain = (rms([dry, dry]) / Math.max(1e-9, rms([wet[0]!, wet[1]!]))) * 10 ** (-12 / 20);
  for (let side = 0; side < 2; side++)
    vocals[side]!.forEach((v, i) => (vocals[side]![i] = v + wet[side]![i]! * wetGain));
  const stems = {
    vocals,
    drums: drums(length, beat, rand),
    bass: bass(length, beat, song.root),
    other: chords(length, beat, song, rand),
  };
  // Levels relative to the vocals, as a mix engineer might set them.
  const levels: Record<keyof typeof stems, number> = { vocals: 0, drums: -1, bass: -3, other: -2 };
  for (const name of Object.keys(stems) as (keyof typeof stems)[])
    scale(stems[name], (0.1 * 10 ** (levels[name] / 20)) / rms(stems[name]));
  const noVocals = stereo(length);
  for (const name of ['drums', 'bass', 'other'] as const)
    stems[name].forEach((channel, side) => channel.forEach((v, i) => (noVocals[side]![i]! += v)));
  return { ...stems, no_vocals: noVocals };
}

/** The mixture of a song's stems: its vocals plus everything else. */
export function mixtureOf(stems: Record<StemName, Stereo>): Stereo {
  return stems.vocals.map((channel, side) => channel.map((value, i) => value + stems.no_vocals[side]![i]!)) as Stereo;
}
