import { z } from 'zod';
import { isoDate } from './common';

export const creditEntry = z.object({
  id: z.uuid(),
  /** Position in the user's ledger; the next page starts before it. */
  seq: z.number().int(),
  kind: z.enum(['grant', 'spend', 'refund', 'adjustment']),
  /** What the entry added to the balance (negative for spends). */
  amount: z.number().int(),
  reason: z.string(),
  ref: z.string().nullable(),
  at: isoDate,
});
export type CreditEntry = z.infer<typeof creditEntry>;

export const creditsResponse = z
  .object({
    balance: z.number().int(),
    perMonth: z.number().int(),
    renewsAt: isoDate,
    entries: z.array(creditEntry),
    hasMore: z.boolean(),
  })
  .meta({ id: 'Credits' });
export type CreditsResponse = z.infer<typeof creditsResponse>;

export const creditsQuery = z.object({
  /** Entries before this one (the `seq` of the last entry of the previous page). */
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const creditAdjustmentBody = z.object({
  amount: z
    .number()
    .int()
    .min(-1_000_000)
    .max(1_000_000)
    .refine((n) => n !== 0, { message: 'The amount must not be zero.' }),
  reason: z.string().trim().min(1, 'A reason is required.').max(200),
});
