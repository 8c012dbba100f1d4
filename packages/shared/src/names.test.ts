import { describe, expect, it } from 'vitest';
import { fileNameProblem, NAME_MESSAGES, nameProblem, storedExtension, textProblem } from './names';

describe('the one name rule', () => {
  it('accepts ordinary names in any script', () => {
    for (const name of ['Mix v2 (final).wav', 'Ünterwegs – B-Seite', 'ミックス', 'مزيج نهائي', 'a..b.wav'])
      expect(nameProblem(name)).toBeNull();
  });

  it('refuses NUL and other controls, text-direction marks, separators and dot-only names', () => {
    expect(nameProblem('Mix\u0000.wav')).toBe(NAME_MESSAGES.control);
    expect(nameProblem('Line\nbreak')).toBe(NAME_MESSAGES.control);
    expect(nameProblem('vaw.\u202Eexe')).toBe(NAME_MESSAGES.direction);
    expect(nameProblem('a\u2066b')).toBe(NAME_MESSAGES.direction);
    expect(nameProblem('AC/DC tribute')).toBeNull();
    expect(fileNameProblem('../etc')).toBe(NAME_MESSAGES.separator);
    expect(fileNameProblem('a\\b')).toBe(NAME_MESSAGES.separator);
    expect(nameProblem('..')).toBe(NAME_MESSAGES.dots);
    expect(nameProblem(' . ')).toBe(NAME_MESSAGES.dots);
  });

  it('lets free text keep tabs and line breaks, never NUL', () => {
    expect(textProblem('Bar 12:\n\tvocal up')).toBeNull();
    expect(textProblem('nul \u0000 here')).toBe(NAME_MESSAGES.text);
  });

  it('keeps storage keys tame whatever the extension', () => {
    expect(storedExtension('wav')).toBe('wav');
    expect(storedExtension('wäv')).toBe('bin');
    expect(storedExtension('')).toBe('bin');
    expect(storedExtension('a'.repeat(20))).toBe('bin');
  });
});
