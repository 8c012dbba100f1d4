import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects, versions } from './storage';
import { users } from './users';

/**
 * Who has a version's review open. Browsers renew their row while the tab is open and active;
 * a row not renewed within the presence window counts as offline (a closed laptop sends nothing).
 */
export const presence = pgTable(
  'presence',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    versionId: uuid('version_id')
      .notNull()
      .references(() => versions.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ['online', 'offline'] }).notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.userId] }), index('presence_project_idx').on(t.projectId)],
);
