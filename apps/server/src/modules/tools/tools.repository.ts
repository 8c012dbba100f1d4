import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { taskStatusOf, type TaskStatus } from '@mixroom/shared';
import type { Db, Tx } from '../../db/database';
import {
  toolSessions,
  toolTasks,
  toolUploads,
  users,
  type ToolOutputJson,
  type ToolPreviewJson,
} from '../../db/schema';
import { likePattern } from '../../db/sql';

export type TaskRow = typeof toolTasks.$inferSelect;
export type SessionRow = typeof toolSessions.$inferSelect;
export type ToolUploadRow = typeof toolUploads.$inferSelect;
export interface TaskRecord {
  task: TaskRow;
  sessions: SessionRow[];
}

type Runner = Db | Tx;

/** The AI tools' tables: tasks, their sessions (one per stage) and inputs being uploaded. */
export class ToolsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Serializes one user's task starts: held until the transaction ends, so two requests can't both
   * see "nothing running" and start two tasks.
   */
  async lockUser(tx: Tx, userId: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`tools:${userId}`}))`);
  }

  /** Whether any of the user's tasks has a session PENDING or RUNNING. */
  async hasActive(userId: string, runner: Runner = this.db): Promise<boolean> {
    const rows = await runner
      .select({ id: toolSessions.id })
      .from(toolSessions)
      .innerJoin(toolTasks, eq(toolTasks.id, toolSessions.taskId))
      .where(
        and(
          eq(toolTasks.userId, userId),
          eq(toolTasks.flag, 'NONE'),
          inArray(toolSessions.status, ['PENDING', 'RUNNING']),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  async insertTask(
    tx: Tx,
    task: typeof toolTasks.$inferInsert,
    sessions: (typeof toolSessions.$inferInsert)[],
  ): Promise<TaskRecord> {
    const [row] = await tx.insert(toolTasks).values(task).returning();
    const inserted = await tx.insert(toolSessions).values(sessions).returning();
    return { task: row!, sessions: inserted.sort((a, b) => a.position - b.position) };
  }

  private async withSessions(rows: TaskRow[], runner: Runner = this.db): Promise<TaskRecord[]> {
    if (rows.length === 0) return [];
    const sessions = await runner
      .select()
      .from(toolSessions)
      .where(
        inArray(
          toolSessions.taskId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(toolSessions.position));
    return rows.map((task) => ({ task, sessions: sessions.filter((s) => s.taskId === task.id) }));
  }

  /** A task that is not being deleted, with its sessions in order; null when there is none. */
  async find(taskId: string, runner: Runner = this.db): Promise<TaskRecord | null> {
    const rows = await runner
      .select()
      .from(toolTasks)
      .where(and(eq(toolTasks.id, taskId), eq(toolTasks.flag, 'NONE')));
    return (await this.withSessions(rows, runner))[0] ?? null;
  }

  /** The user's tasks, newest first, by a case-insensitive match on the name. */
  async listOf(userId: string, q: string | undefined, limit = 500): Promise<TaskRecord[]> {
    const rows = await this.db
      .select()
      .from(toolTasks)
      .where(
        and(
          eq(toolTasks.userId, userId),
          eq(toolTasks.flag, 'NONE'),
          q ? sql`lower(${toolTasks.name}) like ${likePattern(q)}` : undefined,
        ),
      )
      .orderBy(desc(toolTasks.createdAt), desc(toolTasks.id))
      .limit(limit);
    return this.withSessions(rows);
  }

  /** The admin queue: tasks by status, oldest first, with their owner's address. */
  async queue(statuses: TaskStatus[], limit: number): Promise<(TaskRecord & { email: string | null })[]> {
    const rows = await this.db
      .select({ task: toolTasks, email: users.email })
      .from(toolTasks)
      .leftJoin(users, eq(users.id, toolTasks.userId))
      .where(and(inArray(toolTasks.status, statuses), eq(toolTasks.flag, 'NONE')))
      .orderBy(asc(toolTasks.createdAt))
      .limit(limit);
    const records = await this.withSessions(rows.map((r) => r.task));
    return records.map((record, i) => ({ ...record, email: rows[i]!.email }));
  }

  /** Moves a session and keeps the task's status equal to the rule over its sessions. */
  async updateSession(
    tx: Tx,
    sessionId: string,
    changes: Partial<
      Pick<
        SessionRow,
        'status' | 'progress' | 'message' | 'engine' | 'outputs' | 'preview' | 'startedAt' | 'finishedAt' | 'attempts'
      >
    >,
    at: Date,
  ): Promise<TaskRecord | null> {
    const [session] = await tx.update(toolSessions).set(changes).where(eq(toolSessions.id, sessionId)).returning();
    if (!session) return null;
    return this.restate(tx, session.taskId, at);
  }

  /** Recomputes the task's status from its sessions (and when it started and ended). */
  async restate(tx: Tx, taskId: string, at: Date, extra: Partial<TaskRow> = {}): Promise<TaskRecord | null> {
    const record = await this.find(taskId, tx);
    if (!record) return null;
    const status = taskStatusOf(record.sessions);
    const started = record.sessions.find((s) => s.startedAt)?.startedAt ?? null;
    const ended = status === 'COMPLETED' || status === 'FAILED';
    const [task] = await tx
      .update(toolTasks)
      .set({
        status,
        updatedAt: at,
        startedAt: record.task.startedAt ?? started,
        finishedAt: ended ? (record.task.finishedAt ?? at) : null,
        ...extra,
      })
      .where(eq(toolTasks.id, taskId))
      .returning();
    return { task: task!, sessions: record.sessions };
  }

  /** Progress only, outside a transaction (a stage reports it a few times a second at most). */
  async setProgress(sessionId: string, progress: number): Promise<SessionRow | null> {
    const [row] = await this.db
      .update(toolSessions)
      .set({ progress })
      .where(and(eq(toolSessions.id, sessionId), eq(toolSessions.status, 'RUNNING')))
      .returning();
    return row ?? null;
  }

  /** The preview of a running session's finished part; null when the session no longer runs. */
  async setPreview(sessionId: string, preview: ToolPreviewJson): Promise<SessionRow | null> {
    const [row] = await this.db
      .update(toolSessions)
      .set({ preview })
      .where(and(eq(toolSessions.id, sessionId), eq(toolSessions.status, 'RUNNING')))
      .returning();
    return row ?? null;
  }

  async session(sessionId: string, runner: Runner = this.db): Promise<SessionRow | null> {
    const [row] = await runner.select().from(toolSessions).where(eq(toolSessions.id, sessionId));
    return row ?? null;
  }

  /** Fails the sessions still to run or running (a failed or cancelled stage ends the chain). */
  async failOpenSessions(tx: Tx, taskId: string, message: string, at: Date): Promise<void> {
    await tx
      .update(toolSessions)
      .set({ status: 'FAILED', message, finishedAt: at, preview: null })
      .where(and(eq(toolSessions.taskId, taskId), inArray(toolSessions.status, ['PENDING', 'RUNNING'])));
  }

  /** Completes a running session; null when it no longer runs (cancelled, deleted, done by another attempt). */
  async completeSession(
    tx: Tx,
    sessionId: string,
    changes: Pick<SessionRow, 'engine' | 'outputs'>,
    at: Date,
  ): Promise<SessionRow | null> {
    const [row] = await tx
      .update(toolSessions)
      .set({ ...changes, status: 'COMPLETED', progress: 100, finishedAt: at, message: null, preview: null })
      .where(and(eq(toolSessions.id, sessionId), eq(toolSessions.status, 'RUNNING')))
      .returning();
    return row ?? null;
  }

  async setOutputs(tx: Tx, sessionId: string, outputs: Record<string, ToolOutputJson>): Promise<void> {
    await tx.update(toolSessions).set({ outputs }).where(eq(toolSessions.id, sessionId));
  }

  /** Hides the task at once (flag DELETE); its rows go once its files are gone. */
  async flagDeleted(taskId: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(toolTasks)
      .set({ flag: 'DELETE', updatedAt: at })
      .where(eq(toolTasks.id, taskId))
      .returning({ id: toolTasks.id });
    return rows.length > 0;
  }

  async deleteTask(taskId: string): Promise<void> {
    await this.db.delete(toolTasks).where(eq(toolTasks.id, taskId));
  }

  /** Every task of the user, flagged ones included (export and erasure). */
  async allOf(userId: string): Promise<TaskRecord[]> {
    const rows = await this.db.select().from(toolTasks).where(eq(toolTasks.userId, userId));
    return this.withSessions(rows);
  }

  async eraseUser(tx: Tx, userId: string): Promise<void> {
    await tx.delete(toolTasks).where(eq(toolTasks.userId, userId));
    await tx.delete(toolUploads).where(eq(toolUploads.userId, userId));
  }

  async insertUpload(row: typeof toolUploads.$inferInsert): Promise<void> {
    await this.db.insert(toolUploads).values(row);
  }

  async upload(id: string, userId: string): Promise<ToolUploadRow | null> {
    const [row] = await this.db
      .select()
      .from(toolUploads)
      .where(and(eq(toolUploads.id, id), eq(toolUploads.userId, userId)));
    return row ?? null;
  }

  async deleteUpload(id: string): Promise<void> {
    await this.db.delete(toolUploads).where(eq(toolUploads.id, id));
  }

  /** Tasks flagged for deletion a while ago whose deletion did not finish (a crash, a store failure). */
  async flaggedBefore(at: Date, limit = 100): Promise<TaskRow[]> {
    return this.db
      .select()
      .from(toolTasks)
      .where(and(eq(toolTasks.flag, 'DELETE'), lt(toolTasks.updatedAt, at)))
      .limit(limit);
  }

  /** Inputs uploaded before `at` that no task took. */
  async uploadsBefore(at: Date, limit = 100): Promise<ToolUploadRow[]> {
    return this.db.select().from(toolUploads).where(lt(toolUploads.createdAt, at)).limit(limit);
  }
}
