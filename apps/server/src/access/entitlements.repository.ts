import { and, desc, eq, gt, gte, isNotNull, isNull, or, sql, sum } from 'drizzle-orm';
import type { Db } from '../db/database';
import { quotaBytes, uploadingByOther } from '../db/quota';
import {
  billingSubscriptions,
  creditBalances,
  groups,
  liveUsage,
  planGrants,
  projects,
  transfers,
  users,
  versions,
} from '../db/schema';

export type StorageUse = { kind: 'projects' | 'attachments' | 'trash' | 'transfers' | 'incoming'; bytes: number };
export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
export type GrantFact = { sku: string; startsAt: Date; endsAt: Date | null };

/** The facts entitlements are made of: a user's flags, plan grants, subscriptions and usage. */
export class EntitlementsRepository {
  constructor(private readonly db: Db) {}

  async flags(userId: string): Promise<{ isAdmin: boolean; canBroadcast: boolean } | null> {
    const [row] = await this.db
      .select({ isAdmin: users.isAdmin, canBroadcast: users.canBroadcast })
      .from(users)
      .where(eq(users.id, userId));
    return row ?? null;
  }

  grants(userId: string): Promise<GrantFact[]> {
    return this.db
      .select({ sku: planGrants.sku, startsAt: planGrants.startsAt, endsAt: planGrants.endsAt })
      .from(planGrants)
      .where(eq(planGrants.userId, userId));
  }

  subscriptions(userId: string): Promise<SubscriptionRow[]> {
    return this.db
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.userId, userId))
      .orderBy(desc(billingSubscriptions.startsAt));
  }

  /**
   * Bytes the user's files take, by what they are. The total is what the quota counts (every version
   * of every project the user publishes, reservations of running uploads included). Uploads others
   * are sending into it (collaborators, file request links) show apart, at what they hold so far.
   */
  async storageUse(userId: string): Promise<StorageUse[]> {
    const kind = sql<StorageUse['kind']>`case
      when ${uploadingByOther} then 'incoming'
      when ${projects.mode} = 'TRANSFER' then 'transfers'
      when ${projects.deletedAt} is not null or ${projects.flag} in ('DELETE', 'DELETING') then 'trash'
      when ${projects.parentProjectId} is not null then 'attachments'
      else 'projects' end`;
    const rows = await this.db
      .select({ kind, bytes: sum(quotaBytes) })
      .from(versions)
      .innerJoin(projects, eq(projects.id, versions.projectId))
      .where(eq(projects.publisherId, userId))
      .groupBy(kind);
    return rows.map((r) => ({ kind: r.kind, bytes: Number(r.bytes ?? 0) })).sort((a, b) => b.bytes - a.bytes);
  }

  /**
   * Transfers the user sent since `since` (transfers are kept as folders of the TRANSFER area). One
   * received through a file request counts once it is complete (sent), not when a stranger starts it:
   * starts that never upload must not use up the owner's month.
   */
  /** Live time a host used in one calendar month (`YYYY-MM`), in ms, as the live module counts it. */
  async liveMsIn(userId: string, period: string): Promise<number> {
    const [row] = await this.db
      .select({ ms: liveUsage.ms })
      .from(liveUsage)
      .where(and(eq(liveUsage.userId, userId), eq(liveUsage.period, period)));
    return row?.ms ?? 0;
  }

  async transfersSince(userId: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(groups)
      .leftJoin(transfers, eq(transfers.groupId, groups.id))
      .where(
        and(
          eq(groups.publisherId, userId),
          eq(groups.mode, 'TRANSFER'),
          sql`${groups.parentId} is null`,
          or(
            and(isNull(transfers.requestId), gte(groups.createdAt, since)),
            and(isNotNull(transfers.requestId), gte(transfers.sentAt, since)),
          ),
        ),
      );
    return Number(row?.n ?? 0);
  }

  async creditBalance(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ balance: creditBalances.balance })
      .from(creditBalances)
      .where(eq(creditBalances.userId, userId));
    return row?.balance ?? 0;
  }

  /** Whether the user pays for a subscription that renews (active, not a trial, not past its end). */
  async hasRunningPaidSubscription(userId: string, now: Date): Promise<boolean> {
    const [row] = await this.db
      .select({ id: billingSubscriptions.id })
      .from(billingSubscriptions)
      .where(
        and(
          eq(billingSubscriptions.userId, userId),
          eq(billingSubscriptions.status, 'active'),
          eq(billingSubscriptions.trial, false),
          or(isNull(billingSubscriptions.endsAt), gt(billingSubscriptions.endsAt, now)),
        ),
      )
      .limit(1);
    return Boolean(row);
  }
}
