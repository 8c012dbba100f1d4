import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { systemClock, type Clock } from '../../platform/clock/clock';
import { memberships, planGrants, users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
export type PlanGrantRow = typeof planGrants.$inferSelect;

function prepareById(db: Db) {
  return db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('users_by_id');
}

/** The only place that queries users and their plan grants. */
export class UsersRepository {
  /** Built once: every authenticated request reads its user's row. */
  private readonly byId: ReturnType<typeof prepareById>;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.byId = prepareById(db);
  }

  async findById(id: string): Promise<UserRow | null> {
    const [row] = await this.byId.execute({ id });
    return row ?? null;
  }

  async findMany(ids: string[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(users)
      .where(inArray(users.id, [...new Set(ids)]));
  }

  /** The people given any of these groups or projects, with the resource they were given. */
  async membersOf(
    resourceIds: string[],
  ): Promise<{ resourceId: string; id: string; displayName: string; photoUrl: string | null }[]> {
    if (resourceIds.length === 0) return [];
    return this.db
      .select({
        resourceId: memberships.resourceId,
        id: users.id,
        displayName: users.displayName,
        photoUrl: users.photoUrl,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(inArray(memberships.resourceId, [...new Set(resourceIds)]))
      .orderBy(memberships.createdAt);
  }

  async findByEmail(email: string): Promise<UserRow | null> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`);
    return row ?? null;
  }

  async findByExternalSubject(provider: string, subject: string): Promise<UserRow | null> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.provider, provider), eq(users.externalSubject, subject)));
    return row ?? null;
  }

  /**
   * Inserts a user; the first account of an installation becomes administrator. The advisory lock
   * serialises concurrent first sign-ups so exactly one of them wins.
   */
  async create(values: Omit<typeof users.$inferInsert, 'isAdmin'>): Promise<UserRow> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7001)`);
      const [existing] = await tx.select({ n: count() }).from(users);
      const [row] = await tx
        .insert(users)
        .values({ ...values, isAdmin: (existing?.n ?? 0) === 0 })
        .returning();
      if (!row) throw new Error('insert returned nothing');
      return row;
    });
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.db.update(users).set({ passwordHash, updatedAt: this.clock.now() }).where(eq(users.id, id));
  }

  async grantsFor(userIds: string[]): Promise<PlanGrantRow[]> {
    if (userIds.length === 0) return [];
    return this.db.select().from(planGrants).where(inArray(planGrants.userId, userIds)).orderBy(planGrants.startsAt);
  }
}
