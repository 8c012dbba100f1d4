import { PLAN_SKUS } from '@mixroom/shared';
import { z } from 'zod';
import { isoDate } from './common';

const planSku = z.enum(PLAN_SKUS);

/** A subscription bought at the shop, as its owner sees it. */
export const billingSubscription = z.object({
  id: z.uuid(),
  sku: planSku,
  /** The sku the shop sold (a plan sku or an early-access sku). */
  shopSku: z.string(),
  interval: z.enum(['month', 'year']),
  status: z.enum(['active', 'cancelled', 'expired']),
  trial: z.boolean(),
  startsAt: isoDate,
  endsAt: isoDate.nullable(),
  manageUrl: z.string().nullable(),
});
export type BillingSubscription = z.infer<typeof billingSubscription>;

/**
 * How much of the merged plan a user has used and what is left, beside the limits and flags the
 * signed-in user already carries: trial, storage, transfers, live minutes, credits, subscriptions.
 */
export const entitlementsSummary = z
  .object({
    trial: z.object({ sku: planSku, startsAt: isoDate, endsAt: isoDate.nullable() }).nullable(),
    storage: z.object({
      usedBytes: z.number(),
      /** null when unlimited. */
      limitBytes: z.number().nullable(),
      /** What uses the storage, largest first. */
      breakdown: z.array(
        z.object({
          /** incoming: uploads others are sending into the user's storage (what arrived so far). */
          kind: z.enum(['projects', 'attachments', 'trash', 'transfers', 'incoming']),
          bytes: z.number(),
        }),
      ),
    }),
    transfersThisMonth: z.number(),
    liveMinutesThisMonth: z.number(),
    credits: z.object({ balance: z.number(), perMonth: z.number(), renewsAt: isoDate }),
    subscriptions: z.array(billingSubscription),
    /** How plans are obtained on this server: from an administrator, or bought at a shop. */
    billing: z.object({ provider: z.enum(['admin', 'shop']), shopUrl: z.string().nullable() }),
  })
  .meta({ id: 'Entitlements' });
export type EntitlementsSummary = z.infer<typeof entitlementsSummary>;

/** Subscription events a shop sends; `data.userId` or `data.email` names the account. */
export const BILLING_EVENT_TYPES = [
  'subscription.created',
  'subscription.renewed',
  'subscription.cancelled',
  'subscription.expired',
] as const;
export const billingEvent = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(BILLING_EVENT_TYPES),
  data: z.object({
    subscriptionId: z.string().min(1).max(200),
    userId: z.uuid().optional(),
    email: z.email().optional(),
    sku: z.string().min(1).max(50),
    interval: z.enum(['month', 'year']).default('month'),
    startsAt: isoDate.optional(),
    endsAt: isoDate.optional(),
    trial: z.boolean().default(false),
    manageUrl: z.url({ protocol: /^https$/ }).optional(),
  }),
});
export type BillingEvent = z.infer<typeof billingEvent>;

export const billingWebhookResponse = z
  .object({ received: z.literal(true), outcome: z.string() })
  .meta({ id: 'BillingWebhookAnswer' });
