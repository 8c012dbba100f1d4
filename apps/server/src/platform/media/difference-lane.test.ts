import { describe, expect, it } from 'vitest';
import { DIFFERENCE_LANE } from '@mixroom/shared';
import { makeAudio } from '../../../test/helpers/audio';
import { bassMix, bounceOf, CHANGE, changedPair, heldNote } from '../../../test/helpers/changed-pair';
import { analyzeDifference } from './difference-analysis';
import { ANALYSIS, changedRegions, decodeLevels, encodeLevels, poolLevels } from './difference-lane';

const tools = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };

describe('the difference lane of two bounces', () => {
  it('finds B’s 12 ms offset and the one stretch turned up by 3 dB, nothing else', async () => {
    const { a, b } = changedPair();
    const progress: number[] = [];
    const result = await analyzeDifference(
      tools,
      { a, b },
      { durationSeconds: 12, onProgress: (f) => void progress.push(f) },
    );
    expect(Math.abs(result.offsetSeconds! - CHANGE.offsetSeconds)).toBeLessThan(0.0005);
    const regions = changedRegions(
      result.levels,
      result.windowSeconds,
      DIFFERENCE_LANE.thresholdDb,
      DIFFERENCE_LANE.minSeconds,
    );
    expect(regions).toHaveLength(1);
    expect(Math.abs(regions[0]!.start - CHANGE.start)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(regions[0]!.end - CHANGE.end)).toBeLessThanOrEqual(0.25);
    // +3 dB is a difference at 0.41 of A's amplitude: −7.7 dB.
    expect(Math.abs(regions[0]!.peakDb - -7.7)).toBeLessThan(1);
    expect(progress.at(-1)).toBeGreaterThan(0.9);
  });

  it('B against itself shifted back: offsets either way; identical audio reads at the floor', async () => {
    const { a, b } = changedPair(8);
    const reverse = await analyzeDifference(tools, { a: b, b: a }, { durationSeconds: 8 });
    expect(Math.abs(reverse.offsetSeconds! + CHANGE.offsetSeconds)).toBeLessThan(0.0005);
    const same = await analyzeDifference(tools, { a, b: a }, { durationSeconds: 8 });
    expect(same.offsetSeconds).toBe(0);
    expect(Math.max(...same.levels)).toBe(DIFFERENCE_LANE.floorDb);
  });

  it('an unrelated, longer B (a reference track) is taken as it starts, and its unread rest ends with the job', async () => {
    const a = makeAudio('Song.wav', { seconds: 3, frequency: 440 });
    const b = makeAudio('Other song.wav', { seconds: 30, frequency: 1000 });
    const result = await analyzeDifference(tools, { a, b }, { durationSeconds: 3 });
    // Nothing lines up: no offset is claimed.
    expect(result.offsetSeconds).toBeNull();
    expect(result.levels.length).toBe(60);
    // Nothing of A is in B: the difference is as loud as A throughout.
    expect(Math.min(...result.levels)).toBeGreaterThan(-1);
  });

  it('two bounces starting at sample 0, one a whole-mix change: no offset told, B differs everywhere by its level and its top', async () => {
    const a = bassMix();
    const b = bounceOf(a, 'Bass mix quieter and brighter.wav', 'volume=-1.8dB,highshelf=f=8000:g=4');
    const result = await analyzeDifference(tools, { a, b }, { durationSeconds: 12 });
    // In sync: at most a few samples at 48 kHz either way, or nothing claimed.
    expect(Math.abs(result.offsetSeconds ?? 0)).toBeLessThan(ANALYSIS.syncSeconds);
    const regions = changedRegions(result.levels, result.windowSeconds, DIFFERENCE_LANE.thresholdDb, 0.3);
    expect(regions).toEqual([expect.objectContaining({ start: 0 })]);
    expect(regions[0]!.end).toBeGreaterThan(11.9);
    expect(Math.abs(result.overall.levelDb - -1.8)).toBeLessThanOrEqual(0.2);
    const top = result.overall.bands.at(-1)!;
    expect(top).toMatchObject({ fromHz: 8000 });
    expect(top.db).toBeGreaterThan(1.5);
    // Below 2 kHz only the level changed.
    for (const band of result.overall.bands.filter((x) => x.toHz <= 2000)) expect(Math.abs(band.db)).toBeLessThan(0.5);
  });

  it('the same bass-heavy mix aligned at 0 with one stretch turned up: offset 0 or none, the one region found', async () => {
    const a = bassMix();
    const b = bounceOf(a, 'Bass mix local.wav', "volume=volume=3dB:enable='between(t,4,6)'");
    const result = await analyzeDifference(tools, { a, b }, { durationSeconds: 12 });
    expect(Math.abs(result.offsetSeconds ?? 0)).toBeLessThan(ANALYSIS.syncSeconds);
    const regions = changedRegions(result.levels, result.windowSeconds, DIFFERENCE_LANE.thresholdDb, 0.3);
    expect(regions).toHaveLength(1);
    expect(Math.abs(regions[0]!.start - 4)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(regions[0]!.end - 6)).toBeLessThanOrEqual(0.1);
    // Two seconds of +3 dB in twelve move the whole file's level by under a dB.
    expect(Math.abs(result.overall.levelDb)).toBeLessThan(1);
  });

  it.each([441, 2205])(
    'B starting %i samples later (48 kHz) under a held bass note: that offset to within a few samples, never a period off',
    async (samples) => {
      const a = bassMix();
      const b = bounceOf(
        a,
        `Bass mix ${samples}.wav`,
        `adelay=delays=${samples}S:all=1,volume=volume=3dB:enable='between(t,4.5,6.5)'`,
      );
      const result = await analyzeDifference(tools, { a, b }, { durationSeconds: 12 });
      expect(result.offsetSeconds).not.toBeNull();
      expect(Math.abs(result.offsetSeconds! * 48_000 - samples)).toBeLessThanOrEqual(3);
      const regions = changedRegions(result.levels, result.windowSeconds, DIFFERENCE_LANE.thresholdDb, 0.3);
      expect(regions).toHaveLength(1);
      // The change is at 4.5–6.5 s of B's timeline: on A's, that much earlier.
      expect(Math.abs(regions[0]!.start - (4.5 - samples / 48_000))).toBeLessThanOrEqual(0.1);
    },
  );

  it('a held note rendered again 2205 samples later fits a period away as well: no offset is claimed', async () => {
    const a = heldNote('Held E.wav', 0);
    const b = heldNote('Held E later.wav', 2205 / 48_000);
    const result = await analyzeDifference(tools, { a, b }, { durationSeconds: 12 });
    expect(result.offsetSeconds).toBeNull();
  });

  it('keeps levels to the hundredth of a dB, pools them by their loudest, joins short gaps', () => {
    const levels = Float32Array.from([-60, -12.34, -60, -20, -20, -60, -60, -60, -60, -60, -3]);
    expect([...decodeLevels(encodeLevels(levels))].map((v) => Math.round(v * 100) / 100)).toEqual(
      [...levels].map((v) => Math.round(v * 100) / 100),
    );
    expect(poolLevels(levels, 0.05, 4)).toEqual({ levels: [-12.3, -20, -60, -3], windowSeconds: 0.15 });
    // Windows 1–4 join across the gap at 2; the lone window at the end is too short.
    expect(changedRegions(levels, 0.1, -24, 0.3)).toEqual([{ start: 0.1, end: 0.5, peakDb: -12.3 }]);
  });
});
