import { and, asc, eq, inArray, like, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { systemClock, type Clock } from '../../platform/clock/clock';
import { uploadParts, uploads } from '../../db/schema';

export type UploadRow = typeof uploads.$inferSelect;
export type UploadPartRow = typeof uploadParts.$inferSelect;

export class UploadsRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {}

  async create(values: typeof uploads.$inferInsert): Promise<UploadRow> {
    const [row] = await this.db.insert(uploads).values(values).returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  async find(id: string): Promise<UploadRow | null> {
    const [row] = await this.db.select().from(uploads).where(eq(uploads.id, id));
    return row ?? null;
  }

  async parts(uploadId: string): Promise<UploadPartRow[]> {
    return this.db
      .select()
      .from(uploadParts)
      .where(eq(uploadParts.uploadId, uploadId))
      .orderBy(asc(uploadParts.partNumber));
  }

  /** A part sent twice (a retry after a lost response) keeps the latest ETag. */
  async recordPart(part: UploadPartRow): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .insert(uploadParts)
        .values(part)
        .onConflictDoUpdate({
          target: [uploadParts.uploadId, uploadParts.partNumber],
          set: { etag: part.etag, size: part.size },
        });
      await tx.update(uploads).set({ updatedAt: this.clock.now() }).where(eq(uploads.id, part.uploadId));
    });
  }

  async setStatus(id: string, status: UploadRow['status']): Promise<void> {
    await this.db.update(uploads).set({ status, updatedAt: this.clock.now() }).where(eq(uploads.id, id));
  }

  /** Open sessions the user started, or writing under one of `prefixes` (whoever started them). */
  async openOfOrUnder(ownerId: string, prefixes: string[]): Promise<UploadRow[]> {
    const under = prefixes.map((prefix) => like(uploads.blobKey, `${prefix.replace(/[\\%_]/g, '\\$&')}%`));
    return this.db
      .select()
      .from(uploads)
      .where(and(eq(uploads.status, 'open'), or(eq(uploads.ownerId, ownerId), ...under)));
  }

  async staleOpen(before: Date): Promise<UploadRow[]> {
    return this.db
      .select()
      .from(uploads)
      .where(and(inArray(uploads.status, ['open', 'stored']), lt(uploads.updatedAt, before)));
  }
}
