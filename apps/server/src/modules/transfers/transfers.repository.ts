import { and, asc, desc, eq, exists, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { ItemScope } from '../../access/item-scope';
import type { Db, Tx } from '../../db/database';
import { fitsOnCompletion } from '../../db/quota';
import type { GroupRow, ProjectRow, VersionRow } from '../../db/rows';
import {
  fileRequests,
  groups,
  projects,
  transferFiles,
  transferRecipients,
  transfers,
  versions,
} from '../../db/schema';
import { likePattern, uuidArray } from '../../db/sql';

export type TransferRow = typeof transfers.$inferSelect;
export type RecipientRow = typeof transferRecipients.$inferSelect;
export type TransferFileRow = typeof transferFiles.$inferSelect;

/** One file of a transfer with the project and version that hold it. */
export interface TransferFileRecord {
  file: TransferFileRow;
  project: ProjectRow;
  version: VersionRow;
}

/** Everything a new transfer writes, in one transaction. */
export interface NewTransfer {
  transfer: typeof transfers.$inferInsert;
  /** Each recipient's address and own link token. */
  recipients: { email: string; token: string }[];
  root: typeof groups.$inferInsert;
  folders: (typeof groups.$inferInsert)[];
  files: {
    project: typeof projects.$inferInsert;
    version: typeof versions.$inferInsert;
    file: typeof transferFiles.$inferInsert;
  }[];
}

/**
 * Transfers and their content. The folder tree and file projects live in the item tables' TRANSFER
 * area: every read here goes through the TRANSFER scope, so a storage row never comes out of it
 * (and storage repositories, bound to STORAGE, never return these).
 */
export class TransfersRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: ItemScope,
  ) {}

  /** In `tx`, under the owner's quota lock: whether a file request's upload fits at its full size. */
  fitsOnCompletion(
    tx: Tx,
    version: { id: string; fileSize: number },
    quota: { publisherId: string; limitBytes: number },
  ): Promise<boolean> {
    return fitsOnCompletion(tx, version, quota);
  }

  async insert(tx: Tx, input: NewTransfer): Promise<TransferRow> {
    await tx.insert(groups).values(input.root);
    if (input.folders.length) await tx.insert(groups).values(input.folders);
    const [row] = await tx.insert(transfers).values(input.transfer).returning();
    if (!row) throw new Error('insert returned nothing');
    if (input.recipients.length)
      await tx
        .insert(transferRecipients)
        .values(input.recipients.map((recipient, position) => ({ transferId: row.id, ...recipient, position })));
    // Chunked: a transfer of thousands of files stays within the drivers' parameter limits.
    for (let i = 0; i < input.files.length; i += 500) {
      const chunk = input.files.slice(i, i + 500);
      await tx.insert(projects).values(chunk.map((f) => f.project));
      await tx.insert(versions).values(chunk.map((f) => f.version));
      await tx.insert(transferFiles).values(chunk.map((f) => f.file));
    }
    return row;
  }

  async find(id: string): Promise<TransferRow | null> {
    const [row] = await this.db.select().from(transfers).where(eq(transfers.id, id));
    return row ?? null;
  }

  /**
   * The owner's sent transfers (flag NONE) and those that failed (FAILED, shown with their reason),
   * newest first, matching `q` on the name or a recipient.
   */
  async listSent(publisherId: string, q: string | undefined): Promise<TransferRow[]> {
    const search = q
      ? or(
          sql`lower(${transfers.name}) like ${likePattern(q)}`,
          exists(
            this.db
              .select({ one: sql`1` })
              .from(transferRecipients)
              .where(
                and(
                  eq(transferRecipients.transferId, transfers.id),
                  sql`lower(${transferRecipients.email}) like ${likePattern(q)}`,
                ),
              ),
          ),
        )
      : undefined;
    return this.db
      .select()
      .from(transfers)
      .where(and(eq(transfers.publisherId, publisherId), inArray(transfers.flag, ['NONE', 'FAILED']), search))
      .orderBy(desc(transfers.createdAt), desc(transfers.id))
      .limit(1000);
  }

  async recipients(transferIds: string[]): Promise<Map<string, RecipientRow[]>> {
    const map = new Map<string, RecipientRow[]>();
    if (transferIds.length === 0) return map;
    const rows = await this.db
      .select()
      .from(transferRecipients)
      .where(inArray(transferRecipients.transferId, transferIds))
      .orderBy(asc(transferRecipients.position));
    for (const row of rows) map.set(row.transferId, [...(map.get(row.transferId) ?? []), row]);
    return map;
  }

  async files(transferId: string): Promise<TransferFileRecord[]> {
    return this.db
      .select({ file: transferFiles, project: projects, version: versions })
      .from(transferFiles)
      .innerJoin(projects, and(eq(projects.id, transferFiles.projectId), this.scope.inMode(projects)))
      .innerJoin(versions, eq(versions.id, transferFiles.versionId))
      .where(eq(transferFiles.transferId, transferId))
      .orderBy(asc(transferFiles.position));
  }

  async file(transferId: string, fileId: string): Promise<TransferFileRecord | null> {
    const [row] = await this.db
      .select({ file: transferFiles, project: projects, version: versions })
      .from(transferFiles)
      .innerJoin(projects, and(eq(projects.id, transferFiles.projectId), this.scope.inMode(projects)))
      .innerJoin(versions, eq(versions.id, transferFiles.versionId))
      .where(and(eq(transferFiles.transferId, transferId), eq(transferFiles.projectId, fileId)));
    return row ?? null;
  }

  /** The transfer's folders below its root (the root itself included). */
  async folders(rootId: string): Promise<GroupRow[]> {
    return this.db
      .select()
      .from(groups)
      .where(and(sql`${groups.path} @> ${uuidArray([rootId])}`, this.scope.inMode(groups)))
      .orderBy(asc(sql`array_length(${groups.path}, 1)`), asc(sql`lower(${groups.name})`));
  }

  async update(
    id: string,
    values: Partial<typeof transfers.$inferInsert>,
    tx: Db | Tx = this.db,
  ): Promise<TransferRow> {
    const [row] = await tx.update(transfers).set(values).where(eq(transfers.id, id)).returning();
    if (!row) throw new Error('update matched nothing');
    return row;
  }

  /** Marks an unsent transfer failed (once: a sent or already failed one is left as it is). */
  async failIfUploading(id: string, at: Date): Promise<TransferRow | null> {
    const [row] = await this.db
      .update(transfers)
      .set({ flag: 'FAILED', updatedAt: at })
      .where(and(eq(transfers.id, id), eq(transfers.flag, 'CREATE')))
      .returning();
    return row ?? null;
  }

  /** Why each of these transfers failed: the first failed file's name and reason. */
  async failures(transferIds: string[]): Promise<Map<string, string>> {
    const map = new Map<string, string>();
    if (transferIds.length === 0) return map;
    const rows = await this.db
      .select({ transferId: transferFiles.transferId, fileName: versions.fileName, error: versions.error })
      .from(transferFiles)
      .innerJoin(versions, eq(versions.id, transferFiles.versionId))
      .where(
        and(
          inArray(transferFiles.transferId, transferIds),
          // A failed copy leaves its file unsent with the reason (a corrupt file's error is the media's).
          eq(versions.status, 'uploading'),
          isNotNull(versions.error),
        ),
      )
      .orderBy(asc(transferFiles.position));
    for (const row of rows)
      if (!map.has(row.transferId)) map.set(row.transferId, `${row.fileName}: ${row.error ?? ''}`);
    return map;
  }

  /** Moves the flag only from `from`: two racing completions send a transfer once. */
  async sendIfUploading(tx: Tx, id: string, values: Partial<typeof transfers.$inferInsert>): Promise<boolean> {
    const rows = await tx
      .update(transfers)
      .set({ ...values, flag: 'NONE' })
      .where(and(eq(transfers.id, id), eq(transfers.flag, 'CREATE')))
      .returning({ id: transfers.id });
    return rows.length > 0;
  }

  async updateVersion(
    id: string,
    values: Partial<typeof versions.$inferInsert>,
    tx: Db | Tx = this.db,
  ): Promise<VersionRow> {
    const [row] = await tx.update(versions).set(values).where(eq(versions.id, id)).returning();
    if (!row) throw new Error('update matched nothing');
    return row;
  }

  async updateProject(id: string, values: Partial<typeof projects.$inferInsert>, tx: Db | Tx = this.db): Promise<void> {
    await tx
      .update(projects)
      .set(values)
      .where(and(eq(projects.id, id), this.scope.inMode(projects)));
  }

  async setChecksum(versionId: string, sha256: string): Promise<void> {
    await this.db.update(transferFiles).set({ sha256 }).where(eq(transferFiles.versionId, versionId));
  }

  async fileByVersion(versionId: string): Promise<TransferFileRecord | null> {
    const [row] = await this.db
      .select({ file: transferFiles, project: projects, version: versions })
      .from(transferFiles)
      .innerJoin(projects, eq(projects.id, transferFiles.projectId))
      .innerJoin(versions, eq(versions.id, transferFiles.versionId))
      .where(eq(transferFiles.versionId, versionId));
    return row ?? null;
  }

  /** Drops one file (its project, version and file row go together) and recounts the transfer. */
  async deleteFile(transferId: string, projectId: string): Promise<TransferRow> {
    return this.db.transaction(async (tx) => {
      await tx.delete(projects).where(and(eq(projects.id, projectId), this.scope.inMode(projects)));
      const [totals] = await tx
        .select({ n: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(${versions.fileSize}), 0)` })
        .from(transferFiles)
        .innerJoin(versions, eq(versions.id, transferFiles.versionId))
        .where(eq(transferFiles.transferId, transferId));
      return this.update(transferId, { fileCount: Number(totals?.n ?? 0), size: Number(totals?.bytes ?? 0) }, tx);
    });
  }

  /** Removes the transfer with its whole tree (the root folder's cascade takes everything below). */
  async delete(transfer: TransferRow): Promise<void> {
    await this.db.delete(groups).where(and(eq(groups.id, transfer.groupId), this.scope.inMode(groups)));
    await this.db.delete(transfers).where(eq(transfers.id, transfer.id));
  }

  async projectIds(transferId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: transferFiles.projectId })
      .from(transferFiles)
      .where(eq(transferFiles.transferId, transferId));
    return rows.map((r) => r.id);
  }

  /** Sent transfers whose grace period ended before `cutoff` and whose files are still stored. */
  async purgeable(cutoff: Date, limit = 100): Promise<TransferRow[]> {
    return this.db
      .select()
      .from(transfers)
      .where(and(eq(transfers.flag, 'NONE'), lt(transfers.expiresAt, cutoff), isNull(transfers.purgedAt)))
      .limit(limit);
  }

  /** Transfers whose files never all arrived (or one failed), last changed before `before`. */
  async abandoned(before: Date, limit = 100): Promise<TransferRow[]> {
    return this.db
      .select()
      .from(transfers)
      .where(and(inArray(transfers.flag, ['CREATE', 'FAILED']), lt(transfers.updatedAt, before)))
      .limit(limit);
  }

  /**
   * Transfers started through a file request that nothing moved since `before`: not sent, created
   * before it, and no part of any of their files recorded after it.
   */
  async staleRequestUploads(before: Date, limit = 100): Promise<TransferRow[]> {
    return this.db
      .select()
      .from(transfers)
      .where(
        and(
          eq(transfers.flag, 'CREATE'),
          isNotNull(transfers.requestId),
          lt(transfers.createdAt, before),
          sql`not exists (select 1 from transfer_files tf join versions v on v.id = tf.version_id
            join uploads u on u.id = v.upload_id
            where tf.transfer_id = ${transfers}.id and u.updated_at >= ${before.toISOString()})`,
        ),
      )
      .limit(limit);
  }

  /** E-mail transfers expiring within (now, until] that have not had their reminder. */
  async reminderDue(now: Date, until: Date): Promise<TransferRow[]> {
    return this.db
      .select()
      .from(transfers)
      .where(
        and(
          eq(transfers.flag, 'NONE'),
          eq(transfers.mode, 'email'),
          isNull(transfers.reminderSentAt),
          gte(transfers.expiresAt, now),
          lte(transfers.expiresAt, until),
        ),
      )
      .limit(200);
  }

  async transfersOf(publisherId: string): Promise<TransferRow[]> {
    return this.db.select().from(transfers).where(eq(transfers.publisherId, publisherId));
  }

  /** Marks the transfer as fully downloaded once; false when it already was. */
  async markAllDownloaded(tx: Tx, id: string, at: Date): Promise<boolean> {
    const rows = await tx
      .update(transfers)
      .set({ allDownloadedAt: at })
      .where(and(eq(transfers.id, id), isNull(transfers.allDownloadedAt)))
      .returning({ id: transfers.id });
    return rows.length > 0;
  }

  /** Removes a user's transfers and file requests (account erasure; their trees go with the user's folders). */
  async eraseOwnedBy(userId: string, tx: Tx): Promise<void> {
    await tx.delete(transfers).where(eq(transfers.publisherId, userId));
    await tx.delete(fileRequests).where(eq(fileRequests.ownerId, userId));
  }

  /** The transfer file an upload session carries, if any. */
  async fileByUpload(uploadId: string): Promise<TransferFileRecord | null> {
    const [row] = await this.db
      .select({ file: transferFiles, project: projects, version: versions })
      .from(transferFiles)
      .innerJoin(projects, eq(projects.id, transferFiles.projectId))
      .innerJoin(versions, eq(versions.id, transferFiles.versionId))
      .where(eq(versions.uploadId, uploadId));
    return row ?? null;
  }
}
