import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Clock } from '../../../platform/clock/clock';
import type { Db } from '../../../db/database';
import type { ItemScope } from '../../../access/item-scope';
import { groups, projects } from '../../../db/schema';
import { uuidArray } from '../../../db/sql';

export type { GroupRow } from '../../../db/rows';
import type { GroupRow } from '../../../db/rows';
export type Sort = 'alphabetical' | 'newest';

const order = (sort: Sort) =>
  sort === 'newest' ? [desc(groups.updatedAt), asc(groups.id)] : [asc(sql`lower(${groups.name})`), asc(groups.id)];

export interface GroupsRepositoryDeps {
  db: Db;
  /** The area (STORAGE or TRANSFER) every query is bound to. */
  scope: ItemScope;
  clock: Clock;
}

/** Folders of one area (the scope's mode): rows of the other area are never returned. */
export class GroupsRepository {
  constructor(private readonly deps: GroupsRepositoryDeps) {}

  async find(id: string): Promise<GroupRow | null> {
    const [row] = await this.deps.db
      .select()
      .from(groups)
      .where(and(eq(groups.id, id), this.deps.scope.inMode(groups)));
    return row ?? null;
  }

  async findMany(ids: string[]): Promise<GroupRow[]> {
    if (ids.length === 0) return [];
    return this.deps.db
      .select()
      .from(groups)
      .where(and(inArray(groups.id, ids), this.deps.scope.inMode(groups)));
  }

  async insert(values: typeof groups.$inferInsert): Promise<GroupRow> {
    const [row] = await this.deps.db.insert(groups).values(values).returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  async update(id: string, values: Partial<typeof groups.$inferInsert>): Promise<GroupRow> {
    const [row] = await this.deps.db
      .update(groups)
      .set({ ...values, updatedAt: this.deps.clock.now() })
      .where(eq(groups.id, id))
      .returning();
    if (!row) throw new Error('update matched nothing');
    return row;
  }

  /** Live (not trashed) sub-folders of a folder, optionally only those a user owns or joined. */
  async children(
    parentId: string,
    sort: Sort,
    owner: { filter: 'all' | 'owned' | 'joined'; userId: string } = { filter: 'all', userId: '' },
  ): Promise<GroupRow[]> {
    const ownership =
      owner.filter === 'owned'
        ? eq(groups.publisherId, owner.userId)
        : owner.filter === 'joined'
          ? sql`${groups.publisherId} <> ${owner.userId}`
          : undefined;
    return this.deps.db
      .select()
      .from(groups)
      .where(and(eq(groups.parentId, parentId), this.deps.scope.inMode(groups), eq(groups.flag, 'NONE'), ownership))
      .orderBy(...order(sort));
  }

  /** Top-level folders a user publishes. */
  async ownedRoots(userId: string, sort: Sort): Promise<GroupRow[]> {
    return this.deps.db
      .select()
      .from(groups)
      .where(and(isNull(groups.parentId), eq(groups.publisherId, userId), this.deps.scope.live(groups)))
      .orderBy(...order(sort));
  }

  /** Live folders among `ids` whose parent the user cannot reach: shared with them directly. */
  async joinedRoots(ids: string[], reachable: string[], sort: Sort): Promise<GroupRow[]> {
    if (ids.length === 0) return [];
    return this.deps.db
      .select()
      .from(groups)
      .where(
        and(
          inArray(groups.id, ids),
          this.deps.scope.live(groups),
          sql`not (${groups.path}[1:array_length(${groups.path}, 1) - 1] && ${uuidArray(reachable)})`,
        ),
      )
      .orderBy(...order(sort));
  }

  /** Whether the item or any folder above it is in the trash. */
  async inTrash(path: string[]): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ id: groups.id })
      .from(groups)
      .where(and(inArray(groups.id, path), sql`${groups.flag} <> 'NONE'`))
      .limit(1);
    return Boolean(row);
  }

  /** Names of the folders on a path, in path order (the breadcrumb). */
  async crumbs(path: string[]): Promise<{ id: string; name: string }[]> {
    if (path.length === 0) return [];
    const rows = await this.deps.db
      .select({ id: groups.id, name: groups.name })
      .from(groups)
      .where(inArray(groups.id, path));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return path.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  /** How many levels a folder's subtree spans, itself included (trashed sub-folders too: they may come back). */
  async subtreeLevels(group: GroupRow): Promise<number> {
    const [row] = await this.deps.db
      .select({ deepest: sql<number>`max(cardinality(${groups.path}))` })
      .from(groups)
      .where(sql`${groups.path} @> ${uuidArray([group.id])}`);
    return Math.max(group.path.length, Number(row?.deepest ?? 0)) - group.path.length + 1;
  }

  /**
   * Moves a folder: its parent changes and every path in its subtree (folders and projects) swaps
   * the old ancestor prefix for the new one, in one transaction.
   */
  async move(group: GroupRow, newParent: GroupRow | null): Promise<void> {
    const prefix = newParent ? newParent.path : [];
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(groups)
        .set({ parentId: newParent?.id ?? null, updatedAt: this.deps.clock.now() })
        .where(eq(groups.id, group.id));
      const rewrite = sql`${uuidArray(prefix)} || path[array_position(path, ${group.id}::uuid):]`;
      await tx.execute(sql`update ${groups} set path = ${rewrite} where path @> ${uuidArray([group.id])}`);
      await tx.execute(sql`update ${projects} set path = ${rewrite} where path @> ${uuidArray([group.id])}`);
    });
  }

  /** Live folders a user publishes or reaches through a share (for move pickers). */
  async reachable(userId: string, roots: string[], limit: number): Promise<GroupRow[]> {
    return this.deps.db
      .select()
      .from(groups)
      .where(
        and(
          this.deps.scope.live(groups),
          sql`(${groups.publisherId} = ${userId} or ${groups.path} && ${uuidArray(roots)})`,
        ),
      )
      .orderBy(asc(sql`lower(${groups.name})`))
      .limit(limit);
  }

  async delete(id: string): Promise<void> {
    await this.deps.db.delete(groups).where(eq(groups.id, id));
  }
}
