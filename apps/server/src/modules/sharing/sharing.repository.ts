import { and, count, desc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { systemClock, type Clock } from '../../platform/clock/clock';
import { joinRequests, memberships, shareLinks, users } from '../../db/schema';

export type ResourceType = 'group' | 'project';
export type JoinRequestRow = typeof joinRequests.$inferSelect;
export type ShareLinkRow = typeof shareLinks.$inferSelect;

/** Memberships, share links and join requests: who was given what. */
export class SharingRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {}

  async members(resourceId: string) {
    return this.db
      .select({
        id: users.id,
        displayName: users.displayName,
        email: users.email,
        photoUrl: users.photoUrl,
        permission: memberships.permission,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.resourceId, resourceId))
      .orderBy(memberships.createdAt);
  }

  async countMembers(resourceId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(memberships).where(eq(memberships.resourceId, resourceId));
    return row?.n ?? 0;
  }

  async addMember(
    resourceId: string,
    resourceType: ResourceType,
    userId: string,
    permission: 'VIEWER' | 'EDITOR',
  ): Promise<void> {
    await this.db.insert(memberships).values({ resourceId, resourceType, userId, permission }).onConflictDoNothing();
  }

  async setPermission(resourceId: string, userId: string, permission: 'VIEWER' | 'EDITOR'): Promise<boolean> {
    const rows = await this.db
      .update(memberships)
      .set({ permission })
      .where(and(eq(memberships.resourceId, resourceId), eq(memberships.userId, userId)))
      .returning({ userId: memberships.userId });
    return rows.length > 0;
  }

  async removeMember(resourceId: string, userId: string): Promise<boolean> {
    const rows = await this.db
      .delete(memberships)
      .where(and(eq(memberships.resourceId, resourceId), eq(memberships.userId, userId)))
      .returning({ userId: memberships.userId });
    return rows.length > 0;
  }

  async link(resourceId: string, kind: 'public' | 'invite'): Promise<ShareLinkRow | null> {
    const [row] = await this.db
      .select()
      .from(shareLinks)
      .where(and(eq(shareLinks.resourceId, resourceId), eq(shareLinks.kind, kind)));
    return row ?? null;
  }

  async displayName(userId: string): Promise<string | null> {
    const [row] = await this.db.select({ name: users.displayName }).from(users).where(eq(users.id, userId));
    return row?.name ?? null;
  }

  async linkByToken(token: string): Promise<ShareLinkRow | null> {
    const [row] = await this.db.select().from(shareLinks).where(eq(shareLinks.token, token));
    return row ?? null;
  }

  /** The link of a resource, created on first use; concurrent first uses agree on one token. */
  async ensureLink(values: typeof shareLinks.$inferInsert): Promise<ShareLinkRow> {
    await this.db.insert(shareLinks).values(values).onConflictDoNothing();
    const row = await this.link(values.resourceId, values.kind);
    if (!row) throw new Error('link not stored');
    return row;
  }

  async setLinkActive(token: string, active: boolean): Promise<void> {
    await this.db.update(shareLinks).set({ active }).where(eq(shareLinks.token, token));
  }

  /** Replaces a link's token (a re-enabled public link must not revive the old one). */
  async replaceToken(token: string, next: string, active: boolean): Promise<void> {
    await this.db
      .update(shareLinks)
      .set({ token: next, active, createdAt: this.clock.now() })
      .where(eq(shareLinks.token, token));
  }

  async joinRequest(resourceId: string, userId: string): Promise<JoinRequestRow | null> {
    const [row] = await this.db
      .select()
      .from(joinRequests)
      .where(and(eq(joinRequests.resourceId, resourceId), eq(joinRequests.userId, userId)));
    return row ?? null;
  }

  async upsertJoinRequest(values: typeof joinRequests.$inferInsert): Promise<void> {
    await this.db
      .insert(joinRequests)
      .values(values)
      .onConflictDoUpdate({
        target: [joinRequests.resourceId, joinRequests.userId],
        set: { status: 'pending', createdAt: this.clock.now(), decidedAt: null },
      });
  }

  async decide(resourceId: string, userId: string, status: 'approved' | 'rejected'): Promise<void> {
    await this.db
      .update(joinRequests)
      .set({ status, decidedAt: this.clock.now() })
      .where(and(eq(joinRequests.resourceId, resourceId), eq(joinRequests.userId, userId)));
  }

  async requestsOf(userId: string): Promise<JoinRequestRow[]> {
    return this.db
      .select()
      .from(joinRequests)
      .where(or(eq(joinRequests.publisherId, userId), eq(joinRequests.userId, userId)))
      .orderBy(desc(joinRequests.createdAt))
      .limit(200);
  }

  async usersByIds(ids: string[]) {
    if (ids.length === 0) return [];
    return this.db
      .select({ id: users.id, displayName: users.displayName, photoUrl: users.photoUrl })
      .from(users)
      .where(inArray(users.id, ids));
  }
}
