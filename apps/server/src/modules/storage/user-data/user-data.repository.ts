import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/database';
import { groups, memberships, projects, versions } from '../../../db/schema';

export type OwnedProject = typeof projects.$inferSelect;
export type OwnedVersion = typeof versions.$inferSelect;

/**
 * Everything a user owns in both areas (storage and transfers), for their data archive and for
 * erasing their account. Unlike the area repositories it is not bound to one area on purpose:
 * what a user owns is theirs whichever area it lives in.
 */
export class UserDataRepository {
  constructor(private readonly db: Db) {}

  async ownedGroupIds(userId: string, db: Db | Tx = this.db): Promise<string[]> {
    const rows = await db.select({ id: groups.id }).from(groups).where(eq(groups.publisherId, userId));
    return rows.map((r) => r.id);
  }

  /** Projects the user published, and any project inside a folder they own (it goes with the folder). */
  async ownedProjects(userId: string, groupIds: string[], db: Db | Tx = this.db): Promise<OwnedProject[]> {
    const owned = sql.join(
      groupIds.map((id) => sql`${id}`),
      sql`, `,
    );
    const inOwnedFolder = groupIds.length > 0 ? sql`${projects.path} && ARRAY[${owned}]::uuid[]` : sql`false`;
    return db
      .select()
      .from(projects)
      .where(or(eq(projects.publisherId, userId), inOwnedFolder))
      .orderBy(asc(projects.createdAt));
  }

  async groupNames(ids: string[], db: Db | Tx = this.db): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: groups.id, name: groups.name })
      .from(groups)
      .where(inArray(groups.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async versionsOf(projectIds: string[]): Promise<OwnedVersion[]> {
    if (projectIds.length === 0) return [];
    return this.db
      .select()
      .from(versions)
      .where(inArray(versions.projectId, projectIds))
      .orderBy(asc(versions.projectId), asc(versions.number));
  }

  /** Who was given any of these items directly (the people to tell when they go). */
  async membersOf(resourceIds: string[], tx: Tx): Promise<{ userId: string; resourceId: string }[]> {
    if (resourceIds.length === 0) return [];
    return tx
      .select({ userId: memberships.userId, resourceId: memberships.resourceId })
      .from(memberships)
      .where(inArray(memberships.resourceId, resourceIds));
  }

  /** Removes the items (versions, attachments and comments follow by cascade) and who was given them. */
  async erase(userId: string, groupIds: string[], projectIds: string[], tx: Tx): Promise<void> {
    const ids = [...groupIds, ...projectIds];
    for (let i = 0; i < ids.length; i += 500)
      await tx.delete(memberships).where(inArray(memberships.resourceId, ids.slice(i, i + 500)));
    for (let i = 0; i < projectIds.length; i += 500)
      await tx.delete(projects).where(inArray(projects.id, projectIds.slice(i, i + 500)));
    await tx.delete(groups).where(eq(groups.publisherId, userId));
    // Projects and folders left behind by a race (made while the erasure ran) still go with the user row.
    await tx.delete(projects).where(eq(projects.publisherId, userId));
  }
}
