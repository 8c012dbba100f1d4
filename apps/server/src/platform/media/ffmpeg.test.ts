import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseEbur128 } from './ffmpeg';

/** ebur128's summary of an ffmpeg lavfi source, as the media job reads it. */
function summaryOf(source: string): string {
  const run = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-f', 'lavfi', '-i', source, '-af', 'ebur128=peak=true', '-f', 'null', '-'],
    { encoding: 'utf8' },
  );
  return run.stderr;
}

describe('the loudness of a file as ebur128 reports it', () => {
  it('says null for what digital silence does not have: no true peak (−inf), nothing above the gate', () => {
    expect(parseEbur128(summaryOf('anullsrc=r=48000:cl=stereo:d=2'))).toEqual({
      integrated: null,
      truePeak: null,
      range: null,
    });
  });

  it('keeps the figures of real audio', () => {
    const loudness = parseEbur128(summaryOf('sine=frequency=440:sample_rate=48000:duration=3'));
    expect(loudness?.integrated).toBeLessThan(-10);
    expect(loudness?.integrated).toBeGreaterThan(-30);
    expect(loudness?.truePeak).toBeCloseTo(-18.1, 0);
  });

  it('gives nothing when ffmpeg printed no summary', () => {
    expect(parseEbur128('Invalid data found when processing input')).toBeNull();
  });
});
