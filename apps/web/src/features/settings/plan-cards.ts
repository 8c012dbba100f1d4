import type { BillingSubscription, Me } from '@mixroom/contracts';
import { PLANS, type Plan, type PlanSku } from '@mixroom/shared';

export type BillingInterval = 'month' | 'year';

/** One card: the plan, whether the user holds it, and what its button does. */
export interface PlanCardModel {
  plan: Plan;
  active: boolean;
  /** Until when an active plan runs (null: no end). */
  activeUntil: string | null;
  subscription: BillingSubscription | null;
  /** Where Buy and Manage lead; null (a disabled button) for Free and when nothing is sold here. */
  buy: string | null;
  manage: string | null;
}

/** The price a card shows for the chosen interval, e.g. "€19.90" and "/ month". */
export function priceOf(plan: Plan, interval: BillingInterval): { amount: string; per: string } {
  if (plan.priceCents === 0) return { amount: '€0', per: 'free forever' };
  const cents = interval === 'year' ? plan.annualPriceCents : plan.priceCents;
  return { amount: `€${(cents / 100).toFixed(2)}`, per: interval === 'year' ? '/ year' : '/ month' };
}

function shopLink(shopUrl: string, sku: PlanSku, interval: BillingInterval): string {
  const url = new URL(shopUrl);
  url.searchParams.set('sku', sku);
  url.searchParams.set('interval', interval);
  return url.toString();
}

/**
 * The cards of the settings screen: Free, Essential, Studio and one Live card. The Live card is Live
 * Premium unless Live Basic is active without Premium, in which case Basic takes its place as the
 * active Live plan.
 */
export function planCards(me: Me, interval: BillingInterval): PlanCardModel[] {
  const activeGrants = me.plans.filter((p) => p.active);
  const holds = (sku: PlanSku) => activeGrants.some((g) => g.sku === sku);
  const live: PlanSku = holds('LIVE_BASIC') && !holds('LIVE_PREMIUM') ? 'LIVE_BASIC' : 'LIVE_PREMIUM';
  const { billing, subscriptions } = me.entitlements;
  const paidActive = activeGrants.length > 0;
  return (['FREE', 'ESSENTIAL', 'STUDIO', live] as const).map((sku) => {
    const plan = PLANS[sku];
    const subscription = subscriptions.find((s) => s.sku === sku && s.status !== 'expired') ?? null;
    const grants = activeGrants.filter((g) => g.sku === sku);
    const active = sku === 'FREE' ? !paidActive : grants.length > 0;
    const ends = grants.map((g) => g.endsAt);
    const activeUntil = ends.includes(null) ? null : (ends.sort().at(-1) ?? null);
    const shop = billing.provider === 'shop' ? billing.shopUrl : null;
    return {
      plan,
      active,
      activeUntil,
      subscription,
      buy: sku === 'FREE' || !shop ? null : shopLink(shop, sku, interval),
      manage: sku === 'FREE' ? null : (subscription?.manageUrl ?? shop),
    };
  });
}
