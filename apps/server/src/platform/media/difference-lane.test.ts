import { describe, expect, it } from 'vitest';
import { DIFFERENCE_LANE } from '@mixroom/shared';
import { makeAudio } from '../../../test/helpers/audio';
import { CHANGE, changedPair } from '../../../test/helpers/changed-pair';
import { analyzeDifference } from './difference-analysis';
import { changedRegions, decodeLevels, encodeLevels, poolLevels } from './difference-lane';

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
    expect(Math.abs(result.offsetSeconds - CHANGE.offsetSeconds)).toBeLessThan(0.0005);
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
    expect(Math.abs(reverse.offsetSeconds + CHANGE.offsetSeconds)).toBeLessThan(0.0005);
    const same = await analyzeDifference(tools, { a, b: a }, { durationSeconds: 8 });
    expect(same.offsetSeconds).toBe(0);
    expect(Math.max(...same.levels)).toBe(DIFFERENCE_LANE.floorDb);
  });

  it('an unrelated, longer B (a reference track) is taken as it starts, and its unread rest ends with the job', async () => {
    const a = makeAudio('Song.wav', { seconds: 3, frequency: 440 });
    const b = makeAudio('Other song.wav', { seconds: 30, frequency: 1000 });
    const result = await analyzeDifference(tools, { a, b }, { durationSeconds: 3 });
    expect(result.offsetSeconds).toBe(0);
    expect(result.levels.length).toBe(60);
    // Nothing of A is in B: the difference is as loud as A throughout.
    expect(Math.min(...result.levels)).toBeGreaterThan(-1);
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
