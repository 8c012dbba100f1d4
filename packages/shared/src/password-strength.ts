/**
 * How guessable a new password is, beyond the list of common passwords (which the server checks, as
 * the list is too large for the browser). Guessing tools try repeated characters, sequences, the
 * site's own name and the person's name and e-mail first, so each of those counts as one character;
 * what remains must still reach the minimum length. Sign-up, password reset and the web forms all
 * ask this one function, so the rule and its message never differ.
 */

export type PasswordWeakness = 'repeats' | 'sequence' | 'product' | 'personal';

export interface PasswordContext {
  email?: string | null | undefined;
  displayName?: string | null | undefined;
}

export interface PasswordVerdict {
  ok: boolean;
  /** The characters left once each pattern counts as one. */
  effectiveLength: number;
  /** What made it guessable, in the order first found. */
  weaknesses: PasswordWeakness[];
  /** Why it is refused, for the person choosing it; null when it is accepted. */
  message: string | null;
}

/** Characters that must remain once patterns are discounted (the same as the minimum length). */
export const PASSWORD_MIN_EFFECTIVE = 8;
const PRODUCT_NAMES = ['mixroom'];
const MIN_WORD = 3;
const MIN_SEQUENCE = 3;
const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'qwertzuiop', 'azertyuiop', '1234567890'];
/** Look-alike characters people swap in ("M1xr00m"): compared as the letters they stand for. */
const LOOKALIKES: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

const PHRASES: Record<PasswordWeakness, string> = {
  repeats: 'repeated characters (like "aaaa" or "abab")',
  sequence: 'sequences (like "1234", "abcd" or "qwerty")',
  product: 'the name Mixroom',
  personal: 'parts of your name or e-mail address',
};

const listed = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** The sentence shown when a password is refused. */
export function passwordWeaknessMessage(weaknesses: PasswordWeakness[]): string {
  if (weaknesses.length === 0) return `Use at least ${PASSWORD_MIN_EFFECTIVE} characters.`;
  return (
    `This password is too easy to guess: it is mostly made of ${listed(weaknesses.map((w) => PHRASES[w]))}. ` +
    `Please make it longer or less predictable.`
  );
}

/** Words of the person's name and e-mail (pieces of 3 or more letters or digits). */
function personalWords(context: PasswordContext): string[] {
  const words = new Set<string>();
  const add = (text: string) => {
    const lower = text.toLowerCase();
    if (lower.length >= MIN_WORD) words.add(lower);
    for (const piece of lower.split(/[^\p{L}\p{N}]+/u)) {
      if (piece.length >= MIN_WORD) words.add(piece);
      for (const run of piece.match(/\p{L}+|\p{N}+/gu) ?? []) if (run.length >= MIN_WORD) words.add(run);
    }
  };
  const [local = '', domain = ''] = (context.email ?? '').split('@');
  add(local);
  // The domain's labels, but not its ending (".com" is no clue about anyone).
  for (const label of domain.split('.').slice(0, -1)) add(label);
  const name = context.displayName ?? '';
  add(name);
  add(name.replace(/\s+/g, ''));
  return [...words];
}

/** Length of the run of one repeated character, or of a repeated chunk, starting at `i`. */
function repeatAt(text: string, i: number): number {
  let run = 1;
  while (text[i + run] === text[i]) run++;
  if (run >= MIN_SEQUENCE) return run;
  let best = 0;
  for (let size = 2; size * 2 <= text.length - i; size++) {
    const chunk = text.slice(i, i + size);
    let end = i + size;
    while (text.startsWith(chunk, end)) end += size;
    if (end - i >= size * 2 && end - i > best) best = end - i;
  }
  return best;
}

/** Length of an ascending or descending run (abc, 321) or a keyboard-row run (qwer) starting at `i`. */
function sequenceAt(text: string, i: number): number {
  let best = 0;
  for (const step of [1, -1]) {
    let end = i + 1;
    while (end < text.length && text.charCodeAt(end) - text.charCodeAt(end - 1) === step) end++;
    best = Math.max(best, end - i);
  }
  for (const row of KEYBOARD_ROWS) {
    for (const line of [row, [...row].reverse().join('')]) {
      const start = line.indexOf(text[i] ?? '');
      if (start < 0) continue;
      let length = 0;
      while (text[i + length] !== undefined && text[i + length] === line[start + length]) length++;
      best = Math.max(best, length);
    }
  }
  return best >= MIN_SEQUENCE ? best : 0;
}

/** Length of the longest known word (`words`) at `i`, compared with look-alikes undone. */
function wordAt(plain: string, i: number, words: string[]): number {
  let best = 0;
  for (const word of words) if (word.length > best && plain.startsWith(word, i)) best = word.length;
  return best;
}

export function checkPasswordStrength(password: string, context: PasswordContext = {}): PasswordVerdict {
  const text = password.toLowerCase();
  const plain = [...text].map((c) => LOOKALIKES[c] ?? c).join('');
  const personal = personalWords(context).map((w) => [...w].map((c) => LOOKALIKES[c] ?? c).join(''));
  const weaknesses: PasswordWeakness[] = [];
  const note = (weakness: PasswordWeakness) => {
    if (!weaknesses.includes(weakness)) weaknesses.push(weakness);
  };
  let effectiveLength = 0;
  for (let i = 0; i < text.length;) {
    const found: [PasswordWeakness, number][] = [
      ['product', wordAt(plain, i, PRODUCT_NAMES)],
      ['personal', wordAt(plain, i, personal)],
      ['repeats', repeatAt(text, i)],
      ['sequence', sequenceAt(text, i)],
    ];
    const [weakness, length] = found.reduce((a, b) => (b[1] > a[1] ? b : a));
    effectiveLength += 1;
    if (length > 1) {
      note(weakness);
      i += length;
    } else i += 1;
  }
  const ok = effectiveLength >= PASSWORD_MIN_EFFECTIVE;
  return { ok, effectiveLength, weaknesses, message: ok ? null : passwordWeaknessMessage(weaknesses) };
}
