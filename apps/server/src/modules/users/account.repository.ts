import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql, type Placeholder } from 'drizzle-orm';
import { presentUsage, type UsageColumns, type UsageFacts } from '../../access/entitlements.repository';
import type { Db, Tx } from '../../db/database';
import { adminAudit, dataExports, emailChanges, notificationPreferences, planGrants, users } from '../../db/schema';

export type DataExportRow = typeof dataExports.$inferSelect;
export interface Preferences {
  email: boolean;
  push: boolean;
  inApp: boolean;
}
export const DEFAULT_PREFERENCES: Preferences = { email: true, push: true, inApp: true };
/** The newest address change of the user still waiting for confirmation at `now`. */
function pendingEmailQuery(db: Db, userId: string | Placeholder, now: Date | Placeholder) {
  return db
    .select({ email: emailChanges.newEmail })
    .from(emailChanges)
    .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, now)))
    .orderBy(desc(emailChanges.createdAt))
    .limit(1);
}

function prepareFactsRead(db: Db, usage: UsageColumns) {
  const userId = sql.placeholder('facts_user');
  const pending = pendingEmailQuery(db, userId, sql.placeholder('facts_now'));
  return db
    .select({
      email: notificationPreferences.email,
      push: notificationPreferences.push,
      inApp: notificationPreferences.inApp,
      pendingEmail: sql<string | null>`(${pending})`,
      // Most accounts hold no plan grant: told here, their grants need no read of their own.
      hasGrants: sql<boolean>`exists(${db.select({ id: planGrants.id }).from(planGrants).where(eq(planGrants.userId, userId))})`,
      ...usage,
    })
    .from(users)
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(eq(users.id, userId))
    .prepare('account_facts');
}

export interface AccountFacts {
  pendingEmail: string | null;
  preferences: Preferences;
  hasGrants: boolean;
  usage: UsageFacts;
}

/** The signed-in user's own account data: profile, e-mail changes, preferences, exports, deletion. */
export class AccountRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async setDisplayName(userId: string, displayName: string, now: Date): Promise<void> {
    await this.db.update(users).set({ displayName, updatedAt: now }).where(eq(users.id, userId));
  }

  /** Sets (or clears) the picture; answers the key it replaced, so its blob can go. */
  async setPhoto(userId: string, photo: { key: string; url: string } | null, now: Date): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx.select({ key: users.photoKey }).from(users).where(eq(users.id, userId)).for('update');
      await tx
        .update(users)
        .set({ photoKey: photo?.key ?? null, photoUrl: photo?.url ?? null, updatedAt: now })
        .where(eq(users.id, userId));
      return before?.key ?? null;
    });
  }

  /** The blob key of a picture still in use, by the id in its URL; null for one replaced or unknown. */
  async photoKeyOf(photoId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ key: users.photoKey })
      .from(users)
      .where(and(eq(users.photoKey, `avatars/${photoId}.jpg`), isNull(users.deletionRequestedAt)));
    return row?.key ?? null;
  }

  async preferences(userId: string): Promise<Preferences> {
    const [row] = await this.db
      .select({
        email: notificationPreferences.email,
        push: notificationPreferences.push,
        inApp: notificationPreferences.inApp,
      })
      .from(notificationPreferences)
      .where(eq(notificationPreferences.userId, userId));
    return row ?? DEFAULT_PREFERENCES;
  }

  /** Preferences of many users at once (users without a row hear everything). */
  async preferencesOf(userIds: string[], db: Db | Tx = this.db): Promise<Map<string, Preferences>> {
    const found = new Map<string, Preferences>();
    if (userIds.length === 0) return found;
    const rows = await db
      .select()
      .from(notificationPreferences)
      .where(inArray(notificationPreferences.userId, userIds));
    for (const row of rows) found.set(row.userId, { email: row.email, push: row.push, inApp: row.inApp });
    return found;
  }

  /** Addresses and names of users (deleted or deleting accounts hear nothing). */
  async contactsOf(userIds: string[], db: Db | Tx = this.db) {
    if (userIds.length === 0) return [];
    return db
      .select({ id: users.id, email: users.email, displayName: users.displayName })
      .from(users)
      .where(and(inArray(users.id, userIds), isNull(users.deletionRequestedAt)));
  }

  /** The preferences of the account behind an address, or null when no account has it. */
  async preferencesByEmail(email: string): Promise<Preferences | null> {
    const [row] = await this.db
      .select({
        email: notificationPreferences.email,
        push: notificationPreferences.push,
        inApp: notificationPreferences.inApp,
        id: users.id,
      })
      .from(users)
      .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
      .where(sql`lower(${users.email}) = lower(${email})`);
    if (!row) return null;
    return { email: row.email ?? true, push: row.push ?? true, inApp: row.inApp ?? true };
  }

  async setPreferences(userId: string, preferences: Preferences, now: Date): Promise<void> {
    await this.db
      .insert(notificationPreferences)
      .values({ userId, ...preferences, updatedAt: now })
      .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...preferences, updatedAt: now } });
  }

  async createEmailChange(values: { tokenHash: string; userId: string; newEmail: string; expiresAt: Date; now: Date }) {
    await this.db.transaction(async (tx) => {
      // One pending change at a time: an older link stops working when a newer address is asked for.
      await tx
        .update(emailChanges)
        .set({ usedAt: values.now })
        .where(and(eq(emailChanges.userId, values.userId), isNull(emailChanges.usedAt)));
      await tx.insert(emailChanges).values({
        tokenHash: values.tokenHash,
        userId: values.userId,
        newEmail: values.newEmail,
        expiresAt: values.expiresAt,
        createdAt: values.now,
      });
    });
  }

  /**
   * What `/api/me` tells beside the user row, in one round trip: the address change waiting for
   * confirmation, the notification choices, whether the user holds any plan grant, and the month's
   * usage through the entitlements' columns.
   */
  async accountFacts(
    userId: string,
    now: Date,
    usage: { columns: UsageColumns; params: Record<string, unknown> },
  ): Promise<AccountFacts> {
    let read = this.factsReads.get(usage.columns);
    if (!read) {
      read = prepareFactsRead(this.db, usage.columns);
      this.factsReads.set(usage.columns, read);
    }
    const [row] = await read.execute({ facts_user: userId, facts_now: now, ...usage.params });
    const chosen = row && row.email !== null && row.push !== null && row.inApp !== null;
    return {
      pendingEmail: row?.pendingEmail ?? null,
      preferences: chosen ? { email: row.email!, push: row.push!, inApp: row.inApp! } : DEFAULT_PREFERENCES,
      hasGrants: row?.hasGrants ?? false,
      usage: presentUsage(row),
    };
  }

  /** `accountFacts`' statement, built once per set of usage columns (building costs more than running it). */
  private readonly factsReads = new WeakMap<UsageColumns, ReturnType<typeof prepareFactsRead>>();

  async pendingEmail(userId: string, now: Date): Promise<string | null> {
    const [row] = await pendingEmailQuery(this.db, userId, now);
    return row?.email ?? null;
  }

  /**
   * Uses a valid token and moves the account to its new address in one transaction; answers the
   * old and new addresses, or null for a token that is unknown, used or expired.
   * The unique index on e-mails refuses an address another account took meanwhile (23505).
   */
  async confirmEmailChange(
    tokenHash: string,
    now: Date,
  ): Promise<{ userId: string; oldEmail: string; newEmail: string; displayName: string } | null> {
    return this.db.transaction(async (tx) => {
      const [change] = await tx
        .update(emailChanges)
        .set({ usedAt: now })
        .where(and(eq(emailChanges.tokenHash, tokenHash), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, now)))
        .returning();
      if (!change) return null;
      const [user] = await tx
        .select({ email: users.email, displayName: users.displayName })
        .from(users)
        .where(and(eq(users.id, change.userId), isNull(users.deletionRequestedAt)))
        .for('update');
      if (!user) return null;
      await tx.update(users).set({ email: change.newEmail, updatedAt: now }).where(eq(users.id, change.userId));
      return { userId: change.userId, oldEmail: user.email, newEmail: change.newEmail, displayName: user.displayName };
    });
  }

  async exportsOf(userId: string, limit = 5): Promise<DataExportRow[]> {
    return this.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.userId, userId))
      .orderBy(desc(dataExports.createdAt))
      .limit(limit);
  }

  async findExport(id: string): Promise<DataExportRow | null> {
    const [row] = await this.db.select().from(dataExports).where(eq(dataExports.id, id));
    return row ?? null;
  }

  /** A queued or running export of the user, if any (one at a time). */
  async activeExport(userId: string, tx: Tx): Promise<DataExportRow | null> {
    const [row] = await tx
      .select()
      .from(dataExports)
      .where(and(eq(dataExports.userId, userId), inArray(dataExports.status, ['queued', 'running'])))
      .limit(1);
    return row ?? null;
  }

  async insertExport(tx: Tx, userId: string, now: Date): Promise<DataExportRow> {
    const [row] = await tx.insert(dataExports).values({ userId, createdAt: now }).returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  async updateExport(
    id: string,
    values: Partial<typeof dataExports.$inferInsert>,
    db: Db | Tx = this.db,
  ): Promise<void> {
    await db.update(dataExports).set(values).where(eq(dataExports.id, id));
  }

  /** Archives past their expiry that still hold a blob. */
  async expiredExports(now: Date): Promise<DataExportRow[]> {
    return this.db
      .select()
      .from(dataExports)
      .where(and(isNotNull(dataExports.blobKey), lt(dataExports.expiresAt, now)))
      .limit(500);
  }

  /** Marks the account for deletion; false when it is already marked or gone. */
  async markForDeletion(tx: Tx, userId: string, now: Date): Promise<boolean> {
    const rows = await tx
      .update(users)
      .set({ deletionRequestedAt: now })
      .where(and(eq(users.id, userId), isNull(users.deletionRequestedAt)))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  /** Accounts whose deletion was asked for before `before` and has not finished (a job that gave up). */
  async unfinishedDeletions(before: Date): Promise<string[]> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(isNotNull(users.deletionRequestedAt), lt(users.deletionRequestedAt, before)))
      .limit(100);
    return rows.map((r) => r.id);
  }

  async userForErasure(
    userId: string,
  ): Promise<{ id: string; email: string; displayName: string; photoKey: string | null } | null> {
    const [row] = await this.db
      .select({ id: users.id, email: users.email, displayName: users.displayName, photoKey: users.photoKey })
      .from(users)
      .where(and(eq(users.id, userId), isNotNull(users.deletionRequestedAt)));
    return row ?? null;
  }

  /**
   * The operator's record of a self-deletion: the account's id and a note, never its e-mail or
   * name. The id is kept in the labels too, since the row's links to the user go with it.
   */
  async recordDeletionAudit(tx: Tx, userId: string, at: Date, after: Record<string, unknown>): Promise<void> {
    await tx.insert(adminAudit).values({
      at,
      actorId: userId,
      actorLabel: userId,
      targetUserId: userId,
      targetLabel: userId,
      action: 'account.deleted',
      before: null,
      after,
    });
  }

  /** Earlier audit entries about the account keep its id in place of its e-mail, once it is erased. */
  async pseudonymizeAudit(tx: Tx, userId: string): Promise<void> {
    await tx.update(adminAudit).set({ actorLabel: userId }).where(eq(adminAudit.actorId, userId));
    await tx.update(adminAudit).set({ targetLabel: userId }).where(eq(adminAudit.targetUserId, userId));
  }

  async deleteUser(tx: Tx, userId: string): Promise<void> {
    await tx.delete(users).where(eq(users.id, userId));
  }

  /** Whether an address belongs to another account already. */
  async emailTaken(email: string, exceptUserId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = lower(${email})`, or(sql`${users.id} <> ${exceptUserId}`)));
    return row !== undefined;
  }
}
