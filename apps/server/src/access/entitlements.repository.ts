import { and, desc, eq, gt, gte, isNotNull, isNull, or, sql, sum, type Placeholder, type SQL } from 'drizzle-orm';
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
export type UsageFacts = {
  storage: StorageUse[];
  transfers: number;
  liveMs: number;
  balance: number;
  hasSubscriptions: boolean;
};
type StorageUseRow = { kind: StorageUse['kind']; bytes: number | string | null };
export type UsageColumns = {
  storage: SQL<StorageUseRow[]>;
  transfers: SQL<number | string | null>;
  liveMs: SQL<number | string | null>;
  balance: SQL<number | string | null>;
  hasSubscriptions: SQL<boolean>;
};
/** The placeholders of `usageColumns`, named apart from any a caller's own columns use. */
const USAGE_PARAMS = { userId: 'usage_user', since: 'usage_since', period: 'usage_period' } as const;

/** Values for the placeholders of `usageColumns`. */
export function usageParams(userId: string, since: Date, period: string): Record<string, unknown> {
  return { [USAGE_PARAMS.userId]: userId, [USAGE_PARAMS.since]: since, [USAGE_PARAMS.period]: period };
}

/** What `usageColumns` select, as the driver returns them. */
export type UsageRow = { [K in keyof UsageColumns]: UsageColumns[K] extends SQL<infer T> ? T : never };

/** Kinds with their byte counts as numbers (sums arrive as text or JSON numbers), largest first. */
function presentStorageUse(rows: StorageUseRow[]): StorageUse[] {
  return rows.map((r) => ({ kind: r.kind, bytes: Number(r.bytes ?? 0) })).sort((a, b) => b.bytes - a.bytes);
}

/** The usage a row of `usageColumns` holds (no row: a user with nothing counted). */
export function presentUsage(row: UsageRow | undefined): UsageFacts {
  return {
    storage: presentStorageUse(row?.storage ?? []),
    transfers: Number(row?.transfers ?? 0),
    liveMs: Number(row?.liveMs ?? 0),
    balance: Number(row?.balance ?? 0),
    hasSubscriptions: row?.hasSubscriptions ?? false,
  };
}

function prepareUsageRead(db: Db, columns: UsageColumns) {
  return db
    .select(columns)
    .from(users)
    .where(eq(users.id, sql.placeholder(USAGE_PARAMS.userId)))
    .prepare('entitlements_usage');
}

/** The facts entitlements are made of: a user's flags, plan grants, subscriptions and usage. */
export class EntitlementsRepository {
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
    return presentStorageUse(await this.storageUseQuery(userId));
  }

  private storageUseQuery(userId: string | Placeholder) {
    const kind = sql<StorageUse['kind']>`case
      when ${uploadingByOther} then 'incoming'
      when ${projects.mode} = 'TRANSFER' then 'transfers'
      when ${projects.deletedAt} is not null or ${projects.flag} in ('DELETE', 'DELETING') then 'trash'
      when ${projects.parentProjectId} is not null then 'attachments'
      else 'projects' end`;
    return this.db
      .select({ kind: kind.as('kind'), bytes: sum(quotaBytes).as('bytes') })
      .from(versions)
      .innerJoin(projects, eq(projects.id, versions.projectId))
      .where(eq(projects.publisherId, userId))
      .groupBy(kind);
  }

  /**
   * What the account screen counts, as the columns of one statement instead of five reads (it is
   * read on every visit of the app): storage by kind, transfers since `since`, live time in
   * `period`, the credit balance, and whether the user has subscriptions at all (most have none,
   * and then they need no read). Selected from the user's row, here or beside a module's own columns,
   * with the values of `usageParams` for its placeholders. The same object every time, so a caller
   * may prepare its statement once.
   */
  readonly usageColumns: UsageColumns;
  /** Built once: building a statement this size costs more than running it. */
  private readonly usageRead: ReturnType<typeof prepareUsageRead>;

  constructor(private readonly db: Db) {
    this.usageColumns = this.buildUsageColumns();
    this.usageRead = prepareUsageRead(db, this.usageColumns);
  }

  private buildUsageColumns(): UsageColumns {
    const userId = sql.placeholder(USAGE_PARAMS.userId);
    const storage = this.storageUseQuery(userId).as('storage');
    return {
      storage: sql<
        StorageUseRow[]
      >`(select coalesce(json_agg(json_build_object('kind', ${storage.kind}, 'bytes', ${storage.bytes})), '[]'::json) from ${storage})`,
      transfers: sql<
        number | string | null
      >`(${this.transfersSinceQuery(userId, sql.placeholder(USAGE_PARAMS.since))})`,
      liveMs: sql<number | string | null>`(${this.liveMsQuery(userId, sql.placeholder(USAGE_PARAMS.period))})`,
      balance: sql<number | string | null>`(${this.balanceQuery(userId)})`,
      hasSubscriptions: sql<boolean>`exists(${this.db
        .select({ id: billingSubscriptions.id })
        .from(billingSubscriptions)
        .where(eq(billingSubscriptions.userId, userId))})`,
    };
  }

  async usage(userId: string, since: Date, period: string): Promise<UsageFacts> {
    const [row] = await this.usageRead.execute(usageParams(userId, since, period));
    return presentUsage(row);
  }

  /** Live time a host used in one calendar month (`YYYY-MM`), in ms, as the live module counts it. */
  async liveMsIn(userId: string, period: string): Promise<number> {
    const [row] = await this.liveMsQuery(userId, period);
    return row?.ms ?? 0;
  }

  private liveMsQuery(userId: string | Placeholder, period: string | Placeholder) {
    return this.db
      .select({ ms: liveUsage.ms })
      .from(liveUsage)
      .where(and(eq(liveUsage.userId, userId), eq(liveUsage.period, period)));
  }

  /**
   * Transfers the user sent since `since` (transfers are kept as folders of the TRANSFER area). One
   * received through a file request counts once it is complete (sent), not when a stranger starts it:
   * starts that never upload must not use up the owner's month.
   */
  async transfersSince(userId: string, since: Date): Promise<number> {
    const [row] = await this.transfersSinceQuery(userId, since);
    return Number(row?.n ?? 0);
  }

  private transfersSinceQuery(userId: string | Placeholder, since: Date | Placeholder) {
    return this.db
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
  }

  async creditBalance(userId: string): Promise<number> {
    const [row] = await this.balanceQuery(userId);
    return row?.balance ?? 0;
  }

  private balanceQuery(userId: string | Placeholder) {
    return this.db
      .select({ balance: creditBalances.balance })
      .from(creditBalances)
      .where(eq(creditBalances.userId, userId));
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
