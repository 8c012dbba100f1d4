import { and, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/database';
import { adminAudit, planGrants, users, versions } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
export type GrantRow = typeof planGrants.$inferSelect;
export type AuditRow = typeof adminAudit.$inferSelect;
export type NewAuditRow = typeof adminAudit.$inferInsert;

/** Serialises every change that could leave the server without an administrator. */
const ADMIN_SET_LOCK = 7002;

const escapeLike = (text: string) => text.replace(/[%_\\]/g, (c) => `\\${c}`);
const isUuid = (text: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);

/** The admin area's queries: accounts and their flags, plan grants, the audit log, server figures. */
export class AdminRepository {
  constructor(private readonly db: Db) {}

  /**
   * A page of accounts, newest first. A search is a whole uid, or a part of an e-mail or a name,
   * matched on the lower-cased columns the trigram indexes cover.
   */
  async list(options: { search?: string | undefined; offset: number; limit: number }) {
    const where = this.searchWhere(options.search);
    if (!where) {
      // Unfiltered: the page walks the sign-up index; the count is one cheap scan.
      const [total] = await this.db.select({ n: count() }).from(users);
      const rows = await this.page(undefined, options);
      return { total: total?.n ?? 0, rows };
    }
    // Filtered: one pass finds the matches, counts them and sorts the page (a count beside the page
    // would match every row a second time).
    const hits = await this.db
      .select({ user: users, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), users.id)
      .limit(options.limit)
      .offset(options.offset);
    if (hits.length === 0 && options.offset > 0) {
      // Past the last page: the count still has to come from somewhere.
      const [total] = await this.db.select({ n: count() }).from(users).where(where);
      return { total: total?.n ?? 0, rows: [] };
    }
    return { total: hits[0]?.total ?? 0, rows: hits.map((h) => h.user) };
  }

  private page(where: SQL | undefined, options: { offset: number; limit: number }) {
    return this.db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), users.id)
      .limit(options.limit)
      .offset(options.offset);
  }

  private searchWhere(search: string | undefined): SQL | undefined {
    if (!search) return undefined;
    if (isUuid(search)) return eq(users.id, search.toLowerCase());
    const pattern = `%${escapeLike(search.toLowerCase())}%`;
    return or(sql`lower(${users.email}) like ${pattern}`, sql`lower(${users.displayName}) like ${pattern}`);
  }

  async findUser(id: string, tx: Db | Tx = this.db): Promise<UserRow | null> {
    const [row] = await tx.select().from(users).where(eq(users.id, id));
    return row ?? null;
  }

  /** Administrators whose accounts are enabled: the ones who can run the server. */
  async activeAdminCount(tx: Db | Tx = this.db): Promise<number> {
    const [row] = await tx
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.isAdmin, true), isNull(users.disabledAt)));
    return row?.n ?? 0;
  }

  /** Taken first by any transaction that may remove an administrator; held until it ends. */
  async lockAdminSet(tx: Tx): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_SET_LOCK})`);
  }

  async updateUser(
    tx: Tx,
    id: string,
    values: Partial<Pick<UserRow, 'isAdmin' | 'canBroadcast' | 'disabledAt'>>,
    at: Date,
  ): Promise<UserRow> {
    const [row] = await tx
      .update(users)
      .set({ ...values, updatedAt: at })
      .where(eq(users.id, id))
      .returning();
    if (!row) throw new Error('user vanished inside its transaction');
    return row;
  }

  async grantsFor(userIds: string[], tx: Db | Tx = this.db): Promise<GrantRow[]> {
    if (userIds.length === 0) return [];
    return tx.select().from(planGrants).where(inArray(planGrants.userId, userIds)).orderBy(planGrants.startsAt);
  }

  async insertGrant(tx: Tx, values: typeof planGrants.$inferInsert): Promise<GrantRow> {
    const [row] = await tx.insert(planGrants).values(values).returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  async findGrant(tx: Tx, userId: string, grantId: string): Promise<GrantRow | null> {
    const [row] = await tx
      .select()
      .from(planGrants)
      .where(and(eq(planGrants.id, grantId), eq(planGrants.userId, userId)))
      .for('update');
    return row ?? null;
  }

  async endGrant(tx: Tx, grantId: string, at: Date): Promise<GrantRow> {
    // A revocation is told by the admin service as it happens, not again by the plan-endings job.
    const [row] = await tx
      .update(planGrants)
      .set({ endsAt: at, endAnnouncedAt: at })
      .where(eq(planGrants.id, grantId))
      .returning();
    if (!row) throw new Error('grant vanished inside its transaction');
    return row;
  }

  async insertAudit(tx: Tx, entry: NewAuditRow): Promise<void> {
    await tx.insert(adminAudit).values(entry);
  }

  /** Newest first; `actor` and `target` are each a uid or a part of the e-mail or name recorded. */
  async auditPage(options: { actor?: string | undefined; target?: string | undefined; offset: number; limit: number }) {
    const filter = (id: AnyPgColumn, label: AnyPgColumn, text: string | undefined) => {
      if (!text) return undefined;
      // An erased account's entries keep its id only in the label (the link to the row is gone).
      if (isUuid(text)) return or(eq(id, text.toLowerCase()), eq(label, text.toLowerCase()));
      return ilike(label, `%${escapeLike(text)}%`);
    };
    const where = and(
      filter(adminAudit.actorId, adminAudit.actorLabel, options.actor),
      filter(adminAudit.targetUserId, adminAudit.targetLabel, options.target),
    );
    const [total] = await this.db.select({ n: count() }).from(adminAudit).where(where);
    const rows = await this.db
      .select()
      .from(adminAudit)
      .where(where)
      .orderBy(desc(adminAudit.seq))
      .limit(options.limit)
      .offset(options.offset);
    return { total: total?.n ?? 0, rows };
  }

  async userFigures(since: Date) {
    const [row] = await this.db
      .select({
        total: count(),
        admins: sql<number>`count(*) filter (where ${users.isAdmin} and ${isNull(users.disabledAt)})::int`,
        disabled: sql<number>`count(*) filter (where ${isNotNull(users.disabledAt)})::int`,
        newSince: sql<number>`count(*) filter (where ${gte(users.createdAt, since)})::int`,
      })
      .from(users);
    return {
      total: row?.total ?? 0,
      admins: Number(row?.admins ?? 0),
      disabled: Number(row?.disabled ?? 0),
      newSince: Number(row?.newSince ?? 0),
    };
  }

  /** Bytes and files kept in the blob store for versions and attachments (reservations included). */
  async storageFigures(): Promise<{ bytes: number; files: number }> {
    const [row] = await this.db
      .select({ bytes: sql<string>`coalesce(sum(${versions.fileSize}), 0)`, files: count() })
      .from(versions);
    return { bytes: Number(row?.bytes ?? 0), files: row?.files ?? 0 };
  }
}
