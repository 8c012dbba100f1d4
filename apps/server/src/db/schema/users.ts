import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    /** argon2id hash; null for accounts that sign in through an external issuer. */
    passwordHash: text('password_hash'),
    photoUrl: text('photo_url'),
    /** Blob key of an uploaded profile picture (its URL is in photo_url). */
    photoKey: text('photo_key'),
    phoneNumber: text('phone_number'),
    /** 'password' for local accounts, else the external issuer URL. */
    provider: text('provider').notNull().default('password'),
    /** The `sub` claim at an external issuer. */
    externalSubject: text('external_subject'),
    isAdmin: boolean('is_admin').notNull().default(false),
    canBroadcast: boolean('can_broadcast').notNull().default(false),
    /** Set by an administrator: the account can't sign in and every session of it has ended. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Set when the user deletes their account: signed out at once, erased by a job that resumes after a crash. */
    deletionRequestedAt: timestamp('deletion_requested_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_external_key').on(t.provider, t.externalSubject),
    index('users_created_idx').on(t.createdAt),
    // The admin grid searches inside e-mails and names ("contains"), over many thousands of users.
    // No pending list (fastupdate): PGlite has no autovacuum to flush one, and an unflushed list makes
    // every search read it whole and the planner give up on the index.
    index('users_email_trgm_idx_v2')
      .using('gin', sql`lower(${t.email}) gin_trgm_ops`)
      .with({ fastupdate: false }),
    index('users_name_trgm_idx_v2')
      .using('gin', sql`lower(${t.displayName}) gin_trgm_ops`)
      .with({ fastupdate: false }),
  ],
);

export const planGrants = pgTable(
  'plan_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** When the grant's end was told to the user's open screens (null: not ended, or not told yet). */
    endAnnouncedAt: timestamp('end_announced_at', { withTimezone: true }),
    grantedBy: uuid('granted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('plan_grants_user_idx').on(t.userId)],
);

export const passwordResets = pgTable('password_resets', {
  /** SHA-256 of the token sent by mail; the token itself is never stored. */
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
