import { describe, expect, it } from 'vitest';
import { formatSize as formatBytes } from './transfers';

describe('formatBytes', () => {
  it('shows one decimal below 100 and drops a zero one, as plans state sizes', () => {
    expect(formatBytes(15_000_000_000)).toBe('15 GB');
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
    expect(formatBytes(441_100)).toBe('441 KB');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(10_700_000)).toBe('10.7 MB');
  });
});
