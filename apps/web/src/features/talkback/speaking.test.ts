import { describe, expect, it } from 'vitest';
import { SPEAKING_HANG_MS, SpeakingDetector } from './speaking';

describe('SpeakingDetector', () => {
  it('turns on with a loud frame, holds through short gaps, and ends after the hang time', () => {
    const vad = new SpeakingDetector();
    expect(vad.update(-80, 0)).toBe(false);
    expect(vad.update(-30, 10)).toBe(true);
    expect(vad.update(-80, 10 + SPEAKING_HANG_MS - 1)).toBe(true);
    expect(vad.update(-30, 500)).toBe(true);
    expect(vad.update(-80, 500 + SPEAKING_HANG_MS + 1)).toBe(false);
    vad.update(-30, 2000);
    vad.reset();
    expect(vad.update(-80, 2001)).toBe(false);
  });
});
