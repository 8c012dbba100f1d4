import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A storage account a user linked (one per kind): the provider's account name for Settings, and
 * what reaches it (address, user name, password or keys) sealed with the server's key, bound to the
 * row's id. The sealed credentials never leave the server.
 */
export const connectorAccounts = pgTable(
  'connector_accounts',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['webdav', 's3', 'dropbox', 'gdrive'] }).notNull(),
    accountName: text('account_name').notNull(),
    sealedCredentials: text('sealed_credentials').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [unique('connector_accounts_user_kind').on(t.userId, t.kind)],
);

/**
 * One copy between a linked account and Mixroom, run by the server in the background: an import
 * (a file becomes a version) or an export (a version, or a folder as one ZIP, is saved to the
 * account). Its bytes and status feed the Activities panel; the account's id stays when it is
 * unlinked, so the history outlives it. A copy names either a version (and its project) or a folder.
 */
export const connectorTransfers = pgTable(
  'connector_transfers',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectorId: uuid('connector_id').notNull(),
    direction: text('direction', { enum: ['import', 'export'] }).notNull(),
    /** The file's path in the linked account. */
    path: text('path').notNull(),
    fileName: text('file_name').notNull(),
    versionId: uuid('version_id'),
    projectId: uuid('project_id'),
    /** The folder a ZIP export archives (then there is no version nor project). */
    groupId: uuid('group_id'),
    status: text('status', { enum: ['running', 'done', 'failed'] }).notNull(),
    bytesDone: bigint('bytes_done', { mode: 'number' }).notNull().default(0),
    bytesTotal: bigint('bytes_total', { mode: 'number' }).notNull(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('connector_transfers_user_idx').on(t.userId, t.createdAt),
    check(
      'connector_transfers_one_source',
      sql`(${t.groupId} IS NULL AND ${t.versionId} IS NOT NULL AND ${t.projectId} IS NOT NULL) OR (${t.groupId} IS NOT NULL AND ${t.versionId} IS NULL AND ${t.projectId} IS NULL AND ${t.direction} = 'export')`,
    ),
  ],
);

/**
 * An OAuth authorization in progress (Link → the provider → back): the state's SHA-256, the PKCE
 * verifier sealed with the server's key, the user who started it and its expiry on the server clock.
 * The callback consumes the row (single use) and only for the same user.
 */
export const connectorOAuthStates = pgTable(
  'connector_oauth_states',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['dropbox', 'gdrive'] }).notNull(),
    stateHash: text('state_hash').notNull().unique(),
    sealedVerifier: text('sealed_verifier').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('connector_oauth_states_user_idx').on(t.userId)],
);
