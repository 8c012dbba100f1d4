import { describe, expect, it } from 'vitest';
import { autoMuteShouldMute, meterFraction, rmsDb, SILENCE_DB } from './level';

describe('levels', () => {
  it('reads a full-scale sine near −3 dBFS and silence as the floor', () => {
    const sine = Float32Array.from({ length: 4800 }, (_, i) => Math.sin((2 * Math.PI * 440 * i) / 48_000));
    expect(rmsDb(sine)).toBeCloseTo(-3.01, 1);
    expect(rmsDb(new Float32Array(128))).toBe(SILENCE_DB);
  });
  it('maps −60..0 dB onto the meter', () => {
    expect(meterFraction(-90)).toBe(0);
    expect(meterFraction(-30)).toBe(0.5);
    expect(meterFraction(3)).toBe(1);
  });
  it('Auto Mute mutes while the recent average is above −90 dB', () => {
    expect(autoMuteShouldMute([], -90)).toBe(false);
    expect(autoMuteShouldMute([-120, -120, -120], -90)).toBe(false);
    expect(autoMuteShouldMute([-120, -40, -40], -90)).toBe(true);
    expect(autoMuteShouldMute([-120, -120, -40], -90)).toBe(false);
  });
});
