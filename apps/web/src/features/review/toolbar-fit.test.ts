import { describe, expect, it } from 'vitest';
import { fittingCount } from './toolbar-fit';

// The version screen's actions at their desktop widths, in pixels.
const ACTIONS = [96, 112, 122, 84, 132, 122, 128, 110, 100];

describe('the toolbar actions that fit beside More', () => {
  it('keeps every action in the row when they all fit, without a More button', () => {
    expect(fittingCount(ACTIONS, 1110, 6, 80)).toBe(ACTIONS.length);
    expect(fittingCount([100, 100], 206, 6, 80)).toBe(2);
  });

  it('moves the actions that do not fit, from the last one on, behind More at phone width', () => {
    // 380 px: Version and Download, then More (96 + 6 + 112 + 6 + 80 = 300; Loop range would need 428).
    expect(fittingCount(ACTIONS, 380, 6, 80)).toBe(2);
    // One pixel short of all: the last action (100) makes room for More (80).
    const all = ACTIONS.reduce((a, b) => a + b) + 6 * (ACTIONS.length - 1);
    expect(fittingCount(ACTIONS, all - 1, 6, 80)).toBe(ACTIONS.length - 1);
    // A More button wider than the last action pushes the one before it out too.
    expect(fittingCount(ACTIONS, all - 1, 6, 120)).toBe(ACTIONS.length - 2);
  });

  it('puts everything behind More when not even the first action fits beside it', () => {
    expect(fittingCount(ACTIONS, 150, 6, 80)).toBe(0);
    expect(fittingCount([], 150, 6, 80)).toBe(0);
  });
});
