import { and, eq, ne, sql, sum, type SQL } from 'drizzle-orm';
import type { Db, Tx } from './database';
import { projects, versions } from './schema';

/**
 * A version someone other than its publisher is still uploading: a collaborator into the publisher's
 * folder, or anyone through one of the publisher's file request links (no creator). Used in selects
 * of `versions` joined with `projects`.
 */
export const uploadingByOther: SQL<boolean> = sql`(${versions.status} = 'uploading' and ${versions.createdBy} is distinct from ${projects.publisherId})`;

/**
 * What a version holds of its publisher's quota. The publisher's own upload reserves its declared
 * size up front (the check that refuses it is theirs to see). Someone else's upload holds only the
 * bytes that arrived plus one part in flight while its session is open: a declared size costs a
 * stranger nothing, so it must not lock the owner out of their own storage. Its full size is checked
 * when it completes (`fitsOnCompletion`).
 */
export const quotaBytes: SQL<number> = sql`case when ${uploadingByOther} then least(${versions.fileSize},
  coalesce((select sum(up.size) from upload_parts up where up.upload_id = ${versions.uploadId}), 0)
  + coalesce((select u.part_size from uploads u where u.id = ${versions.uploadId} and u.status = 'open'), 0))
  else ${versions.fileSize} end`;

/** Serializes quota checks of one publisher (for the rest of the transaction). */
export async function lockQuota(tx: Tx, publisherId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`quota:${publisherId}`}, 0))`);
}

/** Bytes the publisher's versions hold against the quota, optionally leaving one version out. */
export async function quotaUsed(db: Db | Tx, publisherId: string, exceptVersionId?: string): Promise<number> {
  const [row] = await db
    .select({ total: sum(quotaBytes) })
    .from(versions)
    .innerJoin(projects, eq(projects.id, versions.projectId))
    .where(and(eq(projects.publisherId, publisherId), exceptVersionId ? ne(versions.id, exceptVersionId) : undefined));
  return Number(row?.total ?? 0);
}

/**
 * Whether an upload by someone else may complete: under the publisher's lock, everything else plus
 * this version's full size fits the limit. Called in the transaction that marks it complete, so two
 * completions can't both take the last free bytes.
 */
export async function fitsOnCompletion(
  tx: Tx,
  version: { id: string; fileSize: number },
  quota: { publisherId: string; limitBytes: number },
): Promise<boolean> {
  await lockQuota(tx, quota.publisherId);
  return (await quotaUsed(tx, quota.publisherId, version.id)) + version.fileSize <= quota.limitBytes;
}
