import { doublePrecision, index, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { versions } from './storage';
import { users } from './users';

/**
 * Timed comments on a version: a point (timestamp) or a span (range) in
 * seconds, rounded to hundredths. A reply is a comment whose parent is the comment it answers.
 */
export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    versionId: uuid('version_id')
      .notNull()
      .references(() => versions.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id').references((): AnyPgColumn => comments.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['timestamp', 'range', 'reply'] }).notNull(),
    startTime: doublePrecision('start_time'),
    endTime: doublePrecision('end_time'),
    text: text('text').notNull(),
    /** A resolved comment is done with (its author or an editor says so); reopening clears it. */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('comments_version_idx').on(t.versionId, t.createdAt), index('comments_parent_idx').on(t.parentId)],
);
