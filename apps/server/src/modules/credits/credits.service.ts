import { EVENT_TYPES, type CreditEntry, type CreditsResponse } from '@mixroom/contracts';
import { PLANS, type PlanSku } from '@mixroom/shared';
import { assertAdmin } from '../../access/admin.policy';
import { nextMonthStart, type Entitlement, type Entitlements } from '../../access/entitlements';
import { AppError } from '../../http/app-error';
import type { Tx } from '../../db/database';
import type { Actor } from '../../platform/identity/actor';
import type { Clock } from '../../platform/clock/clock';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { CreditsRepository, LedgerRow } from './credits.repository';

export type SpendResult =
  | { status: 'spent' | 'already-spent'; balance: number }
  /** Not enough credits: nothing was taken. */
  | { status: 'insufficient'; balance: number };

export type RefundResult = { status: 'refunded' | 'already-refunded'; balance: number };

const MONTHS_REMEMBERED = 100_000;

interface CreditsDeps {
  repository: CreditsRepository;
  entitlements: Entitlements;
  clock: Clock;
  bus: EventBus;
}

function present(row: LedgerRow): CreditEntry {
  return {
    id: row.id,
    seq: row.seq,
    kind: row.kind,
    amount: row.amount,
    reason: row.reason,
    ref: row.ref,
    at: row.at.toISOString(),
  };
}

function planName(skus: PlanSku[], perMonth: number): string {
  return PLANS[skus.find((sku) => PLANS[sku].limits.creditsPerMonth === perMonth) ?? 'FREE'].name;
}

/**
 * AI credits. Renewal: on each calendar month (UTC) a user is given the monthly credits of their
 * merged plan, once: by the daily job from the 1st, or earlier when the user's credits are first
 * read that month. A plan gained mid-month tops the month's grant up to the new plan's amount.
 * Unused credits carry over: they were given for the plan the user had, and the server's cost does
 * not grow with a balance that waits.
 */
export class CreditsService {
  constructor(private readonly deps: CreditsDeps) {}

  /**
   * The month's grant each user is known to hold (on this node), so a user's every read does not
   * ask the ledger again: what a month gave only grows (grants are append-only and once-only), so
   * a month known to be given up to an amount stays so. Another node's grant is simply not known
   * here, and the ledger is asked as before.
   */
  private readonly monthsGiven = new Map<string, { period: string; amount: number }>();

  /**
   * Gives `userId` this month's credits, or the top-up after a bigger plan; a no-op when done.
   * Resolves true when this call changed the balance.
   * `known` is the user's entitlement when the caller has just made it.
   */
  async ensureMonthlyGrant(userId: string, known?: Entitlement): Promise<boolean> {
    const now = this.deps.clock.now();
    const period = this.deps.entitlements.creditPeriod();
    const { limits, skus } = known ?? (await this.deps.entitlements.of(userId));
    const perMonth = limits.creditsPerMonth;
    const remembered = this.monthsGiven.get(userId);
    if (remembered && remembered.period === period && remembered.amount >= perMonth) return false;
    const given = await this.deps.repository.grantedFor(userId, period);
    if (perMonth <= given) {
      this.remember(userId, period, given);
      return false;
    }
    const first = given === 0;
    const result = await this.deps.repository.append({
      userId,
      kind: 'grant',
      amount: perMonth - given,
      reason: first
        ? `Monthly credits (${planName(skus, perMonth)})`
        : `Monthly credits topped up to ${perMonth} (${planName(skus, perMonth)})`,
      // One base grant per month, and at most one top-up to each amount: both are once-only keys.
      ref: first ? `month:${period}` : `month:${period}:to-${perMonth}`,
      period,
      at: now,
    });
    if (result.outcome === 'applied') await this.changed(userId);
    this.remember(userId, period, perMonth);
    return result.outcome === 'applied';
  }

  private remember(userId: string, period: string, amount: number): void {
    // A bound on memory for a server with very many accounts: forgetting only costs a query.
    if (this.monthsGiven.size >= MONTHS_REMEMBERED) this.monthsGiven.clear();
    this.monthsGiven.set(userId, { period, amount });
  }

  /** The daily job: this month's grant for every user who has none yet, a page at a time. */
  async grantMonthlyToAll(pageSize = 500): Promise<number> {
    const period = this.deps.entitlements.creditPeriod();
    let afterId: string | null = null;
    let granted = 0;
    for (;;) {
      const page = await this.deps.repository.usersWithoutGrant(period, afterId, pageSize);
      for (const userId of page) {
        await this.ensureMonthlyGrant(userId);
        granted += 1;
      }
      if (page.length < pageSize) return granted;
      afterId = page[page.length - 1]!;
    }
  }

  async balance(userId: string): Promise<number> {
    await this.ensureMonthlyGrant(userId);
    return this.deps.repository.balance(userId);
  }

  async canAfford(userId: string, amount: number): Promise<boolean> {
    return (await this.balance(userId)) >= amount;
  }

  /**
   * Takes `amount` credits for `ref` (a task id) exactly once: a second call with the same ref takes
   * nothing and answers 'already-spent'. Never takes the balance below zero, however many requests
   * race: a spend the balance can't cover takes nothing.
   */
  async spend(
    userId: string,
    amount: number,
    reason: string,
    ref: string,
    /**
     * Runs in the spend's own transaction, only when the spend applies: a charge and the change it
     * pays for (a task marked completed) commit together or not at all.
     */
    alongside?: (tx: Tx) => Promise<void>,
  ): Promise<SpendResult> {
    if (!Number.isInteger(amount) || amount <= 0) throw new Error('A spend takes a positive whole number of credits.');
    await this.ensureMonthlyGrant(userId);
    const result = await this.deps.repository.append(
      {
        userId,
        kind: 'spend',
        amount: -amount,
        reason,
        ref,
        at: this.deps.clock.now(),
      },
      alongside ? (tx) => alongside(tx) : undefined,
    );
    if (result.outcome === 'applied') {
      await this.changed(userId);
      return { status: 'spent', balance: result.balance };
    }
    const balance = await this.deps.repository.balance(userId);
    if (result.outcome === 'insufficient') return { status: 'insufficient', balance };
    const earlier = await this.deps.repository.findSpend(ref);
    if (earlier && earlier.userId !== userId) throw AppError.conflict('This reference belongs to another account.');
    return { status: 'already-spent', balance };
  }

  /** Gives back what the spend of `ref` took, once (a task that failed or was cancelled). */
  async refund(ref: string): Promise<RefundResult> {
    const spend = await this.deps.repository.findSpend(ref);
    if (!spend) throw AppError.notFound('Nothing was spent for this reference.');
    const result = await this.deps.repository.append({
      userId: spend.userId,
      kind: 'refund',
      amount: -spend.amount,
      reason: `Refund: ${spend.reason}`,
      ref,
      at: this.deps.clock.now(),
    });
    if (result.outcome === 'applied') {
      await this.changed(spend.userId);
      return { status: 'refunded', balance: result.balance };
    }
    return { status: 'already-refunded', balance: await this.deps.repository.balance(spend.userId) };
  }

  /** The signed-in user's own credits and ledger. */
  mine(actor: Actor, page: { before?: number | undefined; limit: number }): Promise<CreditsResponse> {
    return this.statement(actor.userId, page);
  }

  /** Any user's credits, for administrators. */
  async ofUser(
    actor: Actor | null,
    userId: string,
    page: { before?: number | undefined; limit: number },
  ): Promise<CreditsResponse> {
    assertAdmin(actor);
    if (!(await this.deps.repository.userExists(userId))) throw AppError.notFound('No such user.');
    return this.statement(userId, page);
  }

  /**
   * An administrator adds or takes credits, with the reason kept in the ledger. `alongside` runs in
   * the entry's transaction with the balance before and after (the admin area's audit row).
   */
  async adjust(
    actor: Actor | null,
    userId: string,
    input: { amount: number; reason: string },
    alongside?: (tx: Tx, change: { before: number; after: number; entry: CreditEntry }) => Promise<void>,
  ): Promise<CreditEntry> {
    assertAdmin(actor);
    if (!(await this.deps.repository.userExists(userId))) throw AppError.notFound('No such user.');
    await this.ensureMonthlyGrant(userId);
    const result = await this.deps.repository.append(
      {
        userId,
        kind: 'adjustment',
        amount: input.amount,
        reason: input.reason,
        ref: null,
        actorId: actor.userId,
        at: this.deps.clock.now(),
      },
      alongside &&
        ((tx, applied) =>
          alongside(tx, {
            before: applied.balance - input.amount,
            after: applied.balance,
            entry: present(applied.row),
          })),
    );
    if (result.outcome !== 'applied') {
      const balance = await this.deps.repository.balance(userId);
      throw AppError.conflict(`Credits can't go below zero: this user has ${balance} credits.`, 'NOT_ENOUGH_CREDITS');
    }
    await this.changed(userId);
    return present(result.row);
  }

  private async statement(
    userId: string,
    page: { before?: number | undefined; limit: number },
  ): Promise<CreditsResponse> {
    await this.ensureMonthlyGrant(userId);
    const [balance, rows, { limits }] = await Promise.all([
      this.deps.repository.balance(userId),
      this.deps.repository.history(userId, { before: page.before, limit: page.limit + 1 }),
      this.deps.entitlements.of(userId),
    ]);
    return {
      balance,
      perMonth: limits.creditsPerMonth,
      renewsAt: nextMonthStart(this.deps.clock.now()).toISOString(),
      entries: rows.slice(0, page.limit).map(present),
      hasMore: rows.length > page.limit,
    };
  }

  /** The owner's open screens refresh their balance. */
  private changed(userId: string): Promise<void> {
    return this.deps.bus.publish({ topic: `user:${userId}`, type: EVENT_TYPES.userUpdated, data: { userId } });
  }
}
