import { dictionary } from '@zxcvbn-ts/language-common';
import { checkPasswordStrength, type PasswordContext } from '@mixroom/shared';
import { DomainError } from '../errors/domain-error';

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

/**
 * The one rule for a new password (sign-up, reset): not on the common list, and not mostly
 * repeats, sequences, the product's name or the person's own name and e-mail (the shared rule the
 * web forms also show).
 */
export function assertAcceptablePassword(password: string, context: PasswordContext): void {
  if (isCommonPassword(password)) throw new DomainError(400, 'PASSWORD_TOO_COMMON', PASSWORD_TOO_COMMON);
  const verdict = checkPasswordStrength(password, context);
  if (!verdict.ok) throw new DomainError(400, 'PASSWORD_TOO_WEAK', verdict.message ?? PASSWORD_TOO_COMMON);
}
