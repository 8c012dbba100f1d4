import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { audioDir, generateAudio } from './audio';

/** Where B differs from A in `changedPair`, on A's timeline, and how much later B starts. */
export const CHANGE = { start: 4, end: 6, gainDb: 3, offsetSeconds: 0.012 } as const;

/**
 * Two bounces of one mix, as a "what changed" lane must tell them apart: A is pink noise (a full
 * spectrum, like a mix), B is A with one stretch turned up by 3 dB and the whole file starting
 * 12 ms later (a bounce's shift). Both 48 kHz stereo WAVs.
 */
export function changedPair(seconds = 12, dir = audioDir): { a: string; b: string } {
  const a = generateAudio(
    join(dir, 'Mix A.wav'),
    `anoisesrc=color=pink:seed=7:amplitude=0.25:sample_rate=48000:duration=${seconds}`,
  );
  const b = join(dir, 'Mix B.wav');
  const delayMs = CHANGE.offsetSeconds * 1000;
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-i', a],
    '-af',
    `volume=volume=${CHANGE.gainDb}dB:enable='between(t,${CHANGE.start},${CHANGE.end})',adelay=${delayMs}|${delayMs}`,
    b,
  ]);
  return { a, b };
}

/**
 * A mix as the alignment's hard case: a held low E (41.2 Hz, 24.3 ms a period) and its harmonics
 * far above a bed of pink noise, so the plain correlation has peaks a period apart of nearly the
 * same height. 48 kHz stereo WAV.
 */
export function bassMix(seconds = 12, dir = audioDir): string {
  return generateAudio(
    join(dir, 'Bass mix.wav'),
    `aevalsrc='${lowE(0)}':s=48000:d=${seconds}:c=stereo[bass];` +
      `anoisesrc=color=pink:seed=3:amplitude=0.05:sample_rate=48000:duration=${seconds}[bed];` +
      '[bass][bed]amix=inputs=2:normalize=0[out0]',
    ['-c:a', 'pcm_s16le'],
  );
}

/** The held low E alone, its waveform `delaySeconds` later: periodic, so no offset can be known from it. */
export function heldNote(name: string, delaySeconds: number, seconds = 12, dir = audioDir): string {
  return generateAudio(join(dir, name), `aevalsrc='${lowE(delaySeconds)}':s=48000:d=${seconds}:c=stereo`, [
    '-c:a',
    'pcm_s16le',
  ]);
}

const lowE = (delay: number) =>
  [0.5, 0.2, 0.1].map((amplitude, i) => `${amplitude}*sin(2*PI*${41.2 * (i + 1)}*(t-${delay}))`).join('+');

/** `source` through an ffmpeg audio filter chain, as another bounce of it. */
export function bounceOf(source: string, name: string, filters: string, dir = audioDir): string {
  const out = join(dir, name);
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    source,
    '-af',
    filters,
    '-c:a',
    'pcm_s16le',
    out,
  ]);
  return out;
}
