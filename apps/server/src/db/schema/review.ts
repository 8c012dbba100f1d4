import {
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { versions } from './storage';

/** Raw bytes; PGlite hands them back as a Uint8Array, node-postgres as a Buffer. */
const bytes = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * The "what changed" lane of an ordered pair of versions (B compared with A), computed once by a
 * job and kept: both files are immutable, so it never goes stale, and it goes with either version.
 */
export const versionDifferences = pgTable(
  'version_differences',
  {
    versionId: uuid('version_id')
      .notNull()
      .references(() => versions.id, { onDelete: 'cascade' }),
    otherVersionId: uuid('other_version_id')
      .notNull()
      .references(() => versions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'ready', 'failed'] })
      .notNull()
      .default('pending'),
    progress: integer('progress').notNull().default(0),
    /** How much later B starts than A, in seconds; null when that could not be found for sure. */
    offsetSeconds: doublePrecision('offset_seconds'),
    /**
     * B's level and spectral tilt against A's over the whole file ({ levelDb, bands }), to say in
     * words a change that covers everything. Null on lanes computed before it was measured.
     */
    overall: jsonb('overall'),
    windowSeconds: doublePrecision('window_seconds'),
    /** One little-endian int16 per window: the difference's level in hundredths of a dB relative to A. */
    levels: bytes('levels'),
    error: text('error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.versionId, t.otherVersionId] }),
    // Deleting B finds its rows by this column.
    index('version_differences_other_idx').on(t.otherVersionId),
  ],
);
