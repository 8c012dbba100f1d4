import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'mixroom-audio-'));

/** Writes a stereo file from an ffmpeg lavfi source (`sine=…`, `anoisesrc=…`); the format follows the extension. */
export function generateAudio(path: string, source: string, extra: string[] = []): string {
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    source,
    '-ac',
    '2',
    ...extra,
    path,
  ]);
  return path;
}

/** A real audio file made by ffmpeg: a sine tone, in this test run's folder or in `dir`. */
export function makeAudio(
  name: string,
  options: {
    seconds?: number;
    frequency?: number;
    codec?: string;
    sampleRate?: number;
    volume?: number;
    dir?: string;
  } = {},
): string {
  const source = `sine=frequency=${options.frequency ?? 440}:sample_rate=${options.sampleRate ?? 48000}:duration=${options.seconds ?? 3}`;
  return generateAudio(join(options.dir ?? dir, name), source, [
    '-af',
    `volume=${options.volume ?? 0.5}`,
    ...(options.codec ? ['-c:a', options.codec] : []),
  ]);
}

/** Integrated loudness and true peak as ffmpeg's own ebur128 reports them, for comparison. */
export function referenceLoudness(path: string): { integrated: number; truePeak: number } {
  const { stderr } = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-i', path, '-af', 'ebur128=peak=true', '-f', 'null', '-'],
    { encoding: 'utf8' },
  );
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  return {
    integrated: Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]),
    truePeak: Number(/Peak:\s+(-?[\d.]+) dBFS/.exec(summary)?.[1]),
  };
}

export const audioDir = dir;
