import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'mixroom-audio-'));

/** A real audio file made by ffmpeg: a sine tone (optionally with a quiet second tone). */
export function makeAudio(name: string, options: { seconds?: number; frequency?: number; codec?: string; sampleRate?: number; volume?: number } = {}): string {
  const path = join(dir, name);
  const seconds = options.seconds ?? 3;
  const codecArgs = options.codec ? ['-c:a', options.codec] : [];
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${options.frequency ?? 440}:sample_rate=${options.sampleRate ?? 48000}:duration=${seconds}`,
    '-af',
    `volume=${options.volume ?? 0.5}`,
    '-ac',
    '2',
    ...codecArgs,
    path,
  ]);
  return path;
}

/** Integrated loudness and true peak as ffmpeg's own ebur128 reports them, for comparison. */
export function referenceLoudness(path: string): { integrated: number; truePeak: number } {
  const { stderr } = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-i', path, '-af', 'ebur128=peak=true', '-f', 'null', '-'], { encoding: 'utf8' });
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  return { integrated: Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]), truePeak: Number(/Peak:\s+(-?[\d.]+) dBFS/.exec(summary)?.[1]) };
}

export const audioDir = dir;
