import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../src/platform/clock/clock';
import { audioDir, generateAudio } from './helpers/audio';
import { startMediaHarness, type MediaHarness } from './helpers/media-harness';

let harness: MediaHarness;
const clock = new TestClock(new Date('2026-11-24T08:00:00Z'));

beforeAll(async () => {
  harness = await startMediaHarness({ clock });
});
afterAll(() => harness.close());

/** Twenty seconds of tone in `extension`, then only its first `keep` of the bytes, as an upload cut off. */
function cutShort(extension: string, extra: string[], keep = 0.1): string {
  const full = generateAudio(
    join(audioDir, `full.${extension}`),
    'sine=frequency=440:sample_rate=48000:duration=20',
    extra,
  );
  const bytes = readFileSync(full);
  const path = join(audioDir, `cut.${extension}`);
  writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length * keep)));
  return path;
}

describe('files shorter than their header says', () => {
  it.each([
    ['wav', ['-c:a', 'pcm_s24le']],
    ['flac', ['-c:a', 'flac']],
    ['aiff', ['-c:a', 'pcm_s16be']],
    ['mp3', ['-c:a', 'libmp3lame', '-b:a', '192k']],
  ])('a %s cut to a tenth plays what is there, with a warning', async (extension, extra) => {
    const version = await harness.process(cutShort(extension, extra));
    expect(version.status).toBe('ready');
    // The timeline is what plays, not what the header promised.
    expect(version.durationSeconds).toBeGreaterThan(1);
    expect(version.durationSeconds).toBeLessThan(2.2);
    const present = `0:0${Math.round(version.durationSeconds!)}`;
    expect(version.warning).toBe(
      `This file is shorter than its header says (${present} of 0:20): it may have been cut off during upload.`,
    );
    expect(version.lossyPreviewKey).not.toBeNull();
  });

  it('names the lengths of a 37 MB WAV of which 1.1 MB arrived', async () => {
    // 3:20 of 48 kHz 16-bit stereo, the first thirty-fourth of it uploaded.
    const full = generateAudio(join(audioDir, 'long.wav'), 'sine=frequency=440:sample_rate=48000:duration=200', [
      '-c:a',
      'pcm_s16le',
    ]);
    const path = join(audioDir, 'long-cut.wav');
    writeFileSync(path, readFileSync(full).subarray(0, Math.floor(statSync(full).size / 34)));
    const version = await harness.process(path);
    expect(version.status).toBe('ready');
    expect(version.warning).toBe(
      'This file is shorter than its header says (0:06 of 3:20): it may have been cut off during upload.',
    );
  });

  it('gives whole files no warning', async () => {
    for (const [extension, extra] of [
      ['wav', ['-c:a', 'pcm_s16le']],
      ['flac', ['-c:a', 'flac']],
      ['mp3', ['-c:a', 'libmp3lame', '-b:a', '192k']],
    ] as const) {
      const path = generateAudio(
        join(audioDir, `whole.${extension}`),
        'sine=frequency=440:sample_rate=44100:duration=7',
        [...extra],
      );
      const version = await harness.process(path);
      expect({ extension, status: version.status, warning: version.warning }).toEqual({
        extension,
        status: 'ready',
        warning: null,
      });
      expect(version.durationSeconds).toBeCloseTo(7, 1);
    }
  });

  it('warns about an MP3 damaged in the middle that still plays to its end', async () => {
    const full = generateAudio(join(audioDir, 'damaged-src.mp3'), 'anoisesrc=d=6:c=pink:a=0.3:sample_rate=48000', [
      '-c:a',
      'libmp3lame',
      '-b:a',
      '192k',
    ]);
    const bytes = readFileSync(full);
    // A few hundred bytes of garbage in the middle: the decoder skips a frame and says so.
    const middle = Math.floor(bytes.length / 2);
    for (let i = middle; i < middle + 300; i++) bytes[i] = (i * 7919) & 0xff;
    const path = join(audioDir, 'damaged.mp3');
    writeFileSync(path, bytes);
    const version = await harness.process(path);
    expect(version.status).toBe('ready');
    expect(version.warning).toBe(
      'Parts of this file could not be decoded: it may be damaged, and playback may skip there.',
    );
    expect(harness.logs.some((line) => line.includes(version.id) && line.includes('decoder reported bad data'))).toBe(
      true,
    );
  });
});

describe('errors users see', () => {
  it('stores a plain sentence for an unreadable file and logs the details', async () => {
    const path = join(audioDir, 'notes.wav');
    writeFileSync(path, 'These are my session notes, not audio.\n'.repeat(50));
    const version = await harness.process(path);
    expect(version.status).toBe('corrupt');
    expect(version.error).toBe('This file could not be read as audio.');
    expect(version.warning).toBeNull();
    const logged = harness.logs.find((line) => line.includes(version.id) && line.includes('version is corrupt'));
    // The log keeps what an operator needs, server path included.
    expect(logged).toContain(harness.dataDir);
  });

  it('never stores a server path in a version', async () => {
    const path = join(audioDir, 'tiny.flac');
    writeFileSync(path, Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(40, 0xff)]));
    const version = await harness.process(path);
    expect(version.status).toBe('corrupt');
    expect(`${version.error} ${version.warning}`).not.toMatch(/\/|objects|projects|ffmpeg|\[/);
  });
});
