import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeLossyPreview, locateMediaTools, probe, type MediaTools } from '../src/platform/media/ffmpeg';
import { playbackKey } from '../src/modules/storage/media/playback';
import { audioDir, generateAudio } from './helpers/audio';
import { decodeMono, loudestSample, startMediaHarness, type MediaHarness } from './helpers/media-harness';

let harness: MediaHarness;
const system: MediaTools = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };

// Four seconds of quiet noise with one full-scale click at exactly 1.5 s: where a comment would sit.
const CLICK_AT = 1.5;
const clickSource = (rate: number) => `aevalsrc='if(eq(n,${CLICK_AT * rate}),0.95,0.01*sin(2*PI*220*t))':s=${rate}:d=4`;
const original = generateAudio(join(audioDir, 'click.wav'), clickSource(48000), ['-c:a', 'pcm_s24le']);
const derived = (name: string, extra: string[]) => generateAudio(join(audioDir, name), clickSource(48000), extra);

/** Milliseconds between the click in the original and in `path`, both decoded at 48 kHz. */
function clickOffsetMs(path: string): number {
  return ((loudestSample(decodeMono(path)) - loudestSample(decodeMono(original))) / 48000) * 1000;
}

const inputs = {
  wav: original,
  flac: derived('click.flac', ['-c:a', 'flac']),
  aiff: derived('click.aiff', ['-c:a', 'pcm_s16be']),
  mp3: derived('click.mp3', ['-c:a', 'libmp3lame', '-b:a', '320k']),
};

beforeAll(async () => {
  harness = await startMediaHarness();
});
afterAll(() => harness.close());

describe('lossy playback preview', () => {
  it.each(Object.entries(inputs))(
    'is made for %s, differs from the original and keeps its times',
    async (kind, path) => {
      const version = await harness.process(path);
      expect(version.status).toBe('ready');
      expect(version.progress).toBe(100);
      expect(version.lossyPreviewKey).toMatch(/\.m4a$/);
      const previewPath = harness.blobs.localPath(version.lossyPreviewKey!);
      const bytes = readFileSync(previewPath);
      expect(bytes.equals(readFileSync(path))).toBe(false);
      // A lossy codec in a container every browser plays, moov atom first (streams before it is whole).
      const media = await probe(system, previewPath);
      expect(media.codec).toBe('aac');
      expect(media.format).toContain('mp4');
      expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
      // Decodes, as long as the original to 50 ms, the click within 5 ms of where it was.
      const decoded = decodeMono(previewPath);
      expect(Math.abs(decoded.length / 48000 - decodeMono(path).length / 48000)).toBeLessThan(0.05);
      expect(Math.abs(clickOffsetMs(previewPath))).toBeLessThan(5);
      // AIFF needs a browser preview anyway: that lossy one serves both, no second encode.
      if (kind === 'aiff') expect(version.lossyPreviewKey).toBe(version.previewKey);
      else expect(version.lossyPreviewKey).toBe(`projects/${version.projectId}/${version.id}/preview-lossy.m4a`);
    },
  );

  it('is what plays when downloads are off, the original (or its browser preview) when they are on', async () => {
    const wav = await harness.process(inputs.wav);
    expect(playbackKey(wav, true)).toBe(wav.blobKey);
    expect(playbackKey(wav, false)).toBe(wav.lossyPreviewKey);
    expect(playbackKey(wav, false)).not.toBe(wav.blobKey);
    const aiff = await harness.process(inputs.aiff);
    expect(playbackKey(aiff, true)).toBe(aiff.previewKey);
    expect(playbackKey({ ...wav, lossyPreviewKey: null }, false)).toBeNull();
  });

  it('lands after the version is ready for review, beside its loudness', async () => {
    const version = await harness.process(inputs.flac);
    const steps = harness.announced.filter((e) => e.versionId === version.id).map((e) => [e.progress, e.status]);
    // Ready first and done last; the loudness (96) and the preview (97) land in either order between.
    const last = steps.slice(-4);
    expect(last[0]).toEqual([95, 'ready']);
    expect(last[3]).toEqual([100, 'ready']);
    expect(
      last.slice(1, 3).every(([progress, status]) => [96, 97].includes(progress as number) && status === 'ready'),
    ).toBe(true);
    expect((last[2]![0] as number) >= (last[1]![0] as number)).toBe(true);
    expect((await harness.versions.find(version.id))?.loudness).toMatchObject({ integrated: expect.any(Number) });
  });
});

describe('lossy previews for versions processed before they existed', () => {
  it('are made by the backfill, reusing a browser preview where there is one', async () => {
    const wav = await harness.process(inputs.wav);
    const aiff = await harness.process(inputs.aiff);
    await harness.versions.update(wav.id, { lossyPreviewKey: null });
    await harness.versions.update(aiff.id, { lossyPreviewKey: null });
    await harness.blobs.delete(wav.lossyPreviewKey!);
    expect(await harness.media.backfillLossyPreviews(harness.log, 100)).toBeGreaterThanOrEqual(2);
    const [wavAfter, aiffAfter] = [await harness.versions.find(wav.id), await harness.versions.find(aiff.id)];
    expect(wavAfter?.lossyPreviewKey).toBe(wav.lossyPreviewKey);
    expect((await probe(system, harness.blobs.localPath(wavAfter!.lossyPreviewKey!))).codec).toBe('aac');
    expect(aiffAfter?.lossyPreviewKey).toBe(aiff.previewKey);
    expect(await harness.versions.listMissingLossyPreview(100)).toEqual([]);
  });
});

describe('lossy preview encoding', () => {
  it('keeps a click in place at 44.1, 48 and 96 kHz, at a rate every browser decodes', async () => {
    const tools = locateMediaTools({});
    for (const rate of [44100, 48000, 96000]) {
      const source = generateAudio(join(audioDir, `click-${rate}.wav`), clickSource(rate), ['-c:a', 'pcm_s16le']);
      const output = join(audioDir, `click-${rate}.m4a`);
      await encodeLossyPreview(tools, source, output, { sampleRate: rate, channels: 2 });
      const media = await probe(tools, output);
      expect(media.sampleRate).toBe(rate === 44100 ? 44100 : 48000);
      const offsetMs = ((loudestSample(decodeMono(output)) - loudestSample(decodeMono(source))) / 48000) * 1000;
      expect(Math.abs(offsetMs)).toBeLessThan(5);
    }
  });

  it('folds more than two channels to stereo', async () => {
    const source = generateAudio(join(audioDir, 'surround.wav'), 'sine=frequency=440:sample_rate=48000:duration=1', [
      '-ac',
      '6',
      '-c:a',
      'pcm_s16le',
    ]);
    const output = join(audioDir, 'surround.m4a');
    await encodeLossyPreview(locateMediaTools({}), source, output, { sampleRate: 48000, channels: 6 });
    expect((await probe(locateMediaTools({}), output)).channels).toBe(2);
  });
});
