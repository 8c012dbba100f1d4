import { formatTransferSize, isRecipientEmail, TRANSFER_MESSAGES, UNLIMITED } from '@mixroom/shared';

/** What the transfer screens say, word for word; the texts the server also answers with come from shared. */
export const TRANSFER_TEXTS = {
  ...TRANSFER_MESSAGES,
  invalidEmailTitle: 'Invalid Email',
  filesAdded: 'Files added to transfer',
  sent: 'Your transfer has been sent!',
  linkCopied: 'Link Copied!',
  expiryUpdated: 'Transfer expiry date updated',
  passwordUpdated: 'Transfer password updated',
  upgradeHint: 'Increase your transfer limits by upgrading to a premium plan.',
  noPreview: 'Preview not available, please download.',
  removeSome: 'Please remove some files to continue.',
  linkedTwice: 'A file already in the transfer was left out.',
  fromLinked: 'From linked storage',
  deleteConfirm: (name: string) => `Are you sure you want to delete ${name}?`,
} as const;

export interface ChipResult {
  /** The chips after adding what was typed (no duplicates, whatever their case). */
  chips: string[];
  /** Parts that are not an e-mail address: they stay in the input for the user to fix. */
  invalid: string[];
}

/**
 * Adds what was typed or pasted to the e-mail chips. A comma separates addresses (as the Enter key
 * and leaving the field end one); blanks around them are ignored.
 */
export function addEmailChips(chips: string[], typed: string): ChipResult {
  const next = [...chips];
  const invalid: string[] = [];
  for (const part of typed.split(/[,;\s]+/)) {
    const email = part.trim();
    if (!email) continue;
    if (!isRecipientEmail(email)) {
      invalid.push(email);
      continue;
    }
    if (!next.some((chip) => chip.toLowerCase() === email.toLowerCase())) next.push(email);
  }
  return { chips: next, invalid };
}

export type TransferMode = 'link' | 'email';

export interface TransferDraft {
  fileCount: number;
  mode: TransferMode;
  recipients: string[];
  name: string;
  message: string;
  durationDays: number;
}

/** The plan's transfer limits and how many transfers this month already used; unknown for a visitor. */
export interface TransferAllowance {
  transfersPerMonth: number;
  transfersThisMonth: number;
  transferDurationDays: number[];
}

export interface TransferProblem {
  message: string;
  /** The problem goes away with a bigger plan: the user is offered the pricing. */
  offerPricing: boolean;
}

/**
 * The first reason the transfer cannot be sent, checked in the order users know (files, recipients,
 * name, message, monthly count, duration); null when it may go. The server checks the same again.
 */
export function firstTransferProblem(
  draft: TransferDraft,
  allowance: TransferAllowance | null,
): TransferProblem | null {
  const plain = (message: string): TransferProblem => ({ message, offerPricing: false });
  if (draft.fileCount === 0) return plain(TRANSFER_TEXTS.noFiles);
  if (draft.mode === 'email' && draft.recipients.length === 0) return plain(TRANSFER_TEXTS.noRecipients);
  if (!draft.name.trim()) return plain(TRANSFER_TEXTS.noName);
  if (!draft.message.trim()) return plain(TRANSFER_TEXTS.noMessage);
  if (!allowance) return null;
  const { transfersPerMonth, transfersThisMonth, transferDurationDays } = allowance;
  if (transfersPerMonth !== UNLIMITED && transfersThisMonth >= transfersPerMonth)
    return { message: TRANSFER_TEXTS.monthlyLimit, offerPricing: true };
  if (!transferDurationDays.includes(draft.durationDays))
    return { message: TRANSFER_TEXTS.durationLocked, offerPricing: true };
  return null;
}

/** How files came in: one by one, or as a folder or a drop (which are taken whole or not at all). */
export type PickSource = 'files' | 'folder' | 'drop';

export interface SizeVerdict {
  /** The warning to show; null when the new total fits. */
  message: string | null;
  /** The list is emptied (a folder or a drop over the limit); otherwise the new files are left out. */
  clearList: boolean;
}

/** Whether adding `addedBytes` to a selection of `currentBytes` stays within the plan's largest transfer. */
export function checkTransferSize(
  currentBytes: number,
  addedBytes: number,
  maxBytes: number,
  source: PickSource,
): SizeVerdict {
  if (maxBytes === UNLIMITED || currentBytes + addedBytes <= maxBytes) return { message: null, clearList: false };
  const base = TRANSFER_TEXTS.tooLarge(formatTransferSize(maxBytes));
  if (source === 'files') return { message: base, clearList: false };
  return { message: `${base} ${TRANSFER_TEXTS.removeSome}`, clearList: true };
}

/** The history's search: the text anywhere in the transfer's name or one recipient's address, any case. */
export function matchesTransferSearch(
  transfer: { name: string; recipients: { email: string }[] },
  query: string,
): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return (
    transfer.name.toLowerCase().includes(needle) ||
    transfer.recipients.some((r) => r.email.toLowerCase().includes(needle))
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as a date field holds it (local calendar day, YYYY-MM-DD). */
export const toDateField = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

export type ExpiryFieldVerdict =
  /** Nothing to save: the field is empty or still shows the current day. */
  | { kind: 'unchanged' }
  /** The day cannot be the expiry; the message says why and nothing is sent. */
  | { kind: 'refused'; message: string }
  | { kind: 'move'; expiresAt: Date };

/**
 * What a confirmed date field's day means for the expiry: the end of that day (the link works all
 * of it), or the end of the window on its last day. Read only once the user confirms (leaves the
 * field or presses Enter), never per keystroke: typing a year digit by digit passes through days
 * like 0002-12-15. A day outside the bounds is refused as typed, never moved to the nearest bound;
 * `bounds.min` is the server's "now" when the page was read (the window's start is never later).
 */
export function readExpiryField(value: string, current: Date, bounds: { min: Date; max: Date }): ExpiryFieldVerdict {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match || value === toDateField(current)) return { kind: 'unchanged' };
  const day = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59);
  if (Number.isNaN(day.getTime())) return { kind: 'unchanged' };
  if (day.getTime() <= bounds.min.getTime()) return { kind: 'refused', message: TRANSFER_TEXTS.expiryPast };
  if (value === toDateField(bounds.max)) return { kind: 'move', expiresAt: bounds.max };
  if (day.getTime() > bounds.max.getTime())
    return {
      kind: 'refused',
      message: TRANSFER_TEXTS.expiryOutOfRange(toDateField(bounds.min), toDateField(bounds.max)),
    };
  return { kind: 'move', expiresAt: day };
}
