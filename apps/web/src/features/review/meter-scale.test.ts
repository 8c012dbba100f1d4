import { describe, expect, it } from 'vitest';
import { meterColor, meterGradient, meterPercent, meterReadout } from './meter-scale';

const GREEN = '#40c057';
const YELLOW = '#fab005';
const RED = '#fa5252';

describe('the peak meter scale', () => {
  it('is green up to −18 dBFS, yellow to −6 and red above, and never turns back', () => {
    expect([-60, -30, -20, -18].map(meterColor)).toEqual([GREEN, GREEN, GREEN, GREEN]);
    expect([-17.9, -12, -6].map(meterColor)).toEqual([YELLOW, YELLOW, YELLOW]);
    expect([-5.9, -1, 0].map(meterColor)).toEqual([RED, RED, RED]);
  });

  it('draws its zones at fixed places along the whole track', () => {
    expect(meterPercent(-18)).toBeCloseTo(70);
    expect(meterPercent(-6)).toBeCloseTo(90);
    expect(meterGradient()).toBe(`linear-gradient(90deg, ${GREEN} 0% 70%, ${YELLOW} 70% 90%, ${RED} 90% 100%)`);
  });

  it('reads out one decimal or −∞', () => {
    expect(meterReadout(-60)).toBe('−∞');
    expect(meterReadout(-12.345)).toBe('-12.3');
  });
});
