import { describe, expect, it } from 'vitest';
import { nextWheelZoom } from './wheel-zoom';

describe('zooming with the wheel or a pinch', () => {
  it('leaves fit-to-width on the first notch in and returns to it on the way out', () => {
    expect(nextWheelZoom(0, -100)).toBe(1);
    expect(nextWheelZoom(0, 100)).toBe(0);
    expect(nextWheelZoom(1.2, 100)).toBe(0);
  });

  it('scales in proportion, in small steps for a pinch, up to the slider maximum', () => {
    expect(nextWheelZoom(10, -100)).toBeCloseTo(16.49, 1);
    expect(nextWheelZoom(10, 100)).toBeCloseTo(6.07, 1);
    expect(nextWheelZoom(50, -2)).toBeGreaterThan(50);
    expect(nextWheelZoom(50, -2)).toBeLessThan(51);
    expect(nextWheelZoom(90, -1000)).toBe(100);
    expect(nextWheelZoom(40, 0)).toBe(40);
  });
});
