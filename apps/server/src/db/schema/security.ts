import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Failed attempts per limiter key (account+address, address), kept in the database so every node
 * counts the same attempts. A row is a window of failures and, once past the allowance, the time
 * until which attempts are refused.
 */
export const attemptLimits = pgTable('attempt_limits', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});
