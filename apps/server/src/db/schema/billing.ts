import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { planGrants, users } from './users';

/**
 * Every change of a user's AI credits, never updated or deleted: monthly grants, spends (negative),
 * refunds of a spend and administrators' adjustments. `credit_balances` holds the running total.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Order of appending: entries made in the same millisecond still list in the order they happened. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['grant', 'spend', 'refund', 'adjustment'] }).notNull(),
    /** Signed: what the entry adds to the balance (spends are negative). */
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    /** What the entry is about: a task id for spends and refunds, `month:YYYY-MM` for monthly grants. */
    ref: text('ref'),
    /** The calendar month (YYYY-MM, UTC) a monthly grant is for. */
    period: text('period'),
    /** The administrator behind an adjustment. */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_ledger_user_idx').on(t.userId, t.seq.desc()),
    // A spend and its refund happen at most once per reference, whoever asks and however often.
    uniqueIndex('credit_ledger_spend_ref_key')
      .on(t.ref)
      .where(sql`${t.kind} = 'spend'`),
    uniqueIndex('credit_ledger_refund_ref_key')
      .on(t.ref)
      .where(sql`${t.kind} = 'refund'`),
    // A user's monthly grant (and each top-up of it) lands once, however many nodes run the job.
    uniqueIndex('credit_ledger_grant_key')
      .on(t.userId, t.period, t.ref)
      .where(sql`${t.kind} = 'grant'`),
  ],
);

/** The sum of a user's ledger, kept in the same transaction as each entry; never below zero. */
export const creditBalances = pgTable(
  'credit_balances',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balance: integer('balance').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('credit_balances_not_negative', sql`${t.balance} >= 0`)],
);

/** Shop events already applied, by the shop's event id: a resent event changes nothing. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** What applying it did ('applied', or why it was ignored). */
  outcome: text('outcome').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A subscription at an external shop and the plan grant it holds. */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The shop's id of the subscription. */
    externalId: text('external_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The sku the shop sold (a plan sku, or an early-access sku) and the plan it grants. */
    shopSku: text('shop_sku').notNull(),
    sku: text('sku').notNull(),
    interval: text('interval', { enum: ['month', 'year'] }).notNull(),
    status: text('status', { enum: ['active', 'cancelled', 'expired'] }).notNull(),
    trial: boolean('trial').notNull().default(false),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    manageUrl: text('manage_url'),
    grantId: uuid('grant_id').references(() => planGrants.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_subscriptions_external_key').on(t.externalId),
    index('billing_subscriptions_user_idx').on(t.userId),
  ],
);
