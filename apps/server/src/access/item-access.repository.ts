import { and, eq, inArray, sql } from 'drizzle-orm';
import { strongestRole, type Role } from '@mixroom/shared';
import type { Db } from '../db/database';
import { groups, memberships } from '../db/schema';
import { queryRows, uuidArray } from '../db/sql';

export interface AccessTarget {
  publisherId: string;
  /** Ancestor ids and the item itself (groups.path / projects.path). */
  path: string[];
}

const fromPermission = (permission: string | null | undefined): Role => (permission === 'EDITOR' ? 'EDITOR' : permission === 'VIEWER' ? 'VIEWER' : 'NONE');

/**
 * Who may do what is derived from three facts: the item's publisher, the publishers of the groups
 * that contain it, and memberships on the item or any ancestor. Access to a group therefore reaches
 * everything inside it, including items created or moved there later.
 */
export class ItemAccessRepository {
  constructor(private readonly db: Db) {}

  async roleFor(userId: string, target: AccessTarget): Promise<Role> {
    if (target.publisherId === userId) return 'OWNER';
    const path = uuidArray(target.path);
    const [row] = await queryRows<{ container_owner: boolean; permission: string | null }>(
      this.db,
      sql`select exists (select 1 from ${groups} where ${groups.id} = any(${path}) and ${groups.publisherId} = ${userId}) as container_owner,
                 (select max(${memberships.permission}) from ${memberships} where ${memberships.userId} = ${userId} and ${memberships.resourceId} = any(${path})) as permission`,
    );
    // A folder's publisher edits what others put in it; 'VIEWER' < 'EDITOR' sorts right for max().
    return strongestRole(row?.container_owner ? 'EDITOR' : 'NONE', fromPermission(row?.permission));
  }

  /** Roles of a folder's children, given the role the actor already has on the folder. */
  async childRoles(userId: string, parentRole: Role, children: { id: string; publisherId: string }[]): Promise<Map<string, Role>> {
    const direct = children.length
      ? await this.db
          .select({ id: memberships.resourceId, permission: memberships.permission })
          .from(memberships)
          .where(
            and(
              eq(memberships.userId, userId),
              inArray(
                memberships.resourceId,
                children.map((c) => c.id),
              ),
            ),
          )
      : [];
    const byId = new Map(direct.map((d) => [d.id, fromPermission(d.permission)]));
    return new Map(children.map((c) => [c.id, strongestRole(parentRole, c.publisherId === userId ? 'OWNER' : 'NONE', byId.get(c.id) ?? 'NONE')]));
  }

  /** Ids whose subtrees the user reaches: groups they publish and items shared with them. */
  async accessRoots(userId: string): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select ${memberships.resourceId} as id from ${memberships} where ${memberships.userId} = ${userId}
          union select ${groups.id} from ${groups} where ${groups.publisherId} = ${userId}`,
    );
    return rows.map((r) => r.id);
  }
}
