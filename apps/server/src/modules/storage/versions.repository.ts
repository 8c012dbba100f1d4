import { and, desc, eq, inArray, lt, sql, sum } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { uuidArray } from '../../db/sql';
import { projects, versions } from '../../db/schema';

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
   * Inserts the next version: highest number + 1, or 1. The project row is locked so two uploads to
   * one project cannot take the same number.
   */
  async insertNext(values: Omit<typeof versions.$inferInsert, 'number'>): Promise<VersionRow> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from ${projects} where ${projects.id} = ${values.projectId} for update`);
      const [max] = await tx
        .select({ n: sql<number>`coalesce(max(${versions.number}), 0)` })
        .from(versions)
        .where(eq(versions.projectId, values.projectId));
      const [row] = await tx
        .insert(versions)
        .values({ ...values, number: Number(max?.n ?? 0) + 1 })
        .returning();
      if (!row) throw new Error('insert returned nothing');
      return row;
    });
  }

  async update(id: string, values: Partial<typeof versions.$inferInsert>): Promise<VersionRow> {
    const [row] = await this.db.update(versions).set(values).where(eq(versions.id, id)).returning();
    if (!row) throw new Error('update matched nothing');
    return row;
  }

  /** Marks a version's media job alive; a single small write, since it runs every few seconds. */
  async touchHeartbeat(id: string, at: Date): Promise<void> {
    await this.db.update(versions).set({ processingHeartbeatAt: at }).where(eq(versions.id, id));
  }

  /**
   * Versions whose media job started and stopped beating before `before`: still processing, or
   * ready but with their background pass (loudness, lossy preview) unfinished.
   */
  async listStalled(before: Date): Promise<VersionRow[]> {
    return this.db
      .select()
      .from(versions)
      .where(and(lt(versions.progress, 100), inArray(versions.status, ['processing', 'ready']), lt(versions.processingHeartbeatAt, before)));
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
    return { latest: new Map(rows.map((r) => [r.projectId, r])), counts: new Map(counts.map((c) => [c.projectId, Number(c.n)])) };
  }

  /** Bytes a publisher's projects hold, trash included (it still occupies the store). */
  async usedBytes(publisherId: string): Promise<number> {
    const [row] = await this.db
      .select({ total: sum(versions.fileSize) })
      .from(versions)
      .innerJoin(projects, eq(projects.id, versions.projectId))
      .where(eq(projects.publisherId, publisherId));
    return Number(row?.total ?? 0);
  }
}
