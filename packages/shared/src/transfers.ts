import { UNLIMITED } from './plans';

/** What users read about transfers, word for word (the server answers with the same texts). */
export const TRANSFER_MESSAGES = {
  noFiles: 'Please add files to your transfer',
  noRecipients: 'Please add at least one recipient',
  noName: 'Please give your transfer a name',
  noMessage: 'Please add a message to your transfer',
  /** The plan-bound refusals (codes ending in _PLAN) are followed in the UI by the offer below. */
  monthlyLimit:
    'You have reached the maximum number of transfers for this month. Please try again next month or delete some transfers.',
  durationLocked: 'Please select a FREE duration for your transfer or upgrade to a paid plan to unlock this feature.',
  passwordLocked: 'Please upgrade to a paid plan to protect your transfer with a password.',
  reloadLocked: 'Please upgrade to a paid plan to reload an expired transfer.',
  viewPricing: 'View pricing plans?',
  reloadTooLate: 'This transfer expired too long ago to be reloaded.',
  invalidEmail: 'Please add a valid email',
  tooLarge: (size: string) => `You have exceeded the maximum transfer size of ${size}.`,
  expiryOutOfRange: (min: string, max: string) => `The expiry date must lie between ${min} and ${max}.`,
  expiryPast: "The expiry date can't be in the past. To end the transfer now, use Expire now.",
  passwordRequired: 'This transfer is password protected',
  wrongPassword: 'This transfer is password protected',
  tooManyAttempts: 'Too many wrong passwords. Please wait a few minutes and try again.',
  unavailable: 'This transfer is no longer available.',
  stillUploading: 'This transfer is still uploading.',
  requestUnavailable: 'This file request is no longer available.',
  requestTooLarge: (size: string) => `This request accepts at most ${size}.`,
  tooManyRequestUploads: 'Too many uploads through this link for now. Please try again in an hour.',
} as const;

/** Days an expired transfer's files are kept (for a reload) before they are purged. */
export const TRANSFER_GRACE_DAYS = 30;

/**
 * A size as Mixroom writes it everywhere (screens, mails, limits): decimal units, one decimal below
 * 100 and none when it is zero ("1.5 MB", "15 GB", "441 KB").
 */
export function formatSize(bytes: number): string {
  if (bytes === UNLIMITED) return 'Unlimited';
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const shown = value >= 100 || unit === 0 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[unit]}`;
}

/** A transfer's size and its limits: the same writing. */
export const formatTransferSize = formatSize;

/**
 * A recipient address: something before the @, a domain, and a top-level part of at least two
 * letters, or an internationalised one in its ASCII form (xn--…). A two-or-three-letter rule would
 * turn away the studios on .studio, .audio, .music or .agency, so longer endings are accepted too.
 */
const RECIPIENT_EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

export const isRecipientEmail = (value: string): boolean => value.length <= 254 && RECIPIENT_EMAIL.test(value);
