import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/database';
import { groups, projects, shareLinks } from '../../db/schema';
import type { UserDataContribution } from '../user-data';

/** Links whose folder or project is gone (the erased user's items) go too. */
export class SharingUserDataRepository {
  constructor(private readonly db: Db) {}

  async dropOrphanLinks(tx: Tx): Promise<void> {
    await tx
      .delete(shareLinks)
      .where(
        and(
          eq(shareLinks.resourceType, 'group'),
          sql`not exists (select 1 from ${groups} where ${groups.id} = ${shareLinks.resourceId})`,
        ),
      );
    await tx
      .delete(shareLinks)
      .where(
        and(
          eq(shareLinks.resourceType, 'project'),
          sql`not exists (select 1 from ${projects} where ${projects.id} = ${shareLinks.resourceId})`,
        ),
      );
  }

  /** The public and invitation links the user made (for their archive). */
  linksBy(userId: string) {
    return this.db
      .select({
        kind: shareLinks.kind,
        resourceType: shareLinks.resourceType,
        resourceId: shareLinks.resourceId,
        active: shareLinks.active,
        createdAt: shareLinks.createdAt,
      })
      .from(shareLinks)
      .where(eq(shareLinks.createdBy, userId));
  }
}

/**
 * Runs after the storage area's part: memberships and join requests go with the user and their
 * items by cascade, and the links of their items are dropped here.
 */
export function sharingUserData(repository: SharingUserDataRepository): UserDataContribution {
  return {
    async export(userId, archive) {
      const links = await repository.linksBy(userId);
      archive.json(
        'sharing-links.json',
        links.map((l) => ({ ...l, createdAt: l.createdAt.toISOString() })),
      );
    },
    erase: (_userId, tx) => repository.dropOrphanLinks(tx),
  };
}
