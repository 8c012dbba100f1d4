import { PLANS, type PlanLimits, type PlanSku } from '@mixroom/shared';

/** What decides whether a user may broadcast. */
export interface BroadcastFacts {
  /** Set by an administrator. */
  canBroadcast: boolean;
  skus: PlanSku[];
  limits: PlanLimits;
  /** A paid subscription that runs now (not a trial, not lapsed). */
  paidSubscription: boolean;
}

export interface BroadcastAllowance {
  /** The Broadcaster card is shown (and the room API answers). */
  allowed: boolean;
  /** It may go live now; when false, the card says why and leads to /settings. */
  ready: boolean;
}

/**
 * Broadcasting is allowed by an administrator's canBroadcast or by a plan with the broadcast right.
 * A broadcast that rests only on the Live Premium plan also needs a paid subscription that runs now
 * (an administrator's flag stands on its own).
 */
export function broadcastAllowance(facts: BroadcastFacts): BroadcastAllowance {
  if (facts.canBroadcast) return { allowed: true, ready: true };
  if (!facts.limits.liveBroadcast) return { allowed: false, ready: false };
  const otherPlan = facts.skus.some((sku) => sku !== 'LIVE_PREMIUM' && PLANS[sku].limits.liveBroadcast);
  if (otherPlan || !facts.skus.includes('LIVE_PREMIUM')) return { allowed: true, ready: true };
  return { allowed: true, ready: facts.paidSubscription };
}
