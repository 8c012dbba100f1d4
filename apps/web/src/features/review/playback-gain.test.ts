import { describe, expect, it } from 'vitest';
import { dbToGain, formatGain, platformGain, playbackGains } from './playback-gain';

const quiet = { integrated: -20, truePeak: -6, range: null };
const loud = { integrated: -8, truePeak: -0.2, range: null };
const hot = { integrated: -18, truePeak: -2, range: null };

describe('platform preview gain', () => {
  it('turns a loud master down to each platform’s target', () => {
    expect(platformGain('Spotify', loud)).toBe(-6);
    expect(platformGain('Apple Music', loud)).toBe(-8);
    expect(platformGain('Deezer', loud)).toBe(-7);
  });

  it('boosts a quiet master only where the platform boosts, and only up to −1 dBTP', () => {
    expect(platformGain('Spotify', quiet)).toBe(5);
    expect(platformGain('Apple Music', quiet)).toBe(4);
    expect(platformGain('YouTube', quiet)).toBe(0);
    expect(platformGain('Spotify', hot)).toBe(1);
  });

  it('plays the original, or an unmeasured file, as it is', () => {
    expect(platformGain('Original', loud)).toBe(0);
    expect(platformGain('Spotify', null)).toBe(0);
  });

  it('plays a digitally silent file (no loudness, no true peak) as it is, and matches nothing to it', () => {
    const silent = { integrated: null, truePeak: null, range: null };
    expect(platformGain('Spotify', silent)).toBe(0);
    expect(playbackGains({ platform: 'Original', match: true, a: quiet, b: silent })).toEqual({ a: 0, b: 0 });
  });
});

describe('A/B gains', () => {
  it('matches B to A’s loudness by their measured difference', () => {
    expect(playbackGains({ platform: 'Original', match: true, a: quiet, b: loud })).toEqual({ a: 0, b: -12 });
    expect(playbackGains({ platform: 'Original', match: false, a: quiet, b: loud })).toEqual({ a: 0, b: 0 });
  });

  it('matches what each platform leaves of them, so a peak-limited boost is evened out too', () => {
    // Spotify: quiet +5 → −15, hot +1 (peak-limited) → −17; B gets +2 to meet A.
    expect(playbackGains({ platform: 'Spotify', match: true, a: quiet, b: hot })).toEqual({ a: 5, b: 3 });
    expect(playbackGains({ platform: 'Spotify', match: false, a: quiet, b: hot })).toEqual({ a: 5, b: 1 });
  });

  it('does not match without a measured loudness on both sides', () => {
    expect(playbackGains({ platform: 'Original', match: true, a: quiet, b: null })).toEqual({ a: 0, b: 0 });
  });

  it('turns decibels into amplitude and words', () => {
    expect(dbToGain(0)).toBe(1);
    expect(dbToGain(-6)).toBeCloseTo(0.501, 3);
    expect(formatGain(-2.34)).toBe('−2.3 dB');
    expect(formatGain(1.5)).toBe('+1.5 dB');
    expect(formatGain(0.01)).toBe('0.0 dB');
  });
});
