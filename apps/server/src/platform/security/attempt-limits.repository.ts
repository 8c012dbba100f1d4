import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { attemptLimits } from '../../db/schema';

export interface AttemptLimitRow {
  key: string;
  failures: number;
  blockedUntil: Date | null;
}

/** Counters of failed attempts, one row per limiter key; every node reads and writes the same rows. */
export class AttemptLimitsRepository {
  constructor(private readonly db: Db) {}

  async find(keys: string[]): Promise<AttemptLimitRow[]> {
    if (keys.length === 0) return [];
    return this.db
      .select({ key: attemptLimits.key, failures: attemptLimits.failures, blockedUntil: attemptLimits.blockedUntil })
      .from(attemptLimits)
      .where(inArray(attemptLimits.key, keys));
  }

  /**
   * Counts one failure in one statement (so concurrent failures on several nodes all count); a
   * window older than `windowStart` starts again from this failure. Returns the count.
   */
  async recordFailure(key: string, now: Date, windowStart: Date): Promise<number> {
    const expired = sql`${attemptLimits.windowStartedAt} < ${windowStart.toISOString()}::timestamptz`;
    const [row] = await this.db
      .insert(attemptLimits)
      .values({ key, failures: 1, windowStartedAt: now })
      .onConflictDoUpdate({
        target: attemptLimits.key,
        set: {
          failures: sql`case when ${expired} then 1 else ${attemptLimits.failures} + 1 end`,
          windowStartedAt: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${attemptLimits.windowStartedAt} end`,
        },
      })
      .returning({ failures: attemptLimits.failures });
    return row?.failures ?? 1;
  }

  async block(key: string, until: Date): Promise<void> {
    await this.db.update(attemptLimits).set({ blockedUntil: until }).where(eq(attemptLimits.key, key));
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(attemptLimits).where(eq(attemptLimits.key, key));
  }

  /** Rows whose window and block are both over carry nothing: the maintenance job may drop them. */
  async purgeOlderThan(before: Date): Promise<void> {
    await this.db
      .delete(attemptLimits)
      .where(
        sql`${attemptLimits.windowStartedAt} < ${before.toISOString()}::timestamptz and (${attemptLimits.blockedUntil} is null or ${attemptLimits.blockedUntil} < ${before.toISOString()}::timestamptz)`,
      );
  }
}
