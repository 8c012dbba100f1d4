import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/database';
import { billingEvents, billingSubscriptions, planGrants, users } from '../../db/schema';

export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
type SubscriptionValues = Omit<typeof billingSubscriptions.$inferInsert, 'id' | 'grantId' | 'updatedAt'>;

/** Shop events, subscriptions and the plan grants they hold; every write runs in the caller's transaction. */
export class BillingRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Marks the grants that ended by `now` and were not told yet, and returns their users: one
   * statement, so two nodes running the job tell each ending once.
   */
  async announceEndedGrants(now: Date): Promise<string[]> {
    const rows = await this.db
      .update(planGrants)
      .set({ endAnnouncedAt: now })
      .where(and(lte(planGrants.endsAt, now), isNull(planGrants.endAnnouncedAt)))
      .returning({ userId: planGrants.userId });
    return [...new Set(rows.map((r) => r.userId))];
  }

  /** Records an event id; false when it was recorded before (the event is a duplicate). */
  async recordEvent(tx: Tx, event: { id: string; type: string; outcome: string; at: Date }): Promise<boolean> {
    const rows = await tx
      .insert(billingEvents)
      .values({ id: event.id, type: event.type, outcome: event.outcome, receivedAt: event.at })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    return rows.length > 0;
  }

  async setOutcome(tx: Tx, eventId: string, outcome: string): Promise<void> {
    await tx.update(billingEvents).set({ outcome }).where(eq(billingEvents.id, eventId));
  }

  async findUser(tx: Tx, who: { userId?: string | undefined; email?: string | undefined }): Promise<string | null> {
    const where = who.userId
      ? eq(users.id, who.userId)
      : who.email
        ? sql`lower(${users.email}) = lower(${who.email})`
        : null;
    if (!where) return null;
    const [row] = await tx.select({ id: users.id }).from(users).where(where);
    return row?.id ?? null;
  }

  /** The subscription with this shop id, locked until the transaction ends (events about it queue). */
  async lockSubscription(tx: Tx, externalId: string): Promise<SubscriptionRow | null> {
    const [row] = await tx
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.externalId, externalId))
      .for('update');
    return row ?? null;
  }

  /** Creates or replaces a subscription together with the plan grant it holds. */
  async saveSubscription(
    tx: Tx,
    existing: SubscriptionRow | null,
    values: SubscriptionValues,
    at: Date,
  ): Promise<SubscriptionRow> {
    const grantId = await this.saveGrant(tx, existing?.grantId ?? null, {
      userId: values.userId,
      sku: values.sku,
      startsAt: values.startsAt,
      endsAt: values.endsAt ?? null,
    });
    const [row] = existing
      ? await tx
          .update(billingSubscriptions)
          .set({ ...values, grantId, updatedAt: at })
          .where(eq(billingSubscriptions.id, existing.id))
          .returning()
      : await tx
          .insert(billingSubscriptions)
          .values({ ...values, grantId, updatedAt: at })
          .returning();
    return row!;
  }

  /** Updates the grant a subscription holds, or makes a new one if an administrator removed it. */
  private async saveGrant(
    tx: Tx,
    grantId: string | null,
    grant: { userId: string; sku: string; startsAt: Date; endsAt: Date | null },
  ): Promise<string> {
    if (grantId) {
      const [row] = await tx
        .update(planGrants)
        // A renewal moves the end: that later end is told again.
        .set({ sku: grant.sku, startsAt: grant.startsAt, endsAt: grant.endsAt, endAnnouncedAt: null })
        .where(and(eq(planGrants.id, grantId), eq(planGrants.userId, grant.userId)))
        .returning({ id: planGrants.id });
      if (row) return row.id;
    }
    const [row] = await tx.insert(planGrants).values(grant).returning({ id: planGrants.id });
    return row!.id;
  }
}
