import { describe, expect, it } from 'vitest';
import { formatMeasure } from './measurement-format';

describe('measurements as the review shows them', () => {
  it('gives a figure with its unit, and a dash for one that does not exist', () => {
    expect(formatMeasure(-14.046, 'LUFS')).toBe('-14.05 LUFS');
    expect(formatMeasure(-0.5, 'dBTP', 1)).toBe('-0.5 dBTP');
    expect(formatMeasure(null, 'dBTP')).toBe('—');
    expect(formatMeasure(undefined, 'LU')).toBe('—');
  });
});
