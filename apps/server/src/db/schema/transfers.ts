import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { groups, projects, versions } from './storage';
import { users } from './users';

/**
 * A transfer: files sent as an expiring link. Its content is a TRANSFER-mode folder tree (root
 * `group_id`) with a project per file; this row holds what a transfer adds to that tree.
 */
export const transfers = pgTable(
  'transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The recipient link's secret (192 random bits, base64url); the id never leaves the owner's screens. */
    token: text('token').notNull(),
    name: text('name').notNull(),
    message: text('message').notNull().default(''),
    mode: text('mode', { enum: ['link', 'email'] }).notNull(),
    /** scrypt hash ("scrypt$N$r$p$salt$hash"); never returned. */
    passwordHash: text('password_hash'),
    durationDays: integer('duration_days').notNull(),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * CREATE while its files upload, NONE once sent, DELETE while it is being removed, FAILED when a
     * file could not be stored (a copy from a linked account failed for good: the reason is on that
     * file's version); a failed transfer is never sent.
     */
    flag: text('flag', { enum: ['NONE', 'CREATE', 'DELETE', 'DELETING', 'FAILED'] })
      .notNull()
      .default('CREATE'),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    fileCount: integer('file_count').notNull().default(0),
    /** Bumped when the password changes: grants handed out before stop working. */
    accessEpoch: integer('access_epoch').notNull().default(0),
    anonymousDownloads: integer('anonymous_downloads').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /** When it became available (its files all in), or was last reloaded: the expiry's window starts here. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    allDownloadedAt: timestamp('all_downloaded_at', { withTimezone: true }),
    /** Its files were removed from the store after the grace period; the tile stays until deleted. */
    purgedAt: timestamp('purged_at', { withTimezone: true }),
    /** Set when someone without an account uploaded it through one of the owner's file requests. */
    requestId: uuid('request_id'),
    uploaderName: text('uploader_name'),
    uploaderEmail: text('uploader_email'),
  },
  (t) => [
    uniqueIndex('transfers_token_key').on(t.token),
    index('transfers_publisher_idx').on(t.publisherId, t.createdAt.desc()),
    index('transfers_expiry_idx').on(t.expiresAt),
    index('transfers_group_idx').on(t.groupId),
  ],
);

export const transferRecipients = pgTable(
  'transfer_recipients',
  {
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /**
     * This recipient's own link secret (192 random bits, base64url), in their e-mail only: downloads
     * through it are theirs; the transfer's shared token counts as "someone with the link".
     */
    token: text('token').notNull(),
    position: integer('position').notNull().default(0),
    downloadCount: integer('download_count').notNull().default(0),
    lastDownloadAt: timestamp('last_download_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.transferId, t.email] }), uniqueIndex('transfer_recipients_token_key').on(t.token)],
);

/** Postgres's set of integer ranges: which bytes of a file a download entry has delivered. */
const byteRanges = customType<{ data: string }>({ dataType: () => 'int8multirange' });

/** A file of a transfer: the project (and its one version) plus where it sits and its checksum. */
export const transferFiles = pgTable(
  'transfer_files',
  {
    projectId: uuid('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    versionId: uuid('version_id')
      .notNull()
      .references(() => versions.id, { onDelete: 'cascade' }),
    /** Folder path inside the transfer ('' at the root). */
    path: text('path').notNull().default(''),
    position: integer('position').notNull(),
    /** Hex SHA-256 of the bytes, computed by a job after the upload. */
    sha256: text('sha256'),
  },
  (t) => [index('transfer_files_transfer_idx').on(t.transferId, t.position)],
);

/** The download log: who (a recipient's address, or null for the link), what (a file or the ZIP), when. */
export const transferDownloads = pgTable(
  'transfer_downloads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    email: text('email'),
    /** The file's project id; null for the whole transfer as a ZIP. */
    fileId: uuid('file_id'),
    fileName: text('file_name').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** The bytes delivered: the size of `served`, so overlapping or repeated ranges count once. */
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    /** The byte ranges of the file (or ZIP) its responses delivered, merged. */
    served: byteRanges('served')
      .notNull()
      .default(sql`'{}'::int8multirange`),
  },
  (t) => [index('transfer_downloads_transfer_idx').on(t.transferId, t.startedAt.desc())],
);

/**
 * The link secrets of deleted transfers (the shared token and each recipient's): such a link answers
 * "no longer available" (410) like an expired one, rather than looking as if it never existed.
 */
export const retiredTransferTokens = pgTable('retired_transfer_tokens', {
  token: text('token').primaryKey(),
  retiredAt: timestamp('retired_at', { withTimezone: true }).notNull(),
});

/** "Request files": a link through which someone without an account uploads a transfer to the owner. */
export const fileRequests = pgTable(
  'file_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    token: text('token').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull().default(''),
    /** Largest upload accepted in bytes; null for the owner's plan's transfer limit. */
    maxBytes: bigint('max_bytes', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('file_requests_token_key').on(t.token),
    index('file_requests_owner_idx')
      .on(t.ownerId)
      .where(sql`${t.revokedAt} is null`),
  ],
);
