import { describe, expect, it } from 'vitest';
import { safeName } from './zip.service';

describe('archive entry names', () => {
  it('turns names of dots and spaces only into plain segments', () => {
    expect(safeName('. .')).toBe('____');
    expect(safeName('..')).toBe('___');
    expect(safeName(' . ')).toBe('__');
  });

  it('keeps ordinary names and cleans separators and invisible marks', () => {
    expect(safeName('Mix v2.wav')).toBe('Mix v2.wav');
    expect(safeName('a/b\\c')).toBe('a_b_c');
    expect(safeName('x\u200By')).toBe('x_y');
    expect(safeName('   ')).toBe('untitled');
  });
});
