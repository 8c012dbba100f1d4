import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { fileRequests, transferFiles, transfers, versions } from '../../db/schema';

export type FileRequestRow = typeof fileRequests.$inferSelect;

/** File request links and how many transfers came through each. */
export class FileRequestsRepository {
  constructor(private readonly db: Db) {}

  async create(values: typeof fileRequests.$inferInsert): Promise<FileRequestRow> {
    const [row] = await this.db.insert(fileRequests).values(values).returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  async findByToken(token: string): Promise<FileRequestRow | null> {
    const [row] = await this.db.select().from(fileRequests).where(eq(fileRequests.token, token));
    return row ?? null;
  }

  async find(id: string): Promise<FileRequestRow | null> {
    const [row] = await this.db.select().from(fileRequests).where(eq(fileRequests.id, id));
    return row ?? null;
  }

  /** Upload sessions still open for files of transfers started through the request and not yet sent. */
  async openUploadIds(requestId: string): Promise<string[]> {
    const rows = await this.db
      .select({ uploadId: versions.uploadId })
      .from(transfers)
      .innerJoin(transferFiles, eq(transferFiles.transferId, transfers.id))
      .innerJoin(versions, eq(versions.id, transferFiles.versionId))
      .where(and(eq(transfers.requestId, requestId), eq(transfers.flag, 'CREATE'), eq(versions.status, 'uploading')));
    return rows.flatMap((r) => (r.uploadId ? [r.uploadId] : []));
  }

  /** The owner's live links, newest first, each with the transfers received through it. */
  async listLive(ownerId: string): Promise<(FileRequestRow & { received: number })[]> {
    // Qualified by hand: in a one-table select Drizzle leaves column names bare, which the subquery would misread.
    const received = sql<number>`(select count(*)::int from ${transfers} t where t.request_id = ${fileRequests}.id and t.flag = 'NONE')`;
    const rows = await this.db
      .select({ request: fileRequests, received })
      .from(fileRequests)
      .where(and(eq(fileRequests.ownerId, ownerId), isNull(fileRequests.revokedAt)))
      .orderBy(desc(fileRequests.createdAt));
    return rows.map((r) => ({ ...r.request, received: Number(r.received) }));
  }

  /** Turns the owner's link off; false when it is not theirs or already off. */
  async revoke(id: string, ownerId: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(fileRequests)
      .set({ revokedAt: at })
      .where(and(eq(fileRequests.id, id), eq(fileRequests.ownerId, ownerId), isNull(fileRequests.revokedAt)))
      .returning({ id: fileRequests.id });
    return rows.length > 0;
  }
}
