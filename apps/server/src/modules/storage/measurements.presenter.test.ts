import { describe, expect, it } from 'vitest';
import { version } from '@mixroom/contracts';
import { presentDuration, presentLoudness, presentMedia } from './measurements.presenter';

describe('stored measurements as responses give them', () => {
  it('turns what older rows hold for a silent file (null, NaN, text) into null, keeping real figures', () => {
    expect(presentLoudness({ integrated: -70, truePeak: null, range: 0 })).toEqual({
      integrated: -70,
      truePeak: null,
      range: 0,
    });
    expect(presentLoudness({ integrated: Number.NaN, truePeak: '-inf' })).toEqual({
      integrated: null,
      truePeak: null,
      range: null,
    });
    expect(presentLoudness(null)).toBeNull();
    expect(presentLoudness('broken')).toBeNull();
    expect(presentMedia({ format: 'wav', codec: 'pcm_s16le', channels: 2, sampleRate: 48000 })).toEqual({
      format: 'wav',
      codec: 'pcm_s16le',
      channels: 2,
      sampleRate: 48000,
      bitDepth: null,
      bitRate: null,
    });
    expect(presentMedia({ format: 'wav' })).toBeNull();
    expect(presentDuration(Number.NaN)).toBeNull();
    expect(presentDuration(0)).toBeNull();
    expect(presentDuration(3.5)).toBe(3.5);
  });

  it('passes the response schema whatever the row held', () => {
    const loudness = presentLoudness({ integrated: null, truePeak: null, range: null });
    expect(version.shape.loudness.safeParse(loudness).success).toBe(true);
    expect(version.shape.media.safeParse(presentMedia({ channels: 'two' })).success).toBe(true);
  });
});
