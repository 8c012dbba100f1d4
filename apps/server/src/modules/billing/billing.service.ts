import { billingEvent, EVENT_TYPES, type BillingEvent } from '@mixroom/contracts';
import {
  EARLY_ACCESS_SKUS,
  freeTrialWindow,
  isEarlyAccessSku,
  isEarlyAccessValid,
  PLAN_SKUS,
  scanInput,
  type PlanSku,
} from '@mixroom/shared';
import type { Tx } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { BillingProvider, ShopNotification } from './billing-provider';
import type { BillingRepository, SubscriptionRow } from './billing.repository';
import { verifySignature } from './webhook-signature';

interface ShopDeps {
  repository: BillingRepository;
  clock: Clock;
  bus: EventBus;
  secret: string;
  shopUrl: string | null;
}

type Applied = { outcome: string; userId: string | null };

const ignored = (reason: string): Applied => ({ outcome: `ignored: ${reason}`, userId: null });

function plus(date: Date, interval: 'month' | 'year'): Date {
  const next = new Date(date);
  if (interval === 'year') next.setUTCFullYear(next.getUTCFullYear() + 1);
  else next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/** The plan a shop sku grants at `now`, or why it grants none. */
function planOf(shopSku: string, now: Date): { sku: PlanSku; until: Date | null } | { refused: string } {
  if (isEarlyAccessSku(shopSku)) {
    const { grants, validUntil } = EARLY_ACCESS_SKUS[shopSku];
    if (!isEarlyAccessValid(shopSku, now)) return { refused: `${shopSku} was valid until ${validUntil.slice(0, 10)}` };
    return { sku: grants, until: new Date(validUntil) };
  }
  const sku = PLAN_SKUS.find((s) => s === shopSku);
  if (!sku || sku === 'FREE') return { refused: `unknown sku ${shopSku}` };
  return { sku, until: null };
}

/**
 * The shop provider: the shop signs each subscription event; each event id is applied once, in the
 * same transaction that records it, and turns into the plan grant of the subscription.
 */
export class ShopWebhookService {
  constructor(private readonly deps: ShopDeps) {}

  provider(): BillingProvider {
    return {
      info: { provider: 'shop', shopUrl: this.deps.shopUrl },
      receive: (notification) => this.receive(notification),
    };
  }

  async receive({ rawBody, signature }: ShopNotification): Promise<{ outcome: string }> {
    const now = this.deps.clock.now();
    const check = verifySignature(signature, rawBody, this.deps.secret, now);
    if (!check.ok) throw new AppError(401, 'BAD_SIGNATURE', check.message);
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      throw AppError.badRequest('The event is not valid JSON.');
    }
    // The body is parsed here, after the signature, so the request's input check never saw its strings.
    const issue = scanInput(json, 'event', false);
    if (issue)
      throw new AppError(400, 'VALIDATION', `The event is not one Mixroom understands: ${issue.message}`, [issue]);
    const parsed = billingEvent.safeParse(json);
    if (!parsed.success)
      throw AppError.badRequest(
        `The event is not one Mixroom understands: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
      );
    const event = parsed.data;
    const applied = await this.deps.repository.transaction(async (tx) => {
      if (
        !(await this.deps.repository.recordEvent(tx, { id: event.id, type: event.type, outcome: 'applying', at: now }))
      ) {
        return { outcome: 'duplicate', userId: null };
      }
      const result = await this.apply(tx, event, now);
      await this.deps.repository.setOutcome(tx, event.id, result.outcome);
      return result;
    });
    if (applied.userId)
      await this.deps.bus.publish({
        topic: `user:${applied.userId}`,
        type: EVENT_TYPES.userUpdated,
        data: { userId: applied.userId },
      });
    return { outcome: applied.outcome };
  }

  private async apply(tx: Tx, event: BillingEvent, now: Date): Promise<Applied> {
    const { data } = event;
    const existing = await this.deps.repository.lockSubscription(tx, data.subscriptionId);
    const userId = existing?.userId ?? (await this.deps.repository.findUser(tx, data));
    if (!userId) return ignored('no such user');
    if (event.type === 'subscription.cancelled' || event.type === 'subscription.expired') {
      if (!existing) return ignored('no such subscription');
      return this.end(tx, existing, event, now);
    }
    const plan = planOf(data.sku, now);
    if ('refused' in plan) return ignored(plan.refused);
    let startsAt: Date;
    let endsAt: Date;
    if (event.type === 'subscription.renewed' && existing) {
      // A renewal extends the paid period from where it ended (or from now, after a lapse).
      startsAt = existing.startsAt;
      const from = existing.endsAt && existing.endsAt > now ? existing.endsAt : now;
      endsAt = data.endsAt ? new Date(data.endsAt) : plus(from, data.interval);
    } else if (data.trial && !data.startsAt && !data.endsAt) {
      ({ startsAt, endsAt } = freeTrialWindow(now));
    } else {
      startsAt = data.startsAt ? new Date(data.startsAt) : now;
      endsAt = data.endsAt ? new Date(data.endsAt) : plus(startsAt, data.interval);
    }
    // An early-access sku grants nothing past its expiry date.
    if (plan.until && endsAt > plan.until) endsAt = plan.until;
    await this.deps.repository.saveSubscription(
      tx,
      existing,
      {
        externalId: data.subscriptionId,
        userId,
        shopSku: data.sku,
        sku: plan.sku,
        interval: data.interval,
        status: 'active',
        trial: data.trial,
        startsAt,
        endsAt,
        manageUrl: data.manageUrl ?? existing?.manageUrl ?? null,
      },
      now,
    );
    return { outcome: existing ? 'renewed' : 'created', userId };
  }

  /**
   * Cancelled: the plan stays until the end of the period paid for (what shops promise), or ends now
   * when there is no end. Expired: the plan ends now.
   */
  private async end(tx: Tx, existing: SubscriptionRow, event: BillingEvent, now: Date): Promise<Applied> {
    const cancelled = event.type === 'subscription.cancelled';
    const requested = event.data.endsAt ? new Date(event.data.endsAt) : null;
    let endsAt: Date;
    if (cancelled) endsAt = requested ?? existing.endsAt ?? now;
    else endsAt = requested && requested < now ? requested : now;
    if (existing.endsAt && endsAt > existing.endsAt) endsAt = existing.endsAt;
    await this.deps.repository.saveSubscription(
      tx,
      existing,
      {
        externalId: existing.externalId,
        userId: existing.userId,
        shopSku: existing.shopSku,
        sku: existing.sku,
        interval: existing.interval,
        status: cancelled ? 'cancelled' : 'expired',
        trial: existing.trial,
        startsAt: existing.startsAt,
        endsAt,
        manageUrl: event.data.manageUrl ?? existing.manageUrl,
      },
      now,
    );
    return { outcome: cancelled ? 'cancelled' : 'expired', userId: existing.userId };
  }
}
