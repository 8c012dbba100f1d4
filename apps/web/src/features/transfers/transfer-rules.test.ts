import { describe, expect, it } from 'vitest';
import { isRecipientEmail, UNLIMITED } from '@mixroom/shared';
import {
  addEmailChips,
  checkTransferSize,
  readExpiryField,
  toDateField,
  firstTransferProblem,
  matchesTransferSearch,
  TRANSFER_TEXTS,
  type TransferDraft,
} from './transfer-rules';

describe('e-mail chips', () => {
  it('accepts addresses with a top-level part of two letters or more, and nothing else', () => {
    expect(isRecipientEmail('mastering@studio.de')).toBe(true);
    expect(isRecipientEmail('first.last+mix@mail.example.com')).toBe(true);
    expect(isRecipientEmail('ana@band.io')).toBe(true);
    expect(isRecipientEmail('ana@band.studio')).toBe(true);
    expect(isRecipientEmail('ana@band.c')).toBe(false);
    expect(isRecipientEmail('ana@band')).toBe(false);
    expect(isRecipientEmail('ana band@x.com')).toBe(false);
    expect(isRecipientEmail('@x.com')).toBe(false);
    expect(isRecipientEmail('ana@-x.com')).toBe(false);
  });

  it('splits a pasted list on commas, skips blanks and duplicates in any case, and keeps the bad parts apart', () => {
    const result = addEmailChips(['ana@x.com'], ' bob@y.org, ANA@x.com,, nope , eve@z.net');
    expect(result.chips).toEqual(['ana@x.com', 'bob@y.org', 'eve@z.net']);
    expect(result.invalid).toEqual(['nope']);
  });

  it('leaves the chips as they were when nothing valid was typed', () => {
    const chips = ['ana@x.com'];
    expect(addEmailChips(chips, '   ')).toEqual({ chips, invalid: [] });
    expect(addEmailChips(chips, 'bob@')).toEqual({ chips, invalid: ['bob@'] });
  });
});

const ready: TransferDraft = {
  fileCount: 2,
  mode: 'email',
  recipients: ['bob@y.org'],
  name: 'Album masters',
  message: 'Here they are',
  durationDays: 7,
};
const free = { transfersPerMonth: 15, transfersThisMonth: 3, transferDurationDays: [3, 7, 15, 30] };

describe('the order a transfer is checked in', () => {
  it('says only the first problem, in the order files, recipients, name, message, monthly count, duration', () => {
    const everythingWrong: TransferDraft = {
      fileCount: 0,
      mode: 'email',
      recipients: [],
      name: ' ',
      message: '',
      durationDays: 90,
    };
    const full = { ...free, transfersThisMonth: 15 };
    const steps: [Partial<TransferDraft>, string][] = [
      [{}, TRANSFER_TEXTS.noFiles],
      [{ fileCount: 1 }, TRANSFER_TEXTS.noRecipients],
      [{ recipients: ['bob@y.org'] }, TRANSFER_TEXTS.noName],
      [{ name: 'Masters' }, TRANSFER_TEXTS.noMessage],
      [{ message: 'Enjoy' }, TRANSFER_TEXTS.monthlyLimit],
    ];
    let draft = everythingWrong;
    for (const [fix, expected] of steps) {
      draft = { ...draft, ...fix };
      expect(firstTransferProblem(draft, full)?.message).toBe(expected);
    }
    expect(firstTransferProblem(draft, free)).toEqual({ message: TRANSFER_TEXTS.durationLocked, offerPricing: true });
    expect(firstTransferProblem({ ...draft, durationDays: 30 }, free)).toBeNull();
  });

  it('needs no recipient for a link-only transfer', () => {
    expect(firstTransferProblem({ ...ready, mode: 'link', recipients: [] }, free)).toBeNull();
  });

  it('offers the pricing only for what a plan changes', () => {
    expect(firstTransferProblem({ ...ready, name: '' }, free)?.offerPricing).toBe(false);
    expect(firstTransferProblem(ready, { ...free, transfersThisMonth: 15 })?.offerPricing).toBe(true);
  });

  it('never counts transfers against an unlimited plan', () => {
    const paid = { transfersPerMonth: UNLIMITED, transfersThisMonth: 400, transferDurationDays: [3, 7, 360] };
    expect(firstTransferProblem({ ...ready, durationDays: 360 }, paid)).toBeNull();
  });

  it('leaves the plan checks to the server for a visitor, whose plan is not known yet', () => {
    expect(firstTransferProblem({ ...ready, durationDays: 360 }, null)).toBeNull();
  });
});

describe('the largest transfer', () => {
  const max = 15_000_000_000;

  it('lets a selection grow up to the limit itself', () => {
    expect(checkTransferSize(10_000_000_000, 5_000_000_000, max, 'drop')).toEqual({ message: null, clearList: false });
    expect(checkTransferSize(0, 10 ** 13, UNLIMITED, 'folder').message).toBeNull();
  });

  it('leaves out picked files that go over, and clears the list for a folder or a drop', () => {
    const picked = checkTransferSize(14_000_000_000, 2_000_000_000, max, 'files');
    expect(picked).toEqual({ message: 'You have exceeded the maximum transfer size of 15 GB.', clearList: false });
    for (const source of ['folder', 'drop'] as const)
      expect(checkTransferSize(0, max + 1, max, source)).toEqual({
        message: 'You have exceeded the maximum transfer size of 15 GB. Please remove some files to continue.',
        clearList: true,
      });
  });
});

describe('the history search', () => {
  const transfer = { name: 'Album Masters', recipients: [{ email: 'Mastering@Studio.de' }, { email: 'bob@y.org' }] };

  it('finds a transfer by part of its name or of a recipient address, in any case', () => {
    expect(matchesTransferSearch(transfer, 'masters')).toBe(true);
    expect(matchesTransferSearch(transfer, ' STUDIO.de ')).toBe(true);
    expect(matchesTransferSearch(transfer, 'bob@')).toBe(true);
    expect(matchesTransferSearch(transfer, 'stems')).toBe(false);
  });

  it('lists everything for an empty search', () => {
    expect(matchesTransferSearch(transfer, '  ')).toBe(true);
  });
});

describe('moving a transfer expiry', () => {
  const bounds = { min: new Date(2026, 10, 1, 14, 30), max: new Date(2026, 11, 1, 14, 30) };

  it('shows a day as a date field holds it', () => {
    expect(toDateField(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });

  const current = new Date(2026, 10, 8, 14, 30);

  it('means the end of the chosen day; the last day ends with the window', () => {
    expect(readExpiryField('2026-11-20', current, bounds)).toEqual({
      kind: 'move',
      expiresAt: new Date(2026, 10, 20, 23, 59, 59),
    });
    expect(readExpiryField('2026-12-01', current, bounds)).toEqual({ kind: 'move', expiresAt: bounds.max });
    // Today (the lower bound is now) keeps the link working until the day ends.
    expect(readExpiryField('2026-11-01', current, bounds)).toEqual({
      kind: 'move',
      expiresAt: new Date(2026, 10, 1, 23, 59, 59),
    });
  });

  it('refuses a past or too late day as typed, moving it to no bound', () => {
    const past = { kind: 'refused', message: TRANSFER_TEXTS.expiryPast };
    expect(readExpiryField('2026-10-31', current, bounds)).toEqual(past);
    // What a year typed digit by digit passes through.
    expect(readExpiryField('0002-12-15', current, bounds)).toEqual(past);
    expect(readExpiryField('2027-03-01', current, bounds)).toEqual({
      kind: 'refused',
      message: TRANSFER_TEXTS.expiryOutOfRange('2026-11-01', '2026-12-01'),
    });
  });

  it('has nothing to save for an empty field or the current day', () => {
    expect(readExpiryField('', current, bounds)).toEqual({ kind: 'unchanged' });
    expect(readExpiryField('2026-11-08', current, bounds)).toEqual({ kind: 'unchanged' });
  });
});
