import type { BillingSubscription, EntitlementsSummary } from '@mixroom/contracts';
import {
  creditPeriod,
  isGrantActive,
  isTrialSubscription,
  mergePlans,
  PLAN_SKUS,
  storageLimitBytes,
  type PlanLimits,
  type PlanSku,
} from '@mixroom/shared';
import type { Clock } from '../platform/clock/clock';
import {
  usageParams,
  type EntitlementsRepository,
  type GrantFact,
  type SubscriptionRow,
  type UsageColumns,
  type UsageFacts,
} from './entitlements.repository';

/** What a user may do: the merged plan of the grants in force, the admin flags and the trial. */
export interface Entitlement {
  userId: string;
  /** Plans in force besides Free, which everyone holds. */
  skus: PlanSku[];
  limits: PlanLimits;
  isAdmin: boolean;
  canBroadcast: boolean;
  trial: { sku: PlanSku; startsAt: Date; endsAt: Date | null } | null;
}

/** How a server hands out plans, for the settings screen: by an administrator, or at a shop. */
export interface BillingInfo {
  provider: 'admin' | 'shop';
  shopUrl: string | null;
}

const isPlanSku = (sku: string): sku is PlanSku => (PLAN_SKUS as readonly string[]).includes(sku);

/** The first moment of the calendar month (UTC) after `now`. */
export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/**
 * The one answer to "what may this user do, and how much is left?" that every module asks: limits
 * come from the merged plan of the user's grants in force at the clock's now (max of each limit,
 * unlimited wins, flags OR-ed, never below Free), usage from the user's own rows.
 */
export class Entitlements {
  constructor(
    private readonly facts: EntitlementsRepository,
    private readonly clock: Clock,
    private readonly billing: BillingInfo = { provider: 'admin', shopUrl: null },
  ) {}

  /** Subscriptions read by `of`, kept with the entitlement they made, so `summary` reads them once. */
  private readonly subscriptionsRead = new WeakMap<Entitlement, SubscriptionRow[]>();

  /**
   * The user's entitlement. A caller that holds the user's row and plan grants already (`/api/me`)
   * passes them as `known`, and one that read the subscriptions passes them too.
   */
  async of(
    userId: string,
    known?: { flags: { isAdmin: boolean; canBroadcast: boolean }; grants: GrantFact[] },
    subscriptionsRead?: SubscriptionRow[],
  ): Promise<Entitlement> {
    const now = this.clock.now();
    const [flags, grants, subscriptions] = await Promise.all([
      known ? known.flags : this.facts.flags(userId),
      known ? known.grants : this.facts.grants(userId),
      subscriptionsRead ?? this.facts.subscriptions(userId),
    ]);
    const skus = [...new Set(grants.filter((g) => isGrantActive(g, now)).map((g) => g.sku))].filter(isPlanSku);
    const trial = subscriptions.find((s) => this.runs(s, now) && this.isTrial(s, now));
    const entitlement: Entitlement = {
      userId,
      skus,
      limits: mergePlans(skus),
      isAdmin: flags?.isAdmin ?? false,
      canBroadcast: flags?.canBroadcast ?? false,
      trial: trial && isPlanSku(trial.sku) ? { sku: trial.sku, startsAt: trial.startsAt, endsAt: trial.endsAt } : null,
    };
    this.subscriptionsRead.set(entitlement, subscriptions);
    return entitlement;
  }

  /**
   * What reads this month's usage (`summary`'s figures) within a caller's own statement: the columns
   * (the same object every time) and the values of their placeholders now.
   */
  usageQuery(userId: string): { columns: UsageColumns; params: Record<string, unknown> } {
    const now = this.clock.now();
    return { columns: this.facts.usageColumns, params: usageParams(userId, monthStart(now), creditPeriod(now)) };
  }

  /**
   * The entitlement of a caller that read the usage already: subscriptions are read only when the
   * usage says there are any (most users have none).
   */
  async withUsage(
    userId: string,
    known: { flags: { isAdmin: boolean; canBroadcast: boolean }; grants: GrantFact[] },
    usage: UsageFacts,
  ): Promise<Entitlement> {
    const subscriptions = usage.hasSubscriptions ? await this.facts.subscriptions(userId) : [];
    return this.of(userId, known, subscriptions);
  }

  /** The merged limits alone (what quota checks need). */
  async limits(userId: string): Promise<PlanLimits> {
    return (await this.of(userId)).limits;
  }

  /** Bytes the user may store; capped to a safe integer so "unlimited" still compares and serialises. */
  async storageLimitBytes(userId: string): Promise<number> {
    return Math.min(Number.MAX_SAFE_INTEGER, storageLimitBytes(await this.limits(userId)));
  }

  async storageUsedBytes(userId: string): Promise<number> {
    return (await this.facts.storageUse(userId)).reduce((total, use) => total + use.bytes, 0);
  }

  /** Transfers sent in the current calendar month (UTC), the period the monthly transfer limit counts. */
  transfersThisMonth(userId: string): Promise<number> {
    return this.facts.transfersSince(userId, monthStart(this.clock.now()));
  }

  /** Minutes of live sessions hosted this calendar month (UTC), counted by the live module minute by minute. */
  async liveMinutesThisMonth(userId: string): Promise<number> {
    return Math.floor((await this.facts.liveMsIn(userId, creditPeriod(this.clock.now()))) / 60_000);
  }

  creditBalance(userId: string): Promise<number> {
    return this.facts.creditBalance(userId);
  }

  /** Whether the user pays for a subscription that still renews (account deletion waits for it to end). */
  hasRunningPaidSubscription(userId: string): Promise<boolean> {
    return this.facts.hasRunningPaidSubscription(userId, this.clock.now());
  }

  /**
   * Usage and what is left, as the signed-in user sees it (the settings screen). `known` is the
   * entitlement the caller made a moment ago (`of`), `usage` what `withUsage` read with it.
   */
  async summary(userId: string, known?: Entitlement, usage?: UsageFacts): Promise<EntitlementsSummary> {
    const now = this.clock.now();
    const entitlement = known ?? (await this.of(userId));
    const facts = usage ?? (await this.facts.usage(userId, monthStart(now), creditPeriod(now)));
    const subscriptions = this.subscriptionsRead.get(entitlement) ?? (await this.facts.subscriptions(userId));
    const limit = storageLimitBytes(entitlement.limits);
    return {
      trial: entitlement.trial
        ? {
            sku: entitlement.trial.sku,
            startsAt: entitlement.trial.startsAt.toISOString(),
            endsAt: entitlement.trial.endsAt?.toISOString() ?? null,
          }
        : null,
      storage: {
        usedBytes: facts.storage.reduce((total, use) => total + use.bytes, 0),
        limitBytes: Number.isFinite(limit) ? limit : null,
        breakdown: facts.storage.filter((use) => use.bytes > 0),
      },
      transfersThisMonth: facts.transfers,
      liveMinutesThisMonth: Math.floor(facts.liveMs / 60_000),
      credits: {
        balance: facts.balance,
        perMonth: entitlement.limits.creditsPerMonth,
        renewsAt: nextMonthStart(now).toISOString(),
      },
      subscriptions: subscriptions.map((s) => this.present(s, now)),
      billing: this.billing,
    };
  }

  /** The calendar month monthly credits are given for now. */
  creditPeriod(): string {
    return creditPeriod(this.clock.now());
  }

  private runs(subscription: SubscriptionRow, now: Date): boolean {
    return subscription.status !== 'expired' && isGrantActive(subscription, now);
  }

  /** Flagged by the shop, or by shape: a long subscription still within its first days. */
  private isTrial(subscription: SubscriptionRow, now: Date): boolean {
    return subscription.trial || isTrialSubscription(subscription, now);
  }

  private present(s: SubscriptionRow, now: Date): BillingSubscription {
    return {
      id: s.id,
      sku: isPlanSku(s.sku) ? s.sku : 'FREE',
      shopSku: s.shopSku,
      interval: s.interval,
      status: s.status === 'active' && !this.runs(s, now) ? 'expired' : s.status,
      trial: this.isTrial(s, now),
      startsAt: s.startsAt.toISOString(),
      endsAt: s.endsAt?.toISOString() ?? null,
      manageUrl: s.manageUrl,
    };
  }
}
