import { describe, expect, it } from 'vitest';
import { checkPasswordStrength, passwordWeaknessMessage } from './password-strength';

const ana = { email: 'ana.lopez@studio-nord.com', displayName: 'Ana Lopez' };

describe('checkPasswordStrength', () => {
  it('refuses repeats, sequences, the product name and the person’s own name or e-mail, saying why', () => {
    const cases: [string, string[]][] = [
      ['aaaaaaaaaaaa', ['repeats']],
      ['abababababab', ['repeats']],
      ['Mixroom123', ['product', 'sequence']],
      ['M1xr00m-2026', ['product']],
      ['abcdefgh12', ['sequence']],
      ['qwertyuiasdf', ['sequence']],
      ['98765432', ['sequence']],
      ['AnaLopez1234', ['personal', 'sequence']],
      ['studio-nord!', ['personal']],
      ['ana.lopez@studio', ['personal']],
    ];
    for (const [password, weaknesses] of cases) {
      const verdict = checkPasswordStrength(password, ana);
      expect(verdict.ok, password).toBe(false);
      expect(verdict.weaknesses, password).toEqual(weaknesses);
      expect(verdict.message).toBe(passwordWeaknessMessage(verdict.weaknesses));
    }
    expect(checkPasswordStrength('Mixroom123').message).toBe(
      'This password is too easy to guess: it is mostly made of the name Mixroom and sequences (like "1234", "abcd" or "qwerty"). Please make it longer or less predictable.',
    );
  });

  it('accepts passwords with enough of their own beside such parts', () => {
    for (const password of [
      'ana-password-long',
      'correct horse battery',
      'Winter2026!',
      'first-password',
      'mixroom but my own words',
      'ana.lopez-tango-delta',
      'xy-password',
    ])
      expect(checkPasswordStrength(password, ana).ok, password).toBe(true);
    // The name counts only for its owner.
    expect(checkPasswordStrength('studio-nord!', {}).ok).toBe(true);
  });
});
