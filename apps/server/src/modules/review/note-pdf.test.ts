import { describe, expect, it } from 'vitest';
import { cutLongWords } from './note-pdf';

describe('long words in a notes PDF', () => {
  it('leave ordinary text as it is', () => {
    expect(cutLongWords('Vocals +1 dB in the chorus')).toEqual(['Vocals +1 dB in the chorus']);
    expect(cutLongWords('')).toEqual(['']);
  });

  it('are cut into short pieces that together are the word', () => {
    const word = 'x'.repeat(200_000);
    const pieces = cutLongWords(`see ${word} end`);
    expect(pieces.join('')).toBe(`see ${word} end`);
    expect(Math.max(...pieces.map((p) => p.replace(/^see /, '').replace(/ end$/, '').length))).toBeLessThanOrEqual(24);
  });

  it('never split a character made of two code units', () => {
    const word = `♯${'🎹'.repeat(40)}`;
    const pieces = cutLongWords(word);
    expect(pieces.join('')).toBe(word);
    // A lone surrogate at either end would be half a character.
    for (const piece of pieces) expect(piece).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });
});
