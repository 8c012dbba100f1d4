import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { systemClock, type Clock } from '../../platform/clock/clock';
import { presence } from '../../db/schema';

export type PresenceRow = typeof presence.$inferSelect;

export class PresenceRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Records the state and returns whether it differs from what others last saw. */
  async set(
    row: { userId: string; versionId: string; projectId: string; state: 'online' | 'offline' },
    windowMs: number,
  ): Promise<boolean> {
    const [before] = await this.db
      .select({
        state: presence.state,
        fresh: sql<boolean>`${presence.seenAt} > now() - make_interval(secs => ${windowMs / 1000})`,
      })
      .from(presence)
      .where(and(eq(presence.versionId, row.versionId), eq(presence.userId, row.userId)));
    await this.db
      .insert(presence)
      .values({ ...row, seenAt: this.clock.now() })
      .onConflictDoUpdate({
        target: [presence.versionId, presence.userId],
        set: { state: row.state, seenAt: this.clock.now() },
      });
    return !before || before.state !== row.state || !before.fresh;
  }

  async forVersion(versionId: string): Promise<PresenceRow[]> {
    return this.db.select().from(presence).where(eq(presence.versionId, versionId));
  }
}
