import { and, asc, count, desc, eq, inArray, isNull, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { ALL_KNOWN_EXTENSIONS, extensionsOfKind } from '@mixroom/shared';
import type { ListFilters } from '@mixroom/contracts';
import type { Clock } from '../../../platform/clock/clock';
import type { Db, Tx } from '../../../db/database';
import type { ItemScope } from '../../../access/item-scope';
import { groups, projects, versions } from '../../../db/schema';
import { uuidArray } from '../../../db/sql';
import type { Sort } from '../folders/groups.repository';

export type { ProjectRow } from '../../../db/rows';
import type { ProjectRow } from '../../../db/rows';

const order = (sort: Sort) =>
  sort === 'newest'
    ? [desc(projects.updatedAt), asc(projects.id)]
    : [asc(sql`lower(${projects.name})`), asc(projects.id)];

export interface ProjectsRepositoryDeps {
  db: Db;
  /** The area (STORAGE or TRANSFER) every query is bound to. */
  scope: ItemScope;
  clock: Clock;
}

/** Projects of one area (the scope's mode): rows of the other area are never returned. */
export class ProjectsRepository {
  constructor(private readonly deps: ProjectsRepositoryDeps) {}

  async find(id: string): Promise<ProjectRow | null> {
    const [row] = await this.deps.db
      .select()
      .from(projects)
      .where(and(eq(projects.id, id), this.deps.scope.inMode(projects)));
    return row ?? null;
  }

  async insert(values: typeof projects.$inferInsert): Promise<ProjectRow> {
    const [row] = await this.deps.db.insert(projects).values(values).returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  async update(
    id: string,
    values: Partial<typeof projects.$inferInsert>,
    executor: Db | Tx = this.deps.db,
  ): Promise<ProjectRow> {
    const [row] = await executor
      .update(projects)
      .set({ ...values, updatedAt: this.deps.clock.now() })
      .where(eq(projects.id, id))
      .returning();
    if (!row) throw new Error('update matched nothing');
    return row;
  }

  /** The owner and file-kind filters of a listing, in SQL so paging stays exact. */
  private filters(filters: ListFilters, userId: string): SQL[] {
    const where: SQL[] = [];
    if (filters.owner === 'owned') where.push(eq(projects.publisherId, userId));
    if (filters.owner === 'joined') where.push(ne(projects.publisherId, userId));
    if (filters.kind === 'other')
      where.push(
        or(isNull(projects.latestExtension), notInArray(projects.latestExtension, [...ALL_KNOWN_EXTENSIONS]))!,
      );
    else if (filters.kind !== 'all') where.push(inArray(projects.latestExtension, [...extensionsOfKind(filters.kind)]));
    // The verdict a tile shows is its latest version's: the highest number.
    if (filters.approval && filters.approval !== 'all')
      where.push(
        sql`exists (select 1 from ${versions} lv where lv.project_id = ${projects.id} and lv.approval = ${filters.approval} and lv.number = (select max(mv.number) from ${versions} mv where mv.project_id = ${projects.id}))`,
      );
    return where;
  }

  private childrenWhere(groupId: string, filters: ListFilters, userId: string, uploading: boolean) {
    return and(
      eq(projects.groupId, groupId),
      isNull(projects.parentProjectId),
      this.deps.scope.inMode(projects),
      this.deps.scope.ownFlagLive(projects, { uploading }),
      ...this.filters(filters, userId),
    );
  }

  /** One page of a folder's live projects (attachments hang off a project, not a folder). */
  async children(
    groupId: string,
    filters: ListFilters,
    userId: string,
    page: { limit: number; offset: number },
    options: { uploading: boolean } = { uploading: true },
  ): Promise<ProjectRow[]> {
    if (page.limit <= 0) return [];
    return this.deps.db
      .select()
      .from(projects)
      .where(this.childrenWhere(groupId, filters, userId, options.uploading))
      .orderBy(...order(filters.sort))
      .limit(page.limit)
      .offset(page.offset);
  }

  async countChildren(groupId: string, filters: ListFilters, userId: string): Promise<number> {
    const [row] = await this.deps.db
      .select({ n: count() })
      .from(projects)
      .where(this.childrenWhere(groupId, filters, userId, true));
    return row?.n ?? 0;
  }

  async ownedRoots(userId: string, sort: Sort): Promise<ProjectRow[]> {
    return this.deps.db
      .select()
      .from(projects)
      .where(
        and(
          isNull(projects.groupId),
          isNull(projects.parentProjectId),
          eq(projects.publisherId, userId),
          this.deps.scope.live(projects),
        ),
      )
      .orderBy(...order(sort));
  }

  async joinedRoots(ids: string[], reachable: string[], sort: Sort): Promise<ProjectRow[]> {
    if (ids.length === 0) return [];
    return this.deps.db
      .select()
      .from(projects)
      .where(
        and(
          inArray(projects.id, ids),
          isNull(projects.parentProjectId),
          this.deps.scope.live(projects),
          sql`not (${projects.path}[1:array_length(${projects.path}, 1) - 1] && ${uuidArray(reachable)})`,
        ),
      )
      .orderBy(...order(sort));
  }

  /**
   * Every project whose path runs through `id`: a folder's whole subtree, or a project with its
   * attachments. What a permanent delete must clear from the blob store.
   */
  async idsUnder(id: string): Promise<string[]> {
    const rows = await this.deps.db
      .select({ id: projects.id })
      .from(projects)
      .where(sql`${projects.path} @> ${uuidArray([id])}`);
    return rows.map((r) => r.id);
  }

  /** A project's attachments, live or still uploading, newest first. */
  async attachments(parentId: string): Promise<ProjectRow[]> {
    return this.deps.db
      .select()
      .from(projects)
      .where(and(eq(projects.parentProjectId, parentId), inArray(projects.flag, ['NONE', 'CREATE'])))
      .orderBy(desc(projects.updatedAt));
  }

  async attachmentCount(parentId: string): Promise<number> {
    const [row] = await this.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(projects)
      .where(and(eq(projects.parentProjectId, parentId), eq(projects.flag, 'NONE')));
    return row?.n ?? 0;
  }

  /** Attachments follow their project: its folder, its path and its download setting. */
  async syncAttachments(parent: ProjectRow): Promise<void> {
    await this.deps.db
      .update(projects)
      .set({
        groupId: parent.groupId,
        enableDownload: parent.enableDownload,
        path: sql`${uuidArray(parent.path)} || array[${projects.id}]`,
      })
      .where(eq(projects.parentProjectId, parent.id));
  }

  async findMany(ids: string[]): Promise<ProjectRow[]> {
    if (ids.length === 0) return [];
    return this.deps.db
      .select()
      .from(projects)
      .where(and(inArray(projects.id, ids), this.deps.scope.inMode(projects)));
  }

  /**
   * Live, finished projects below a folder (none inside a trashed sub-folder, no attachments), each
   * with the names of the folders between `groupId` and it: what a folder's ZIP holds.
   */
  async subtreeFiles(groupId: string): Promise<{ project: ProjectRow; folders: string[] }[]> {
    const subtree = await this.deps.db
      .select({ id: groups.id, name: groups.name })
      .from(groups)
      .where(
        and(sql`${groups.path} @> ${uuidArray([groupId])}`, this.deps.scope.inMode(groups), eq(groups.flag, 'NONE')),
      );
    const names = new Map(subtree.map((g) => [g.id, g.name]));
    const files = await this.deps.db
      .select()
      .from(projects)
      .where(
        and(
          sql`${projects.path} @> ${uuidArray([groupId])}`,
          this.deps.scope.inMode(projects),
          eq(projects.flag, 'NONE'),
          isNull(projects.parentProjectId),
        ),
      );
    return files.flatMap((project) => {
      const folders = project.path.slice(project.path.indexOf(groupId), -1);
      if (folders.some((id) => !names.has(id))) return []; // inside a trashed sub-folder
      return [{ project, folders: folders.map((id) => names.get(id)!) }];
    });
  }

  async delete(id: string): Promise<void> {
    await this.deps.db.delete(projects).where(eq(projects.id, id));
  }

  async deleteMany(ids: string[]): Promise<void> {
    if (ids.length) await this.deps.db.delete(projects).where(inArray(projects.id, ids));
  }
}
