import { and, desc, eq, lt, notExists, sql, sum } from 'drizzle-orm';
import type { Db, Tx } from '../../db/database';
import { creditBalances, creditLedger, users } from '../../db/schema';

export type LedgerRow = typeof creditLedger.$inferSelect;
export type NewLedgerEntry = Omit<typeof creditLedger.$inferInsert, 'id' | 'seq' | 'at'> & { at: Date };

/** The balance would go below zero: the whole entry is rolled back. */
class InsufficientCredits extends Error {}

/**
 * The only place that reads or writes credits. Entries are appended, never changed; each one moves
 * the user's balance row in the same transaction, so the balance always equals the ledger's sum.
 */
export class CreditsRepository {
  constructor(private readonly db: Db) {}

  async userExists(userId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId));
    return Boolean(row);
  }

  async balance(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ balance: creditBalances.balance })
      .from(creditBalances)
      .where(eq(creditBalances.userId, userId));
    return row?.balance ?? 0;
  }

  /** The ledger's own sum, to check the kept balance against. */
  async ledgerSum(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ total: sum(creditLedger.amount) })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId));
    return Number(row?.total ?? 0);
  }

  history(userId: string, options: { before?: number | undefined; limit: number }): Promise<LedgerRow[]> {
    return this.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, userId), options.before ? lt(creditLedger.seq, options.before) : undefined))
      .orderBy(desc(creditLedger.seq))
      .limit(options.limit);
  }

  async findSpend(ref: string): Promise<LedgerRow | null> {
    const [row] = await this.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.kind, 'spend'), eq(creditLedger.ref, ref)));
    return row ?? null;
  }

  /** What the user was given for `period` so far (the monthly grant and its top-ups). */
  async grantedFor(userId: string, period: string): Promise<number> {
    const [row] = await this.db
      .select({ total: sum(creditLedger.amount) })
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, userId), eq(creditLedger.kind, 'grant'), eq(creditLedger.period, period)));
    return Number(row?.total ?? 0);
  }

  /** Users without a grant for `period`, a page at a time (by id, after `afterId`). */
  async usersWithoutGrant(period: string, afterId: string | null, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          afterId ? sql`${users.id} > ${afterId}` : undefined,
          notExists(
            this.db
              .select({ one: sql`1` })
              .from(creditLedger)
              .where(
                and(eq(creditLedger.userId, users.id), eq(creditLedger.kind, 'grant'), eq(creditLedger.period, period)),
              ),
          ),
        ),
      )
      .orderBy(users.id)
      .limit(limit);
    return rows.map((r) => r.id);
  }

  /**
   * Appends one entry and moves the balance by its amount, atomically. 'duplicate' when an entry
   * with the same once-only key (a spend's or refund's ref, a grant's user, period and ref) exists:
   * nothing changes. 'insufficient' when the balance would go below zero: nothing changes either.
   * The conditional update takes the balance row's lock, so concurrent spends queue on it and each
   * sees the balance the previous one left.
   */
  async append(
    entry: NewLedgerEntry,
    /** Runs inside the entry's transaction once it applied (an audit row that must land with it). */
    alongside?: (tx: Tx, applied: { row: LedgerRow; balance: number }) => Promise<void>,
  ): Promise<{ outcome: 'applied'; row: LedgerRow; balance: number } | { outcome: 'duplicate' | 'insufficient' }> {
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx.insert(creditLedger).values(entry).onConflictDoNothing().returning();
        if (!row) return { outcome: 'duplicate' as const };
        const balance = await this.move(tx, entry.userId, entry.amount, entry.at);
        await alongside?.(tx, { row, balance });
        return { outcome: 'applied' as const, row, balance };
      });
    } catch (error) {
      if (error instanceof InsufficientCredits) return { outcome: 'insufficient' };
      throw error;
    }
  }

  private async move(tx: Tx, userId: string, amount: number, at: Date): Promise<number> {
    if (amount >= 0) {
      const [row] = await tx
        .insert(creditBalances)
        .values({ userId, balance: amount, updatedAt: at })
        .onConflictDoUpdate({
          target: creditBalances.userId,
          set: { balance: sql`${creditBalances.balance} + ${amount}`, updatedAt: at },
        })
        .returning({ balance: creditBalances.balance });
      return row!.balance;
    }
    const [row] = await tx
      .update(creditBalances)
      .set({ balance: sql`${creditBalances.balance} + ${amount}`, updatedAt: at })
      .where(and(eq(creditBalances.userId, userId), sql`${creditBalances.balance} + ${amount} >= 0`))
      .returning({ balance: creditBalances.balance });
    if (!row) throw new InsufficientCredits();
    return row.balance;
  }
}
