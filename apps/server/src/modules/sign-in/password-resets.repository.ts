import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { systemClock, type Clock } from '../../platform/clock/clock';
import { passwordResets } from '../../db/schema';

export class PasswordResetsRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {}

  async create(tokenHash: string, userId: string, expiresAt: Date): Promise<void> {
    await this.db.insert(passwordResets).values({ tokenHash, userId, expiresAt });
  }

  /** Resets asked for a user whose expiry is later than `after` (i.e. issued recently). */
  async countIssuedAfter(userId: string, after: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(passwordResets)
      .where(and(eq(passwordResets.userId, userId), gt(passwordResets.expiresAt, after)));
    return row?.n ?? 0;
  }

  /** The user of a valid, unused token, without using it; null when invalid, used or expired. */
  async userOf(tokenHash: string): Promise<string | null> {
    const [row] = await this.db
      .select({ userId: passwordResets.userId })
      .from(passwordResets)
      .where(
        and(
          eq(passwordResets.tokenHash, tokenHash),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, this.clock.now()),
        ),
      );
    return row?.userId ?? null;
  }

  /** Marks a valid, unused token used and returns its user; null when invalid, used or expired. */
  async consume(tokenHash: string): Promise<string | null> {
    const [row] = await this.db
      .update(passwordResets)
      .set({ usedAt: this.clock.now() })
      .where(
        and(
          eq(passwordResets.tokenHash, tokenHash),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, this.clock.now()),
        ),
      )
      .returning({ userId: passwordResets.userId });
    return row?.userId ?? null;
  }
}
