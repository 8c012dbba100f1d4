import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { groups, projects } from '../../db/schema';
import { likePattern, uuidArray } from '../../db/sql';
import type { ItemAccessRepository } from '../../access/item-access.repository';
import type { Actor } from '../users/users.service';

export interface SearchHit {
  kind: 'group' | 'project';
  id: string;
  name: string;
  parentId: string | null;
  parentName: string | null;
}

/**
 * Case-insensitive substring search over every live item the actor can reach, not only the open
 * folder. The trigram indexes on lower(name) keep it fast at 100k items.
 */
export class SearchService {
  constructor(
    private readonly db: Db,
    private readonly access: ItemAccessRepository,
  ) {}

  async search(actor: Actor, text: string, limit: number): Promise<SearchHit[]> {
    const roots = uuidArray(await this.access.accessRoots(actor.userId));
    const pattern = likePattern(text);
    const parent = sql<string | null>`(select p.name from ${groups} p where p.id = `;
    const notTrashed = (path: typeof groups.path | typeof projects.path) =>
      sql`not exists (select 1 from ${groups} a where a.id = any(${path}) and a.flag <> 'NONE')`;
    const rank = (name: typeof groups.name | typeof projects.name) =>
      sql`case when lower(${name}) like ${`${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} then 0 else 1 end, length(${name})`;
    const [folderHits, projectHits] = await Promise.all([
      this.db
        .select({ id: groups.id, name: groups.name, parentId: groups.parentId, parentName: sql<string | null>`${parent}${groups.parentId})` })
        .from(groups)
        .where(
          and(
            sql`lower(${groups.name}) like ${pattern}`,
            eq(groups.mode, 'STORAGE'),
            or(eq(groups.publisherId, actor.userId), sql`${groups.path} && ${roots}`),
            notTrashed(groups.path),
          ),
        )
        .orderBy(rank(groups.name))
        .limit(limit),
      this.db
        .select({ id: projects.id, name: projects.name, parentId: projects.groupId, parentName: sql<string | null>`${parent}${projects.groupId})` })
        .from(projects)
        .where(
          and(
            sql`lower(${projects.name}) like ${pattern}`,
            isNull(projects.parentProjectId),
            eq(projects.mode, 'STORAGE'),
            eq(projects.flag, 'NONE'),
            or(eq(projects.publisherId, actor.userId), sql`${projects.path} && ${roots}`),
            notTrashed(projects.path),
          ),
        )
        .orderBy(rank(projects.name))
        .limit(limit),
    ]);
    return [...folderHits.map((h) => ({ kind: 'group' as const, ...h })), ...projectHits.map((h) => ({ kind: 'project' as const, ...h }))]
      .sort(
        (a, b) =>
          Number(!a.name.toLowerCase().startsWith(text.toLowerCase())) - Number(!b.name.toLowerCase().startsWith(text.toLowerCase())) ||
          a.name.length - b.name.length,
      )
      .slice(0, limit);
  }
}
