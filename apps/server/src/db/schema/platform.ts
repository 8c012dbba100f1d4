import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Rows of the embedded OIDC provider (sessions, grants, codes, refresh tokens, interactions). */
export const oidcModels = pgTable(
  'oidc_models',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_models_grant_idx').on(t.grantId),
    index('oidc_models_uid_idx').on(t.uid),
    index('oidc_models_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Grants (sign-in sessions) ended before their access tokens expired — a sign-out, a revoked refresh
 * token, a password reset, an account disabled: an access token of the grant is refused until
 * `expiresAt`, when every token it could hold has expired anyway. Every node keeps these in memory;
 * the table brings them to a node that starts, or that missed the bus's news.
 */
export const sessionRevocations = pgTable(
  'session_revocations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account, when the provider said whose grant it was (for an operator reading the table). */
    userId: text('user_id'),
    grantId: text('grant_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('session_revocations_expires_idx').on(t.expiresAt)],
);

/** Secrets generated on first start and shared by every node: signing keys, cookie keys, VAPID. */
export const appSecrets = pgTable('app_secrets', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A resumable multipart upload. Parts and their ETags live in upload_parts because S3-compatible
 * stores differ in ListParts support (s3rver has none): the database is the record of progress.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blobKey: text('blob_key').notNull(),
    driverUploadId: text('driver_upload_id').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    partSize: integer('part_size').notNull(),
    status: text('status', { enum: ['open', 'stored', 'completed', 'aborted'] })
      .notNull()
      .default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('uploads_owner_idx').on(t.ownerId), index('uploads_status_idx').on(t.status, t.updatedAt)],
);

export const uploadParts = pgTable(
  'upload_parts',
  {
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    partNumber: integer('part_number').notNull(),
    etag: text('etag').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.partNumber] })],
);

/**
 * Jobs and events that follow a write, recorded in the write's own transaction and dispatched after
 * it commits. A crash between the commit and the dispatch loses nothing: the next flush (at start
 * and every few seconds) sends what is left. `jobId` makes a second send of the same job a no-op.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: ['job', 'event'] }).notNull(),
    /** The job's queue name, or the event's type. */
    name: text('name').notNull(),
    payload: jsonb('payload').notNull(),
    /** Jobs: the realtime topic and start delay. Events: the topic. */
    options: jsonb('options').notNull().default({}),
    jobId: uuid('job_id').notNull().defaultRandom(),
    attempts: integer('attempts').notNull().default(0),
    /** Set while a node dispatches the row; a row whose claim lapsed (its node died) is taken again. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);
