import { bigint, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A user's streaming room: its broadcaster code (the room and the WHIP URL) and viewer code (the
 * public page and the WHEP URL), both unique and replaced on request, so an old link leads nowhere.
 * The stream key is kept only as its SHA-256 (it is 256 random bits, so a fast hash is enough) with
 * its last four characters to recognise it. `status` is what listeners see: idle until the
 * publisher's first packet, live, then ended when it stops.
 */
export const broadcastRooms = pgTable('broadcast_rooms', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  broadcasterCode: text('broadcaster_code').notNull().unique(),
  viewerCode: text('viewer_code').notNull().unique(),
  title: text('title').notNull().default(''),
  countdownTime: bigint('countdown_time', { mode: 'number' }),
  bitrate: integer('bitrate').notNull(),
  streamKeyHash: text('stream_key_hash'),
  streamKeyHint: text('stream_key_hint'),
  streamKeyCreatedAt: timestamp('stream_key_created_at', { withTimezone: true }),
  status: text('status', { enum: ['idle', 'live', 'ended'] })
    .notNull()
    .default('idle'),
  listeners: integer('listeners').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
