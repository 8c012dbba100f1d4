import { and, asc, count, desc, eq, inArray, isNull, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { ALL_KNOWN_EXTENSIONS, extensionsOfKind } from '@mixroom/shared';
import type { ListFilters } from '@mixroom/contracts';
import type { Db } from '../../db/database';
import { projects } from '../../db/schema';
import { uuidArray } from '../../db/sql';
import type { Sort } from './groups.repository';

export type ProjectRow = typeof projects.$inferSelect;

const order = (sort: Sort) => (sort === 'newest' ? [desc(projects.updatedAt), asc(projects.id)] : [asc(sql`lower(${projects.name})`), asc(projects.id)]);

export class ProjectsRepository {
  constructor(private readonly db: Db) {}

  async find(id: string): Promise<ProjectRow | null> {
    const [row] = await this.db.select().from(projects).where(eq(projects.id, id));
    return row ?? null;
  }

  async insert(values: typeof projects.$inferInsert): Promise<ProjectRow> {
    const [row] = await this.db.insert(projects).values(values).returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  async update(id: string, values: Partial<typeof projects.$inferInsert>): Promise<ProjectRow> {
    const [row] = await this.db
      .update(projects)
      .set({ ...values, updatedAt: new Date() })
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
    if (filters.kind === 'other') where.push(or(isNull(projects.latestExtension), notInArray(projects.latestExtension, [...ALL_KNOWN_EXTENSIONS]))!);
    else if (filters.kind !== 'all') where.push(inArray(projects.latestExtension, [...extensionsOfKind(filters.kind)]));
    return where;
  }

  private childrenWhere(groupId: string, filters: ListFilters, userId: string) {
    return and(
      eq(projects.groupId, groupId),
      isNull(projects.parentProjectId),
      sql`${projects.flag} <> 'DELETE' and ${projects.flag} <> 'DELETING'`,
      ...this.filters(filters, userId),
    );
  }

  /** One page of a folder's live projects (attachments hang off a project, not a folder). */
  async children(groupId: string, filters: ListFilters, userId: string, page: { limit: number; offset: number }): Promise<ProjectRow[]> {
    if (page.limit <= 0) return [];
    return this.db
      .select()
      .from(projects)
      .where(this.childrenWhere(groupId, filters, userId))
      .orderBy(...order(filters.sort))
      .limit(page.limit)
      .offset(page.offset);
  }

  async countChildren(groupId: string, filters: ListFilters, userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(projects)
      .where(this.childrenWhere(groupId, filters, userId));
    return row?.n ?? 0;
  }

  async ownedRoots(userId: string, sort: Sort): Promise<ProjectRow[]> {
    return this.db
      .select()
      .from(projects)
      .where(
        and(
          isNull(projects.groupId),
          isNull(projects.parentProjectId),
          eq(projects.publisherId, userId),
          eq(projects.mode, 'STORAGE'),
          sql`${projects.flag} <> 'DELETE' and ${projects.flag} <> 'DELETING'`,
        ),
      )
      .orderBy(...order(sort));
  }

  async joinedRoots(ids: string[], reachable: string[], sort: Sort): Promise<ProjectRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(projects)
      .where(
        and(
          inArray(projects.id, ids),
          sql`${projects.flag} <> 'DELETE' and ${projects.flag} <> 'DELETING'`,
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
    const rows = await this.db
      .select({ id: projects.id })
      .from(projects)
      .where(sql`${projects.path} @> ${uuidArray([id])}`);
    return rows.map((r) => r.id);
  }

  /** A project's attachments, live or still uploading, newest first. */
  async attachments(parentId: string): Promise<ProjectRow[]> {
    return this.db
      .select()
      .from(projects)
      .where(and(eq(projects.parentProjectId, parentId), inArray(projects.flag, ['NONE', 'CREATE'])))
      .orderBy(desc(projects.updatedAt));
  }

  async attachmentCount(parentId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(projects)
      .where(and(eq(projects.parentProjectId, parentId), eq(projects.flag, 'NONE')));
    return row?.n ?? 0;
  }

  /** Attachments follow their project: its folder, its path and its download setting. */
  async syncAttachments(parent: ProjectRow): Promise<void> {
    await this.db
      .update(projects)
      .set({
        groupId: parent.groupId,
        enableDownload: parent.enableDownload,
        path: sql`${uuidArray(parent.path)} || array[${projects.id}]`,
      })
      .where(eq(projects.parentProjectId, parent.id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(projects).where(eq(projects.id, id));
  }

  async deleteMany(ids: string[]): Promise<void> {
    if (ids.length) await this.db.delete(projects).where(inArray(projects.id, ids));
  }
}
