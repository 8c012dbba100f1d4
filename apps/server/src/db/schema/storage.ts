import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/** Who made and deleted an item, and when (folders and projects alike). */
const lifecycle = () => ({
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  deletedBy: uuid('deleted_by').references(() => users.id, { onDelete: 'set null' }),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

const flag = () =>
  text('flag', { enum: ['NONE', 'CREATE', 'DELETE', 'DELETING'] })
    .notNull()
    .default('NONE');

/**
 * Folders. `path` holds the ids of every ancestor and the group itself, root first: access to a
 * group reaches everything whose path contains it, and a move rewrites the paths of the subtree.
 */
export const groups = pgTable(
  'groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    parentId: uuid('parent_id').references((): AnyPgColumn => groups.id, { onDelete: 'cascade' }),
    path: uuid('path').array().notNull(),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    color: text('color'),
    flag: flag(),
    mode: text('mode', { enum: ['STORAGE', 'TRANSFER'] })
      .notNull()
      .default('STORAGE'),
    ...lifecycle(),
  },
  (t) => [
    index('groups_parent_idx').on(t.parentId, t.flag),
    index('groups_path_idx').using('gin', t.path),
    index('groups_publisher_idx').on(t.publisherId),
    index('groups_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('groups_name_prefix_idx').on(sql`lower(${t.name}) text_pattern_ops`),
    index('groups_trash_idx').on(t.flag, t.deletedAt),
  ],
);

/** A file with numbered versions (AUDIO), or any file (ANY, also attachments of a project). */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    type: text('type', { enum: ['AUDIO', 'ANY'] }).notNull(),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    /** Set for attachments: the project they belong to. */
    parentProjectId: uuid('parent_project_id').references((): AnyPgColumn => projects.id, { onDelete: 'cascade' }),
    /** Ancestor group ids (and the parent project for attachments), then the project itself. */
    path: uuid('path').array().notNull(),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    color: text('color'),
    flag: flag(),
    mode: text('mode', { enum: ['STORAGE', 'TRANSFER'] })
      .notNull()
      .default('STORAGE'),
    enableDownload: boolean('enable_download').notNull().default(false),
    note: text('note'),
    /** Size and extension of the latest version, for tiles and the file-kind filter. */
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    latestExtension: text('latest_extension'),
    ...lifecycle(),
  },
  (t) => [
    index('projects_group_idx').on(t.groupId, t.flag),
    index('projects_group_name_idx').on(t.groupId, sql`lower(${t.name})`, t.id),
    index('projects_group_updated_idx').on(t.groupId, t.updatedAt.desc(), t.id),
    index('projects_parent_project_idx').on(t.parentProjectId),
    index('projects_path_idx').using('gin', t.path),
    index('projects_publisher_idx').on(t.publisherId),
    index('projects_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('projects_name_prefix_idx').on(sql`lower(${t.name}) text_pattern_ops`),
    index('projects_trash_idx').on(t.flag, t.deletedAt),
  ],
);

export const versions = pgTable(
  'versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    name: text('name').notNull(),
    fileName: text('file_name').notNull(),
    fileExtension: text('file_extension').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    blobKey: text('blob_key').notNull(),
    uploadId: uuid('upload_id'),
    status: text('status', { enum: ['uploading', 'processing', 'ready', 'corrupt'] })
      .notNull()
      .default('uploading'),
    progress: integer('progress').notNull().default(0),
    error: text('error'),
    durationSeconds: doublePrecision('duration_seconds'),
    /** channels, sampleRate, codec, bitDepth, format (from the probe). */
    media: jsonb('media'),
    /** integrated (LUFS), truePeak (dBTP), range (LU). */
    loudness: jsonb('loudness'),
    peaksKey: text('peaks_key'),
    thumbnailKey: text('thumbnail_key'),
    previewKey: text('preview_key'),
    /**
     * A lossy, browser-playable copy: what playback streams when downloads are off, so the
     * original's bytes never leave the store without the owner's say.
     */
    lossyPreviewKey: text('lossy_preview_key'),
    /** A user-facing note about a file that plays but is damaged (cut short, undecodable parts). */
    warning: text('warning'),
    /** Rich-text notes (sanitized HTML) and when they were last saved. */
    note: text('note'),
    noteUpdatedAt: timestamp('note_updated_at', { withTimezone: true }),
    /** The review's verdict on this version, set by the publisher or an editor. */
    approval: text('approval', { enum: ['none', 'needs_changes', 'approved'] })
      .notNull()
      .default('none'),
    approvalBy: uuid('approval_by').references(() => users.id, { onDelete: 'set null' }),
    approvalAt: timestamp('approval_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('versions_project_number_key').on(t.projectId, t.number)],
);

/** Who was given a group or a project, and as what (the publisher is implicit). */
export const memberships = pgTable(
  'memberships',
  {
    resourceId: uuid('resource_id').notNull(),
    resourceType: text('resource_type', { enum: ['group', 'project'] }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permission: text('permission', { enum: ['VIEWER', 'EDITOR'] })
      .notNull()
      .default('VIEWER'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.resourceId, t.userId] }), index('memberships_user_idx').on(t.userId)],
);
