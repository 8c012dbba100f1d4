import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { strongestRole, type Role } from '@mixroom/shared';
import type { Db } from '../db/database';
import type { GroupRow, ProjectRow, VersionRow } from '../db/rows';
import { groups, memberships, projects, shareLinks, users, versions } from '../db/schema';
import { queryRows, uuidArray } from '../db/sql';
import type { ItemScope } from './item-scope';

export interface AccessTarget {
  id: string;
  publisherId: string;
  /** Ancestor ids and the item itself (groups.path / projects.path). */
  path: string[];
}

export type ShareLinkRow = typeof shareLinks.$inferSelect;

const fromPermission = (permission: string | null | undefined): Role =>
  permission === 'EDITOR' ? 'EDITOR' : permission === 'VIEWER' ? 'VIEWER' : 'NONE';

/**
 * The facts access decisions are made of, and the only database reads the policies make. Who may
 * do what is derived from three facts: the item's publisher, the publishers of the folders that
 * contain it, and memberships on the item or any ancestor. Access to a folder therefore reaches
 * everything inside it, including items created or moved there later. Every lookup is bound to one
 * area (the scope's mode), so an id from another area answers as missing.
 */
export class ItemAccessRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: ItemScope,
  ) {}

  /** A folder of this area and whether it (or a folder above it) is in the trash. */
  async folder(id: string): Promise<{ row: GroupRow; trashed: boolean } | null> {
    const [found] = await this.db
      .select({
        row: groups,
        alive: sql<boolean>`(${this.scope.ownFlagLive(groups, { uploading: false })} and ${this.scope.noTrashedAncestor(groups)})`,
      })
      .from(groups)
      .where(and(eq(groups.id, id), this.scope.inMode(groups)));
    return found ? { row: found.row, trashed: !found.alive } : null;
  }

  /** A project of this area, whether it is gone (trashed itself or under a trashed folder). */
  async project(id: string): Promise<{ row: ProjectRow; trashed: boolean } | null> {
    const [found] = await this.db
      .select({
        row: projects,
        alive: sql<boolean>`(${this.scope.ownFlagLive(projects, { uploading: true })} and ${this.scope.noTrashedAncestor(projects)})`,
      })
      .from(projects)
      .where(and(eq(projects.id, id), this.scope.inMode(projects)));
    return found ? { row: found.row, trashed: !found.alive } : null;
  }

  async version(id: string): Promise<VersionRow | null> {
    const [row] = await this.db.select().from(versions).where(eq(versions.id, id));
    return row ?? null;
  }

  async roleFor(userId: string, target: Omit<AccessTarget, 'id'>): Promise<Role> {
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

  /** Roles on many items in one query (lists, trash, ZIP): never one query per item. */
  async rolesFor(userId: string, targets: AccessTarget[]): Promise<Map<string, Role>> {
    const roles = new Map<string, Role>();
    const others = targets.filter((t) => t.publisherId !== userId);
    for (const t of targets) if (t.publisherId === userId) roles.set(t.id, 'OWNER');
    if (others.length === 0) return roles;
    const ids = uuidArray(others.map((t) => t.id));
    const rows = await queryRows<{ id: string; container_owner: boolean; permission: string | null }>(
      this.db,
      sql`select t.id,
                 exists (select 1 from ${groups} g where g.id = any(t.path) and g.publisher_id = ${userId}) as container_owner,
                 (select max(m.permission) from ${memberships} m where m.user_id = ${userId} and m.resource_id = any(t.path)) as permission
          from (select id, path from ${groups} where id = any(${ids}) union all select id, path from ${projects} where id = any(${ids})) t`,
    );
    for (const row of rows)
      roles.set(row.id, strongestRole(row.container_owner ? 'EDITOR' : 'NONE', fromPermission(row.permission)));
    for (const t of others) if (!roles.has(t.id)) roles.set(t.id, 'NONE');
    return roles;
  }

  /** Roles of a folder's children, given the role the actor already has on the folder. */
  async childRoles(
    userId: string,
    parentRole: Role,
    children: { id: string; publisherId: string }[],
  ): Promise<Map<string, Role>> {
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
    return new Map(
      children.map((c) => [
        c.id,
        strongestRole(parentRole, c.publisherId === userId ? 'OWNER' : 'NONE', byId.get(c.id) ?? 'NONE'),
      ]),
    );
  }

  /** Ids whose subtrees the user reaches: folders they publish and items shared with them. */
  async accessRoots(userId: string): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select ${memberships.resourceId} as id from ${memberships} where ${memberships.userId} = ${userId}
          union select ${groups.id} from ${groups} where ${groups.publisherId} = ${userId}`,
    );
    return rows.map((r) => r.id);
  }

  /**
   * Everyone who may see an item: its publisher, the publishers of the folders above it, and the
   * members of it or of any folder above it.
   */
  async audience(target: Omit<AccessTarget, 'id'>): Promise<string[]> {
    const path = uuidArray(target.path);
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select ${groups.publisherId} as id from ${groups} where ${groups.id} = any(${path})
          union select ${memberships.userId} from ${memberships} where ${memberships.resourceId} = any(${path})`,
    );
    return [...new Set([target.publisherId, ...rows.map((r) => r.id)])];
  }

  /** Users given any of these items directly (they see them at their root). */
  async directMembers(itemIds: string[]): Promise<string[]> {
    if (itemIds.length === 0) return [];
    const rows = await this.db
      .selectDistinct({ userId: memberships.userId })
      .from(memberships)
      .where(inArray(memberships.resourceId, itemIds));
    return rows.map((r) => r.userId);
  }

  /**
   * Whether an account may publish now: not disabled by an administrator, not being deleted. What it
   * handed out to people without an account (public links) answers only while it may.
   */
  async accountActive(userId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.disabledAt), isNull(users.deletionRequestedAt)));
    return Boolean(row);
  }

  async activePublicLinkToken(type: 'group' | 'project', id: string): Promise<string | null> {
    const [row] = await this.db
      .select({ token: shareLinks.token })
      .from(shareLinks)
      .where(
        and(
          eq(shareLinks.resourceId, id),
          eq(shareLinks.resourceType, type),
          eq(shareLinks.kind, 'public'),
          eq(shareLinks.active, true),
        ),
      )
      .limit(1);
    return row?.token ?? null;
  }

  async shareLink(token: string): Promise<ShareLinkRow | null> {
    const [row] = await this.db.select().from(shareLinks).where(eq(shareLinks.token, token));
    return row ?? null;
  }

  async activeInviteFor(resourceId: string, code: string): Promise<boolean> {
    const [row] = await this.db
      .select({ token: shareLinks.token })
      .from(shareLinks)
      .where(
        and(
          eq(shareLinks.token, code),
          eq(shareLinks.resourceId, resourceId),
          eq(shareLinks.kind, 'invite'),
          eq(shareLinks.active, true),
        ),
      );
    return Boolean(row);
  }
}
