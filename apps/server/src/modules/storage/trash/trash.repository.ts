import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Clock } from '../../../platform/clock/clock';
import type { Db } from '../../../db/database';
import type { ItemScope } from '../../../access/item-scope';
import { groups, projects } from '../../../db/schema';
import type { GroupRow } from '../folders/groups.repository';
import type { ProjectRow } from '../projects/projects.repository';

const inTrash = (flag: typeof groups.flag | typeof projects.flag) => inArray(flag, ['DELETE', 'DELETING']);

export interface TrashRepositoryDeps {
  db: Db;
  /** The area (STORAGE or TRANSFER) every query is bound to. */
  scope: ItemScope;
  clock: Clock;
}

/**
 * Items in a user's trash: their own (whoever trashed them), flagged themselves, and not inside a
 * folder that is in the trash too. Shared items an editor trashed are in their publisher's trash.
 */
export class TrashRepository {
  constructor(private readonly deps: TrashRepositoryDeps) {}

  async groupsOf(userId: string, sort: 'newest' | 'alphabetical'): Promise<GroupRow[]> {
    return this.deps.db
      .select()
      .from(groups)
      .where(
        and(
          inTrash(groups.flag),
          eq(groups.publisherId, userId),
          this.deps.scope.inMode(groups),
          this.deps.scope.noTrashedAncestor(groups),
        ),
      )
      .orderBy(sort === 'newest' ? desc(groups.deletedAt) : asc(sql`lower(${groups.name})`));
  }

  async projectsOf(userId: string, sort: 'newest' | 'alphabetical'): Promise<ProjectRow[]> {
    return this.deps.db
      .select()
      .from(projects)
      .where(
        and(
          inTrash(projects.flag),
          eq(projects.publisherId, userId),
          this.deps.scope.inMode(projects),
          this.deps.scope.noTrashedAncestor(projects),
        ),
      )
      .orderBy(sort === 'newest' ? desc(projects.deletedAt) : asc(sql`lower(${projects.name})`));
  }

  async setGroupFlag(id: string, flag: GroupRow['flag'], by: string | null): Promise<void> {
    await this.deps.db
      .update(groups)
      .set({
        flag,
        deletedAt: flag === 'NONE' ? null : this.deps.clock.now(),
        deletedBy: flag === 'NONE' ? null : by,
        updatedAt: this.deps.clock.now(),
      })
      .where(eq(groups.id, id));
  }

  async setProjectFlag(id: string, flag: ProjectRow['flag'], by: string | null): Promise<void> {
    await this.deps.db
      .update(projects)
      .set({
        flag,
        deletedAt: flag === 'NONE' ? null : this.deps.clock.now(),
        deletedBy: flag === 'NONE' ? null : by,
        updatedAt: this.deps.clock.now(),
      })
      .where(eq(projects.id, id));
  }

  /** Items trashed before `before` (the 30-day purge). */
  async expired(before: Date): Promise<{ groups: GroupRow[]; projects: ProjectRow[] }> {
    return {
      groups: await this.deps.db
        .select()
        .from(groups)
        .where(and(eq(groups.flag, 'DELETE'), this.deps.scope.inMode(groups), lt(groups.deletedAt, before))),
      projects: await this.deps.db
        .select()
        .from(projects)
        .where(and(eq(projects.flag, 'DELETE'), this.deps.scope.inMode(projects), lt(projects.deletedAt, before))),
    };
  }
}
