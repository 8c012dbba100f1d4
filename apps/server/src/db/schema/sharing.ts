import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** A request to join a group or project, decided by its publisher. */
export const joinRequests = pgTable(
  'join_requests',
  {
    resourceId: uuid('resource_id').notNull(),
    resourceType: text('resource_type', { enum: ['group', 'project'] }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.resourceId, t.userId] }),
    index('join_requests_publisher_idx').on(t.publisherId, t.status),
    index('join_requests_user_idx').on(t.userId),
  ],
);

/**
 * Links to a group or project: `public` (anyone with the token may view and download the subtree;
 * 128-bit random, revocable) and `invite` (a short code behind /j/{code} that leads to a join request).
 */
export const shareLinks = pgTable(
  'share_links',
  {
    token: text('token').primaryKey(),
    kind: text('kind', { enum: ['public', 'invite'] }).notNull(),
    resourceId: uuid('resource_id').notNull(),
    resourceType: text('resource_type', { enum: ['group', 'project'] }).notNull(),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('share_links_resource_kind_key').on(t.resourceId, t.kind)],
);

/** A browser's Web Push subscription, one per device of a user. */
export const pushDevices = pgTable(
  'push_devices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    subscription: text('subscription').notNull(),
    lastUpdate: timestamp('last_update', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId] })],
);
