import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A user's live room codes, one per role (host, guest). A regenerated code replaces the row, so a
 * removed code and one that never existed are the same absence (no enumeration by the answer).
 */
export const liveRoomCodes = pgTable(
  'live_room_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['host', 'guest'] }).notNull(),
    code: text('code').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);

/**
 * A live session, stored under the host's guest room code as the spec models it. `elapsedMs` counts
 * a limited plan's time in one-minute steps; `tickDueAt` makes a step idempotent when two nodes
 * arm the same session's timer.
 */
export const liveSessions = pgTable(
  'live_sessions',
  {
    code: text('code').primaryKey(),
    hostId: uuid('host_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hostCode: text('host_code').notNull(),
    liveUrl: text('live_url').notNull(),
    status: text('status', { enum: ['active', 'ended', 'expired'] }).notNull(),
    countdownTime: bigint('countdown_time', { mode: 'number' }),
    bitrate: integer('bitrate').notNull(),
    /** The host's plan's limit when the session started; null when unlimited. */
    maxDurationMs: integer('max_duration_ms'),
    elapsedMs: integer('elapsed_ms').notNull().default(0),
    tickDueAt: timestamp('tick_due_at', { withTimezone: true }),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    lastUpdate: timestamp('last_update', { withTimezone: true }).notNull(),
  },
  (t) => [index('live_sessions_host_idx').on(t.hostId)],
);

/** Who takes part in a session: the host and guests (co-hosts are guests with isEnabled). */
export const liveStreams = pgTable(
  'live_streams',
  {
    code: text('code')
      .notNull()
      .references(() => liveSessions.code, { onDelete: 'cascade', onUpdate: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    isEnabled: boolean('is_enabled').notNull(),
    isHost: boolean('is_host').notNull(),
    isOnline: boolean('is_online').notNull(),
    instanceId: text('instance_id').notNull(),
    source: integer('source'),
    bitrate: integer('bitrate').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.userId] }), index('live_streams_user_idx').on(t.userId)],
);

/** Live minutes a host used per calendar month (UTC, `YYYY-MM`), for "Live minutes this month". */
export const liveUsage = pgTable(
  'live_usage',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    ms: bigint('ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.period] })],
);
