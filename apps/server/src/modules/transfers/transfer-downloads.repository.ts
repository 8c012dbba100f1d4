import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { transferDownloads, transferRecipients, transfers } from '../../db/schema';

export type DownloadRow = typeof transferDownloads.$inferSelect;

/** The download log and the counts beside it (per recipient address, and anonymous for the link). */
export class TransferDownloadsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Starts a log entry and counts the download: for the recipient whose address it is (any case),
   * else as anonymous.
   */
  async start(entry: {
    transferId: string;
    email: string | null;
    fileId: string | null;
    fileName: string;
    at: Date;
  }): Promise<DownloadRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(transferDownloads)
        .values({ ...entry, startedAt: entry.at })
        .returning();
      if (!row) throw new Error('insert returned nothing');
      const counted = entry.email
        ? await tx
            .update(transferRecipients)
            .set({ downloadCount: sql`${transferRecipients.downloadCount} + 1`, lastDownloadAt: entry.at })
            .where(
              and(
                eq(transferRecipients.transferId, entry.transferId),
                sql`lower(${transferRecipients.email}) = ${entry.email.toLowerCase()}`,
              ),
            )
            .returning({ email: transferRecipients.email })
        : [];
      if (counted.length === 0)
        await tx
          .update(transfers)
          .set({ anonymousDownloads: sql`${transfers.anonymousDownloads} + 1` })
          .where(eq(transfers.id, entry.transferId));
      return row;
    });
  }

  /**
   * A resumed download (a Range from the middle) continues the same person's latest entry for the
   * file, an unfinished one first, rather than counting as another download.
   */
  async latestOf(transferId: string, fileId: string, email: string | null): Promise<DownloadRow | null> {
    const [row] = await this.db
      .select()
      .from(transferDownloads)
      .where(
        and(
          eq(transferDownloads.transferId, transferId),
          eq(transferDownloads.fileId, fileId),
          email === null ? sql`${transferDownloads.email} is null` : eq(transferDownloads.email, email),
        ),
      )
      .orderBy(sql`${transferDownloads.completedAt} is null desc`, desc(transferDownloads.startedAt))
      .limit(1);
    return row ?? null;
  }

  /**
   * Records what one response delivered: `sent` bytes from `start` of something `size` bytes long.
   * The entry's ranges are merged, so bytes sent again (an overlapping Range, a repeated request)
   * count once and an entry never counts more than the file. It is complete once its ranges cover
   * the whole and a response ended normally; true when this call completed it.
   */
  async recordServed(
    id: string,
    served: { start: number; sent: number; size: number; finished: boolean },
    at: Date,
  ): Promise<boolean> {
    const added = sql`int8multirange(int8range(${served.start}::bigint, ${served.start + served.sent}::bigint))`;
    const merged = sql`(${transferDownloads.served} + ${added})`;
    const [row] = await this.db
      .update(transferDownloads)
      .set({
        served: merged,
        bytes: sql`(select coalesce(sum(upper(r) - lower(r)), 0) from unnest(${merged}) as r)`,
      })
      .where(eq(transferDownloads.id, id))
      .returning({ bytes: transferDownloads.bytes });
    if (!row || !served.finished || row.bytes < served.size) return false;
    const completed = await this.db
      .update(transferDownloads)
      .set({ completedAt: at })
      .where(and(eq(transferDownloads.id, id), isNull(transferDownloads.completedAt)))
      .returning({ id: transferDownloads.id });
    return completed.length > 0;
  }

  async log(transferId: string, limit = 500): Promise<DownloadRow[]> {
    return this.db
      .select()
      .from(transferDownloads)
      .where(eq(transferDownloads.transferId, transferId))
      .orderBy(desc(transferDownloads.startedAt))
      .limit(limit);
  }

  /**
   * Who has everything: people (an address, or '' for the link) with a completed ZIP, or completed
   * downloads of `fileCount` different files.
   */
  async completeDownloaders(transferId: string, fileCount: number): Promise<string[]> {
    const who = sql<string>`coalesce(lower(${transferDownloads.email}), '')`;
    const rows = await this.db
      .select({ who })
      .from(transferDownloads)
      .where(and(eq(transferDownloads.transferId, transferId), isNotNull(transferDownloads.completedAt)))
      .groupBy(who)
      .having(
        sql`bool_or(${transferDownloads.fileId} is null) or count(distinct ${transferDownloads.fileId}) >= ${fileCount}`,
      );
    return rows.map((r) => r.who);
  }
}
