import type { LiveRoomRole } from '@mixroom/shared';
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/database';
import { liveRoomCodes, liveSessions, liveStreams, liveUsage } from '../../db/schema';

export type LiveSessionRow = typeof liveSessions.$inferSelect;
export type LiveStreamRow = typeof liveStreams.$inferSelect;
export type LiveCodeRow = typeof liveRoomCodes.$inferSelect;

/** The only SQL of live rooms: codes, sessions under the guest code, their streams, monthly usage. */
export class LiveRepository {
  constructor(private readonly db: Db) {}

  codesOf(userId: string, tx: Db | Tx = this.db): Promise<LiveCodeRow[]> {
    return tx.select().from(liveRoomCodes).where(eq(liveRoomCodes.userId, userId));
  }

  async findCode(code: string): Promise<LiveCodeRow | null> {
    const [row] = await this.db.select().from(liveRoomCodes).where(eq(liveRoomCodes.code, code));
    return row ?? null;
  }

  /** Inserts the code unless the user already has one for the role (two first reads race harmlessly). */
  async insertCode(userId: string, role: LiveRoomRole, code: string, now: Date): Promise<void> {
    await this.db.insert(liveRoomCodes).values({ userId, role, code, createdAt: now }).onConflictDoNothing();
  }

  async replaceCode(tx: Tx, userId: string, role: LiveRoomRole, code: string, now: Date): Promise<void> {
    await tx
      .insert(liveRoomCodes)
      .values({ userId, role, code, createdAt: now })
      .onConflictDoUpdate({ target: [liveRoomCodes.userId, liveRoomCodes.role], set: { code, createdAt: now } });
  }

  async session(code: string, tx: Db | Tx = this.db): Promise<LiveSessionRow | null> {
    const [row] = await tx.select().from(liveSessions).where(eq(liveSessions.code, code));
    return row ?? null;
  }

  /** Locks the session row for a change that reads before it writes (joins against the guest limit). */
  async lockSession(tx: Tx, code: string): Promise<LiveSessionRow | null> {
    const [row] = await tx.select().from(liveSessions).where(eq(liveSessions.code, code)).for('update');
    return row ?? null;
  }

  sessionsOfHost(hostId: string): Promise<LiveSessionRow[]> {
    return this.db.select().from(liveSessions).where(eq(liveSessions.hostId, hostId));
  }

  /** Running sessions: their timers are re-armed when a node starts. */
  activeSessions(): Promise<LiveSessionRow[]> {
    return this.db.select().from(liveSessions).where(eq(liveSessions.status, 'active'));
  }

  async putSession(tx: Tx, row: typeof liveSessions.$inferInsert): Promise<void> {
    const { code: _code, ...rest } = row;
    await tx.insert(liveSessions).values(row).onConflictDoUpdate({ target: liveSessions.code, set: rest });
  }

  async updateSession(
    code: string,
    set: Partial<Omit<typeof liveSessions.$inferInsert, 'code'>>,
    tx: Db | Tx = this.db,
  ): Promise<void> {
    await tx.update(liveSessions).set(set).where(eq(liveSessions.code, code));
  }

  /**
   * Ends an active session once (a second node's timer finds it ended and gets null). The row comes
   * back with the elapsed time from before the end; a step counted between the read and the write
   * makes it read again, so the time after the last step is never counted twice.
   */
  async finish(
    code: string,
    status: 'ended' | 'expired',
    now: Date,
    tx: Db | Tx = this.db,
  ): Promise<LiveSessionRow | null> {
    for (;;) {
      const [before] = await tx.select().from(liveSessions).where(eq(liveSessions.code, code));
      if (!before || before.status !== 'active') return null;
      const [row] = await tx
        .update(liveSessions)
        .set({
          status,
          tickDueAt: null,
          lastUpdate: now,
          ...(status === 'expired'
            ? { elapsedMs: sql`coalesce(${liveSessions.maxDurationMs}, ${liveSessions.elapsedMs})` }
            : {}),
        })
        .where(
          and(
            eq(liveSessions.code, code),
            eq(liveSessions.status, 'active'),
            eq(liveSessions.elapsedMs, before.elapsedMs),
          ),
        )
        .returning();
      if (row) return { ...row, elapsedMs: before.elapsedMs };
    }
  }

  async setHostCode(tx: Tx, hostId: string, hostCode: string): Promise<void> {
    await tx.update(liveSessions).set({ hostCode }).where(eq(liveSessions.hostId, hostId));
  }

  async deleteSession(tx: Tx, code: string): Promise<void> {
    await tx.delete(liveSessions).where(eq(liveSessions.code, code));
  }

  async clearStreams(tx: Tx, code: string): Promise<void> {
    await tx.delete(liveStreams).where(eq(liveStreams.code, code));
  }

  streams(code: string, tx: Db | Tx = this.db): Promise<LiveStreamRow[]> {
    return tx.select().from(liveStreams).where(eq(liveStreams.code, code));
  }

  async stream(code: string, userId: string, tx: Db | Tx = this.db): Promise<LiveStreamRow | null> {
    const [row] = await tx
      .select()
      .from(liveStreams)
      .where(and(eq(liveStreams.code, code), eq(liveStreams.userId, userId)));
    return row ?? null;
  }

  async putStream(tx: Db | Tx | undefined, row: typeof liveStreams.$inferInsert): Promise<void> {
    const { code: _code, userId: _userId, ...rest } = row;
    await (tx ?? this.db)
      .insert(liveStreams)
      .values(row)
      .onConflictDoUpdate({ target: [liveStreams.code, liveStreams.userId], set: rest });
  }

  async updateStream(
    tx: Db | Tx | undefined,
    code: string,
    userId: string,
    set: Partial<Pick<LiveStreamRow, 'isEnabled' | 'isOnline' | 'source' | 'bitrate' | 'instanceId' | 'updatedAt'>>,
  ): Promise<void> {
    await (tx ?? this.db)
      .update(liveStreams)
      .set(set)
      .where(and(eq(liveStreams.code, code), eq(liveStreams.userId, userId)));
  }

  async deleteStream(tx: Db | Tx | undefined, code: string, userId: string): Promise<void> {
    await (tx ?? this.db).delete(liveStreams).where(and(eq(liveStreams.code, code), eq(liveStreams.userId, userId)));
  }

  /**
   * The minute steps of a session due by `now`, counted at once: a clock that moved on several
   * minutes (or a node that was busy) adds all of them, so elapsed keeps up with the clock and the
   * step times stay on the session's own minutes. A limited session's elapsed stops at its limit.
   * The write is conditional on the due time it read, so two nodes arming one session count each
   * step once. Null when no step is due (or another node counted it).
   */
  async tick(code: string, stepMs: number, now: Date): Promise<{ row: LiveSessionRow; addedMs: number } | null> {
    const [current] = await this.db
      .select()
      .from(liveSessions)
      .where(and(eq(liveSessions.code, code), eq(liveSessions.status, 'active'), lte(liveSessions.tickDueAt, now)));
    if (!current?.tickDueAt) return null;
    const dueAt = current.tickDueAt;
    const steps = Math.floor((now.getTime() - dueAt.getTime()) / stepMs) + 1;
    const left = current.maxDurationMs === null ? Infinity : Math.max(0, current.maxDurationMs - current.elapsedMs);
    const addedMs = Math.min(steps * stepMs, left);
    const [row] = await this.db
      .update(liveSessions)
      .set({
        elapsedMs: sql`${liveSessions.elapsedMs} + ${addedMs}`,
        tickDueAt: new Date(dueAt.getTime() + steps * stepMs),
        lastUpdate: now,
      })
      .where(and(eq(liveSessions.code, code), eq(liveSessions.status, 'active'), eq(liveSessions.tickDueAt, dueAt)))
      .returning();
    return row ? { row, addedMs } : null;
  }

  async addUsage(userId: string, period: string, ms: number): Promise<void> {
    await this.db
      .insert(liveUsage)
      .values({ userId, period, ms })
      .onConflictDoUpdate({
        target: [liveUsage.userId, liveUsage.period],
        set: { ms: sql`${liveUsage.ms} + ${ms}` },
      });
  }

  async usage(userId: string, period: string): Promise<number> {
    const [row] = await this.db
      .select({ ms: liveUsage.ms })
      .from(liveUsage)
      .where(and(eq(liveUsage.userId, userId), eq(liveUsage.period, period)));
    return row?.ms ?? 0;
  }

  /** Live time used from one month (`YYYY-MM`) on, in ms (a trial's broadcast time). */
  async usageSince(userId: string, fromPeriod: string): Promise<number> {
    const [row] = await this.db
      .select({ ms: sql<number>`coalesce(sum(${liveUsage.ms}), 0)::bigint` })
      .from(liveUsage)
      .where(and(eq(liveUsage.userId, userId), gte(liveUsage.period, fromPeriod)));
    return Number(row?.ms ?? 0);
  }

  usageOf(userId: string): Promise<{ period: string; ms: number }[]> {
    return this.db
      .select({ period: liveUsage.period, ms: liveUsage.ms })
      .from(liveUsage)
      .where(eq(liveUsage.userId, userId));
  }

  /** Streams of other hosts' sessions the user takes part in (erasure tells those rooms). */
  guestStreamsOf(userId: string, tx: Db | Tx = this.db): Promise<LiveStreamRow[]> {
    return tx
      .select()
      .from(liveStreams)
      .where(and(eq(liveStreams.userId, userId), eq(liveStreams.isHost, false)));
  }

  async eraseUser(tx: Tx, userId: string): Promise<void> {
    await tx.delete(liveStreams).where(eq(liveStreams.userId, userId));
    await tx.delete(liveSessions).where(eq(liveSessions.hostId, userId));
    await tx.delete(liveRoomCodes).where(eq(liveRoomCodes.userId, userId));
    await tx.delete(liveUsage).where(eq(liveUsage.userId, userId));
  }
}
