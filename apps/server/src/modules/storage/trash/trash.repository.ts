import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { systemClock, type Clock } from '../../../platform/clock/clock';
import type { Db } from '../../../db/database';
import type { ItemScope } from '../../../access/item-scope';
import { groups, projects } from '../../../db/schema';
import type { GroupRow } from '../folders/groups.repository';
import type { ProjectRow } from '../projects/projects.repository';

const inTrash = (flag: typeof groups.flag | typeof projects.flag) => inArray(flag, ['DELETE', 'DELETING']);

/**
 * Items in a user's trash: their own (whoever trashed them), flagged themselves, and not inside a
 * folder that is in the trash too. Shared items an editor trashed are in their publisher's trash.
 */
export class TrashRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: ItemScope,
    private readonly clock: Clock = systemClock,
  ) {}

  async groupsOf(userId: string, sort: 'newest' | 'alphabetical'): Promise<GroupRow[]> {
    return this.db
      .select()
      .from(groups)
      .where(
        and(
          inTrash(groups.flag),
          eq(groups.publisherId, userId),
          this.scope.inMode(groups),
          this.scope.noTrashedAncestor(groups),
        ),
      )
      .orderBy(sort === 'newest' ? desc(groups.deletedAt) : asc(sql`lower(${groups.name})`));
  }

  async projectsOf(userId: string, sort: 'newest' | 'alphabetical'): Promise<ProjectRow[]> {
    return this.db
      .select()
      .from(projects)
      .where(
        and(
          inTrash(projects.flag),
          eq(projects.publisherId, userId),
          this.scope.inMode(projects),
          this.scope.noTrashedAncestor(projects),
        ),
      )
      .orderBy(sort === 'newest' ? desc(projects.deletedAt) : asc(sql`lower(${projects.name})`));
  }

  async setGroupFlag(id: string, flag: GroupRow['flag'], by: string | null): Promise<void> {
    await this.db
      .update(groups)
      .set({
        flag,
        deletedAt: flag === 'NONE' ? null : this.clock.now(),
        deletedBy: flag === 'NONE' ? null : by,
        updatedAt: this.clock.now(),
      })
      .where(eq(groups.id, id));
  }

  async setProjectFlag(id: string, flag: ProjectRow['flag'], by: string | null): Promise<void> {
    await this.db
      .update(projects)
      .set({
        flag,
        deletedAt: flag === 'NONE' ? null : this.clock.now(),
        deletedBy: flag === 'NONE' ? null : by,
        updatedAt: this.clock.now(),
      })
      .where(eq(projects.id, id));
  }

  /** Items trashed before `before` (the 30-day purge). */
  async expired(before: Date): Promise<{ groups: GroupRow[]; projects: ProjectRow[] }> {
    return {
      groups: await this.db
        .select()
        .from(groups)
        .where(and(eq(groups.flag, 'DELETE'), this.scope.inMode(groups), lt(groups.deletedAt, before))),
      projects: await this.db
        .select()
        .from(projects)
        .where(and(eq(projects.flag, 'DELETE'), this.scope.inMode(projects), lt(projects.deletedAt, before))),
    };
  }
}
