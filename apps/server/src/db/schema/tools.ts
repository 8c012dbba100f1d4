import { bigint, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** What produced an output (kept with it, shown beside it). */
export interface ToolEngineJson {
  id: string;
  label: string;
  kind: 'signal-processing' | 'voice-preset' | 'onnx-model' | 'remote';
}

/** One stored output of a session: the m4a, its peaks, and what made it. */
export interface ToolOutputJson {
  key: string;
  peaksKey: string | null;
  size: number;
  durationSeconds: number | null;
  engine: ToolEngineJson;
}

/**
 * The finished start of a running separation's stems, playable before the stage ends: one lossless
 * file per stem, each holding its first `seconds`. Cleared when the session ends.
 */
export interface ToolPreviewJson {
  seconds: number;
  /** Output kind → the blob key of its preview (FLAC). */
  keys: Record<string, string>;
}

const statuses = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED'] as const;

/**
 * An AI task (Revoice or Stem Separation). `status` is kept equal to the spec's rule over its
 * sessions on every write, so the history and the admin queue filter on a column.
 */
export const toolTasks = pgTable(
  'tool_tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tool: text('tool', { enum: ['revoice', 'stems'] }).notNull(),
    mode: text('mode', { enum: ['TWOSTEMS', 'EVERYTHING'] }),
    voice: text('voice'),
    status: text('status', { enum: statuses }).notNull().default('PENDING'),
    /** NONE, or DELETE while its files are being removed (hidden from then on). */
    flag: text('flag', { enum: ['NONE', 'DELETE'] })
      .notNull()
      .default('NONE'),
    inputSource: text('input_source', { enum: ['upload', 'version', 'link', 'connector'] }).notNull(),
    inputFileName: text('input_file_name').notNull(),
    /** The library version it came from (no foreign key: the task outlives a deleted version). */
    inputVersionId: uuid('input_version_id'),
    inputKey: text('input_key').notNull(),
    inputSeconds: doublePrecision('input_seconds').notNull(),
    creditsCharged: integer('credits_charged').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('tool_tasks_user_created').on(t.userId, t.createdAt), index('tool_tasks_status').on(t.status)],
);

/** One stage of a task, run as one job whose id is the session's. */
export const toolSessions = pgTable(
  'tool_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => toolTasks.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    type: text('type', { enum: ['STEMSEPARATION', 'VC', 'VST'] }).notNull(),
    status: text('status', { enum: statuses }).notNull().default('PENDING'),
    /** -1 until the stage starts, then 0..100. */
    progress: doublePrecision('progress').notNull().default(-1),
    message: text('message'),
    parameters: jsonb('parameters').$type<Record<string, unknown>>().notNull(),
    engine: jsonb('engine').$type<ToolEngineJson>(),
    outputs: jsonb('outputs').$type<Record<string, ToolOutputJson>>().notNull().default({}),
    preview: jsonb('preview').$type<ToolPreviewJson>(),
    attempts: integer('attempts').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('tool_sessions_task').on(t.taskId, t.position)],
);

/** An input being uploaded for a task: the upload session's blob, until a task takes it. */
export const toolUploads = pgTable('tool_uploads', {
  /** The upload session's id. */
  id: uuid('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  blobKey: text('blob_key').notNull(),
  fileName: text('file_name').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
