import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
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

const escapeLike = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Case-insensitive substring search over every live item the actor can reach, not only the open
 * folder. Names that start with the text come first, straight from a btree index in name order;
 * other matches fill the rest from the trigram index without sorting every match, which is what
 * keeps a short query fast over 100k items.
 */
export class SearchService {
  constructor(
    private readonly db: Db,
    private readonly access: ItemAccessRepository,
  ) {}

  async search(actor: Actor, text: string, limit: number): Promise<SearchHit[]> {
    const roots = uuidArray(await this.access.accessRoots(actor.userId));
    const prefix = sql`lower(name) like ${`${escapeLike(text)}%`}`;
    const contains = sql`lower(name) like ${likePattern(text)} and not lower(name) like ${`${escapeLike(text)}%`}`;
    const hits: SearchHit[] = [];
    // Trigrams need 3 characters: shorter text matches name starts only, instead of reading every row.
    for (const match of text.length >= 3 ? [prefix, contains] : [prefix]) {
      if (hits.length >= limit) break;
      const remaining = limit - hits.length;
      const [folders, files] = await Promise.all([this.folders(actor, roots, match, remaining), this.projects(actor, roots, match, remaining)]);
      hits.push(...[...folders, ...files].sort((a, b) => a.name.length - b.name.length || a.name.localeCompare(b.name)).slice(0, remaining));
    }
    return hits;
  }

  private parentName(parent: SQL | typeof groups.parentId | typeof projects.groupId) {
    return sql<string | null>`(select p.name from ${groups} p where p.id = ${parent})`;
  }

  private async folders(actor: Actor, roots: SQL, match: SQL, limit: number): Promise<SearchHit[]> {
    const rows = await this.db
      .select({ id: groups.id, name: groups.name, parentId: groups.parentId, parentName: this.parentName(groups.parentId) })
      .from(groups)
      .where(
        and(
          match,
          eq(groups.mode, 'STORAGE'),
          or(eq(groups.publisherId, actor.userId), sql`${groups.path} && ${roots}`),
          sql`not exists (select 1 from ${groups} a where a.id = any(${groups.path}) and a.flag <> 'NONE')`,
        ),
      )
      .limit(limit);
    return rows.map((r) => ({ kind: 'group' as const, ...r }));
  }

  private async projects(actor: Actor, roots: SQL, match: SQL, limit: number): Promise<SearchHit[]> {
    const rows = await this.db
      .select({ id: projects.id, name: projects.name, parentId: projects.groupId, parentName: this.parentName(projects.groupId) })
      .from(projects)
      .where(
        and(
          match,
          isNull(projects.parentProjectId),
          eq(projects.mode, 'STORAGE'),
          eq(projects.flag, 'NONE'),
          or(eq(projects.publisherId, actor.userId), sql`${projects.path} && ${roots}`),
          sql`not exists (select 1 from ${groups} a where a.id = any(${projects.path}) and a.flag <> 'NONE')`,
        ),
      )
      .limit(limit);
    return rows.map((r) => ({ kind: 'project' as const, ...r }));
  }
}
