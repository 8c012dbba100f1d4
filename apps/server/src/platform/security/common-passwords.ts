import { dictionary } from '@zxcvbn-ts/language-common';

export const PASSWORD_TOO_COMMON = 'This password is too common and easy to guess. Please choose another one.';

let common: Set<string> | null = null;

/**
 * Whether a password is on the list of the most used passwords (about 50,000, from leaked-password
 * research, shipped by the zxcvbn-ts project); compared without case, since attackers try variants.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}
