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
