import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePeaks, locateMediaTools, parseEbur128 } from './ffmpeg';
import { LoudnessTask } from './loudness-task';
import { readWavLayout } from './wav-peaks';

const dir = mkdtempSync(join(tmpdir(), 'mixroom-loudness-task-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tools = locateMediaTools({});

/** Pink noise with a louder second half, so gating and the peak's place both matter. */
function noise(name: string, extra: string[]): string {
  const path = join(dir, name);
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', "anoisesrc=c=pink:r=44100:a=0.2:d=8:s=5,volume='if(lt(t,4),0.5,1)':eval=frame", '-ac', '2'],
    ...extra,
    path,
  ]);
  return path;
}

const reference = (path: string) =>
  parseEbur128(
    spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-i', path, '-af', 'ebur128=peak=true', '-f', 'null', '-'], {
      encoding: 'utf8',
    }).stderr,
  )!;

const close = (ours: { integrated: number | null; truePeak: number | null }, path: string) => {
  const expected = reference(path);
  // The summary prints tenths: 0.1 plus its rounding.
  expect(Math.abs(ours.integrated! - expected.integrated!)).toBeLessThanOrEqual(0.15);
  expect(Math.abs(ours.truePeak! - expected.truePeak!)).toBeLessThanOrEqual(0.15);
};

describe('loudness on a worker thread', { timeout: 60_000 }, () => {
  it('reads a local WAV’s samples itself', async () => {
    const path = noise('noise.wav', ['-c:a', 'pcm_s24le']);
    const layout = readWavLayout(readFileSync(path).subarray(0, 65536), statSync(path).size)!;
    const task = LoudnessTask.ofFile(layout, { path, start: layout.dataStart, length: layout.dataLength });
    close(await task.result, path);
  });

  it('meters the float PCM of the decode that makes the peaks (FLAC), from the same ffmpeg run', async () => {
    const path = noise('noise.flac', []);
    const task = LoudnessTask.fed({ channels: 2, sampleRate: 44100, bitsPerSample: 32, float: true });
    const decoded = await decodePeaks(tools, path, { sampleRate: 44100, channels: 2, durationSeconds: 8, pcm: task });
    expect(decoded.bins.frames).toBe(8 * 44100);
    close(await task.result, path);
  });

  it('rejects its result when stopped before the end', async () => {
    const task = LoudnessTask.fed({ channels: 1, sampleRate: 48000, bitsPerSample: 16, float: false });
    task.push(Buffer.alloc(9600));
    await task.stop();
    await expect(task.result).rejects.toThrow();
  });
});
