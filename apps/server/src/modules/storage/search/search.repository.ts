import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/database';
import { groups, projects } from '../../../db/schema';
import { likePattern, uuidArray } from '../../../db/sql';
import type { ItemScope } from '../../../access/item-scope';

export interface SearchHit {
  kind: 'group' | 'project';
  id: string;
  name: string;
  parentId: string | null;
  parentName: string | null;
}

const escapeLike = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/** Name matches among the live items of one area that a user publishes or reaches through `roots`. */
export class SearchRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: ItemScope,
  ) {}

  /** Names that start with the text (btree index, name order). */
  prefix(text: string): SQL {
    return sql`lower(name) like ${`${escapeLike(text)}%`}`;
  }

  /** Names that contain the text elsewhere (trigram index). */
  contains(text: string): SQL {
    return sql`lower(name) like ${likePattern(text)} and not lower(name) like ${`${escapeLike(text)}%`}`;
  }

  private parentName(parent: SQL | typeof groups.parentId | typeof projects.groupId) {
    return sql<string | null>`(select p.name from ${groups} p where p.id = ${parent})`;
  }

  async folders(userId: string, roots: string[], match: SQL, limit: number): Promise<SearchHit[]> {
    const rows = await this.db
      .select({
        id: groups.id,
        name: groups.name,
        parentId: groups.parentId,
        parentName: this.parentName(groups.parentId),
      })
      .from(groups)
      .where(
        and(
          match,
          this.scope.live(groups),
          or(eq(groups.publisherId, userId), sql`${groups.path} && ${uuidArray(roots)}`),
        ),
      )
      .limit(limit);
    return rows.map((r) => ({ kind: 'group' as const, ...r }));
  }

  async projects(userId: string, roots: string[], match: SQL, limit: number): Promise<SearchHit[]> {
    const rows = await this.db
      .select({
        id: projects.id,
        name: projects.name,
        parentId: projects.groupId,
        parentName: this.parentName(projects.groupId),
      })
      .from(projects)
      .where(
        and(
          match,
          isNull(projects.parentProjectId),
          this.scope.live(projects, { uploading: false }),
          or(eq(projects.publisherId, userId), sql`${projects.path} && ${uuidArray(roots)}`),
        ),
      )
      .limit(limit);
    return rows.map((r) => ({ kind: 'project' as const, ...r }));
  }
}
