import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/database';
import { fitsOnCompletion, lockQuota, quotaUsed } from '../../../db/quota';
import { uuidArray } from '../../../db/sql';
import { projects, uploads, versions } from '../../../db/schema';

export type VersionRow = typeof versions.$inferSelect;

export class VersionsRepository {
  constructor(private readonly db: Db) {}

  async find(id: string): Promise<VersionRow | null> {
    const [row] = await this.db.select().from(versions).where(eq(versions.id, id));
    return row ?? null;
  }

  async findByNumber(projectId: string, number: number): Promise<VersionRow | null> {
    const [row] = await this.db
      .select()
      .from(versions)
      .where(and(eq(versions.projectId, projectId), eq(versions.number, number)));
    return row ?? null;
  }

  async list(projectId: string): Promise<VersionRow[]> {
    return this.db.select().from(versions).where(eq(versions.projectId, projectId)).orderBy(desc(versions.number));
  }

  /**
   * Inserts the next version (highest number + 1, or 1) only if the publisher's stored and reserved
   * bytes (every version, uploading ones at their declared size) leave room for it. The check and the
   * insert run under a lock on the publisher, so concurrent uploads can't all pass the check and
   * overshoot the quota together; the project row is locked too, so two uploads to one project
   * cannot take the same number. Answers null when there is no room.
   */
  async insertNextWithinQuota(
    values: Omit<typeof versions.$inferInsert, 'number'>,
    quota: { publisherId: string; limitBytes: number },
  ): Promise<VersionRow | null> {
    return this.db.transaction(async (tx) => {
      await lockQuota(tx, quota.publisherId);
      if ((await quotaUsed(tx, quota.publisherId)) + values.fileSize > quota.limitBytes) return null;
      await tx.execute(sql`select 1 from ${projects} where ${projects.id} = ${values.projectId} for update`);
      const [max] = await tx
        .select({ n: sql<number>`coalesce(max(${versions.number}), 0)` })
        .from(versions)
        .where(eq(versions.projectId, values.projectId));
      const [row] = await tx
        .insert(versions)
        .values({ ...values, number: Number(max?.n ?? 0) + 1 })
        .returning();
      return row ?? null;
    });
  }

  async update(
    id: string,
    values: Partial<typeof versions.$inferInsert>,
    executor: Db | Tx = this.db,
  ): Promise<VersionRow> {
    const [row] = await executor.update(versions).set(values).where(eq(versions.id, id)).returning();
    if (!row) throw new Error('update matched nothing');
    return row;
  }

  /**
   * Versions still uploading whose session is closed, gone, or untouched since `before`: uploads
   * that will never finish, holding a tile and a quota reservation.
   */
  async abandonedUploads(before: Date, now: Date): Promise<VersionRow[]> {
    // A row without a session yet is an upload being opened: give it a few minutes.
    const opening = new Date(now.getTime() - 10 * 60_000).toISOString();
    const rows = await this.db
      .select({ version: versions })
      .from(versions)
      .leftJoin(uploads, eq(uploads.id, versions.uploadId))
      .where(
        and(
          eq(versions.status, 'uploading'),
          sql`((${uploads.id} is null and ${versions.createdAt} < ${opening}) or ${uploads.status} <> 'open' or ${uploads.updatedAt} < ${before.toISOString()})`,
        ),
      );
    return rows.map((r) => r.version);
  }

  /** Ready audio versions (they have a length) still without a lossy playback preview, a few at random. */
  async listMissingLossyPreview(limit: number): Promise<VersionRow[]> {
    return this.db
      .select()
      .from(versions)
      .where(
        and(
          eq(versions.status, 'ready'),
          eq(versions.progress, 100),
          isNull(versions.lossyPreviewKey),
          isNotNull(versions.durationSeconds),
        ),
      )
      .orderBy(sql`random()`)
      .limit(limit);
  }

  /** Upload sessions still open for versions of these projects (to close before the projects go). */
  async openUploadIds(projectIds: string[]): Promise<string[]> {
    if (projectIds.length === 0) return [];
    const rows = await this.db
      .select({ uploadId: versions.uploadId })
      .from(versions)
      .where(and(inArray(versions.projectId, projectIds), eq(versions.status, 'uploading')));
    return rows.flatMap((r) => (r.uploadId ? [r.uploadId] : []));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(versions).where(eq(versions.id, id));
  }

  /** The latest version of each project and how many each has. */
  async latestOf(projectIds: string[]): Promise<{ latest: Map<string, VersionRow>; counts: Map<string, number> }> {
    if (projectIds.length === 0) return { latest: new Map(), counts: new Map() };
    // The highest number per project, found through the (project_id, number) unique index.
    const rows = await this.db
      .select()
      .from(versions)
      .where(
        sql`(${versions.projectId}, ${versions.number}) in (select project_id, max(number) from ${versions} where project_id = any(${uuidArray(projectIds)}) group by project_id)`,
      );
    const counts = await this.db
      .select({ projectId: versions.projectId, n: sql<number>`count(*)` })
      .from(versions)
      .where(inArray(versions.projectId, projectIds))
      .groupBy(versions.projectId);
    return {
      latest: new Map(rows.map((r) => [r.projectId, r])),
      counts: new Map(counts.map((c) => [c.projectId, Number(c.n)])),
    };
  }

  /** Bytes a publisher's projects hold, trash included (it still occupies the store); see `quotaBytes`. */
  async usedBytes(publisherId: string): Promise<number> {
    return quotaUsed(this.db, publisherId);
  }

  /** In `tx`, under the publisher's lock: whether someone else's upload may complete at its full size. */
  fitsOnCompletion(
    tx: Tx,
    version: { id: string; fileSize: number },
    quota: { publisherId: string; limitBytes: number },
  ): Promise<boolean> {
    return fitsOnCompletion(tx, version, quota);
  }
}
