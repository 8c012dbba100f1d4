import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The nodes that carry live media (`sfu` role) on one PostgreSQL: where the others reach each one
 * and when it last said it was alive (on its own clock). A node that stops beating for three beats
 * counts as gone; a node takes a new id at every start, so a restarted process holds nothing.
 */
export const sfuNodes = pgTable('sfu_nodes', {
  id: text('id').primaryKey(),
  url: text('url').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull(),
});

/**
 * Which node holds a media room (`live:{code}`, `broadcast:{userId}`, ...): its WHIP/WHEP requests
 * are sent there by every node. A row whose node is gone is taken over by the next publish or
 * subscribe; a node's rows go with it when it stops cleanly.
 */
export const sfuPlacements = pgTable(
  'sfu_placements',
  {
    roomKey: text('room_key').primaryKey(),
    nodeId: text('node_id')
      .notNull()
      .references(() => sfuNodes.id, { onDelete: 'cascade' }),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sfu_placements_node_idx').on(t.nodeId)],
);
