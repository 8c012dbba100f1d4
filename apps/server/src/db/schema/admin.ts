import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Every administrator action, written in the same transaction as the action itself: who did what to
 * whom, when, and the state before and after. Names are copied so the log still reads after an
 * account is deleted.
 */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Order of writing: entries of the same millisecond still list in the order they happened. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorLabel: text('actor_label').notNull(),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    targetLabel: text('target_label').notNull(),
    action: text('action').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('admin_audit_seq_idx').on(t.seq.desc()),
    index('admin_audit_actor_idx').on(t.actorId, t.seq.desc()),
    index('admin_audit_target_idx').on(t.targetUserId, t.seq.desc()),
  ],
);
