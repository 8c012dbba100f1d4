import { describe, expect, it } from 'vitest';
import {
  fileNameProblem,
  inputProblem,
  messageProblem,
  NAME_MESSAGES,
  nameProblem,
  storedExtension,
  textProblem,
} from './names';

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

  it('refuses invisible characters that let one name pass for another', () => {
    for (const name of [
      'ad\u200Bmin',
      '\u3164',
      'Bob\u3164',
      'a\u2060b',
      '\uFEFFMix',
      'x\u{E0041}',
      'ad\u200Cmin',
      'a\uFE0Fdmin',
    ])
      expect(nameProblem(name), JSON.stringify(name)).toBe(NAME_MESSAGES.invisible);
    expect(nameProblem('a\u200Fb')).toBe(NAME_MESSAGES.direction);
    expect(nameProblem('a\u2067b')).toBe(NAME_MESSAGES.direction);
  });

  it('keeps the invisible characters of what people write: emoji sequences, flags, Persian joiners', () => {
    for (const name of [
      '👩\u200D💻 Studio',
      '❤\uFE0F mixes',
      '1\uFE0F\u20E3',
      '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}',
      'می\u200Cخواهم',
      '👍🏽',
    ])
      expect(nameProblem(name), JSON.stringify(name)).toBeNull();
  });

  it('refuses names made of dots and spaces only, and half surrogate pairs', () => {
    for (const name of ['. .', '. . .', ' .. ', '\u2800', '.\u3000.'])
      expect(nameProblem(name)).toBe(NAME_MESSAGES.dots);
    expect(nameProblem('. .x')).toBeNull();
    expect(nameProblem('a\uD800b')).toBe(NAME_MESSAGES.text);
    expect(nameProblem('\uDC00')).toBe(NAME_MESSAGES.text);
    expect(nameProblem('😀')).toBeNull();
  });

  it('refuses controls and broken characters in any value; only free text keeps tabs and line breaks', () => {
    expect(inputProblem('ab\u0000', false)).toBe(NAME_MESSAGES.text);
    expect(inputProblem('a\u0085', true)).toBe(NAME_MESSAGES.text);
    expect(inputProblem('a\tb', false)).toBe(NAME_MESSAGES.text);
    expect(inputProblem('a\tb\nc', true)).toBeNull();
    expect(inputProblem('x\uD83D', true)).toBe(NAME_MESSAGES.text);
    expect(inputProblem('ミックス 😀', false)).toBeNull();
  });

  it('keeps line breaks in messages but no direction or invisible characters', () => {
    expect(messageProblem('Hi,\n\tthe mixes.')).toBeNull();
    expect(messageProblem('Hi \u202Egnp.exe')).toBe(NAME_MESSAGES.text);
    expect(messageProblem('Pay\u200Bpal')).toBe(NAME_MESSAGES.text);
    expect(messageProblem('a\u0000')).toBe(NAME_MESSAGES.text);
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
