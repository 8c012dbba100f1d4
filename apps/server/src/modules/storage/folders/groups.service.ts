import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  fileKind,
  FOLDER_TREE_LIMITS,
  FOLDER_TREE_MESSAGES,
  groupCapabilities,
  STORAGE_MESSAGES,
  type Role,
} from '@mixroom/shared';
import type { GroupItem, Listing, ListQuery } from '@mixroom/contracts';
import type { AccessChanges } from '../../../access/access-changes';
import { NOT_AUTHORIZED_GROUP, type ItemNeed, type ItemPolicy, type ResolvedFolder } from '../../../access/item.policy';
import { AppError } from '../../../http/app-error';
import type { Actor } from '../../../platform/identity/actor';
import type { GroupRow, GroupsRepository } from './groups.repository';
import type { ProjectRow, ProjectsRepository } from '../projects/projects.repository';
import { eventItem, type StorageEvents } from '../storage.events';
import type { StoragePresenter } from '../storage.presenter';
import type { VersionsRepository } from '../projects/versions.repository';

export { NOT_AUTHORIZED_GROUP };

export interface GroupsServiceDeps {
  groups: GroupsRepository;
  projects: ProjectsRepository;
  versions: VersionsRepository;
  policy: ItemPolicy;
  presenter: StoragePresenter;
  events: StorageEvents;
  accessChanges: AccessChanges;
}

/** Folders: listing, creation, rename, move and colour, with every access check. */
export class GroupsService {
  constructor(private readonly deps: GroupsServiceDeps) {}

  /** A live folder and the actor's role on it, as the item policy decides. */
  async resolve(actor: Actor, id: string, need: ItemNeed = 'view'): Promise<ResolvedFolder> {
    return this.deps.policy.folder(actor, id, need);
  }

  /**
   * A folder's content, a page at a time: folders first (all of them on the first page), then
   * projects. The root lists what the actor publishes there and what was shared with them directly.
   */
  async list(actor: Actor, groupId: string | null, query: ListQuery): Promise<Listing> {
    const { offset, limit, ...filters } = query;
    if (!groupId) return this.listRoot(actor, query);
    const current = await this.resolve(actor, groupId);
    const folders = await this.deps.groups.children(groupId, filters.sort, {
      filter: filters.owner,
      userId: actor.userId,
    });
    const folderPage = folders.slice(offset, offset + limit);
    const projectOffset = Math.max(0, offset - folders.length);
    const [files, projectTotal] = await Promise.all([
      this.deps.projects.children(groupId, filters, actor.userId, {
        limit: limit - folderPage.length,
        offset: projectOffset,
      }),
      this.deps.projects.countChildren(groupId, filters, actor.userId),
    ]);
    const roles = await this.deps.policy.childRoles(actor, current.role, [...folderPage, ...files]);
    const total = folders.length + projectTotal;
    return this.page(actor, current, folderPage, files, roles, total, offset);
  }

  private async listRoot(actor: Actor, query: ListQuery): Promise<Listing> {
    const { offset, limit, ...filters } = query;
    const reachable = await this.deps.policy.accessRoots(actor);
    const [ownedFolders, joinedFolders, ownedFiles, joinedFiles] = await Promise.all([
      this.deps.groups.ownedRoots(actor.userId, filters.sort),
      this.deps.groups.joinedRoots(reachable, reachable, filters.sort),
      this.deps.projects.ownedRoots(actor.userId, filters.sort),
      this.deps.projects.joinedRoots(reachable, reachable, filters.sort),
    ]);
    const owned = (publisherId: string) =>
      filters.owner === 'owned'
        ? publisherId === actor.userId
        : filters.owner === 'joined'
          ? publisherId !== actor.userId
          : true;
    const folders = dedupe([...ownedFolders, ...joinedFolders]).filter((g) => owned(g.publisherId));
    const files = await this.withApproval(
      dedupe([...ownedFiles, ...joinedFiles]).filter(
        (p) => owned(p.publisherId) && (filters.kind === 'all' || fileKind(p.latestExtension) === filters.kind),
      ),
      filters.approval,
    );
    const pageItems = [...folders, ...files].slice(offset, offset + limit);
    // A root item is there through its own publisher or a membership on itself (its parent is out
    // of reach), so one batched lookup gives every role on the page.
    const roles = await this.deps.policy.childRoles(actor, 'NONE', pageItems);
    const folderIds = new Set(folders.map((f) => f.id));
    return this.page(
      actor,
      null,
      pageItems.filter((i): i is GroupRow => folderIds.has(i.id)),
      pageItems.filter((i): i is ProjectRow => !folderIds.has(i.id)),
      roles,
      folders.length + files.length,
      offset,
    );
  }

  /** Projects whose latest version carries the verdict asked for (all of them without one). */
  private async withApproval(files: ProjectRow[], approval: ListQuery['approval']): Promise<ProjectRow[]> {
    if (!approval || approval === 'all') return files;
    const { latest } = await this.deps.versions.latestOf(files.map((p) => p.id));
    return files.filter((p) => latest.get(p.id)?.approval === approval);
  }

  private async page(
    actor: Actor,
    current: { group: GroupRow; role: Role } | null,
    folders: GroupRow[],
    files: ProjectRow[],
    roles: Map<string, Role>,
    total: number,
    offset: number,
  ): Promise<Listing> {
    const people = await this.deps.presenter.people(
      [...folders, ...files].map((i) => i.publisherId).concat(current ? [current.group.publisherId] : []),
      [...folders, ...files],
    );
    const { latest, counts } = await this.deps.versions.latestOf(files.map((p) => p.id));
    const thumbnails = await this.deps.presenter.thumbnails(latest.values());
    const role = (id: string): Role => roles.get(id) ?? 'NONE';
    const items = [
      ...folders.map((g) => this.deps.presenter.group(g, role(g.id), people)),
      ...files.map((p) =>
        this.deps.presenter.project(p, role(p.id), people, latest.get(p.id), counts.get(p.id) ?? 0, thumbnails),
      ),
    ];
    const nextOffset = offset + items.length < total ? offset + items.length : null;
    return {
      group: current ? this.deps.presenter.group(current.group, current.role, people) : null,
      breadcrumb: current ? await this.deps.groups.crumbs(current.group.path) : [],
      capabilities: current ? groupCapabilities(current.role) : groupCapabilities('OWNER'),
      items,
      total,
      nextOffset,
    };
  }

  /** A folder inside `parentId` (or at the root). Inside a folder it belongs to that folder's publisher. */
  async create(
    actor: Actor,
    input: { name: string; parentId: string | null; color?: string | null | undefined },
  ): Promise<GroupItem> {
    const parent = input.parentId ? await this.resolve(actor, input.parentId, 'edit') : null;
    if ((parent?.group.path.length ?? 0) >= FOLDER_TREE_LIMITS.depthMax)
      throw AppError.badRequest(FOLDER_TREE_MESSAGES.tooDeep, 'FOLDER_TOO_DEEP');
    const id = randomUUID();
    const row = await this.deps.groups.insert({
      id,
      name: input.name,
      parentId: parent?.group.id ?? null,
      path: [...(parent?.group.path ?? []), id],
      publisherId: parent?.group.publisherId ?? actor.userId,
      color: input.color ?? null,
      createdBy: actor.userId,
    });
    await this.deps.events.changed(eventItem.group(row), 'created');
    const role = parent ? (parent.group.publisherId === actor.userId ? 'OWNER' : parent.role) : 'OWNER';
    return this.deps.presenter.group(row, role, await this.deps.presenter.people([row.publisherId]));
  }

  async update(
    actor: Actor,
    id: string,
    input: { name?: string | undefined; parentId?: string | null | undefined; color?: string | null | undefined },
  ): Promise<GroupItem> {
    const { group, role } = await this.resolve(actor, id, 'edit');
    const moving = input.parentId !== undefined && input.parentId !== group.parentId;
    if (moving) await this.move(actor, group, input.parentId ?? null);
    const patch = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.color !== undefined ? { color: input.color } : {}),
    };
    const row = await this.deps.groups.update(id, patch);
    await this.deps.events.changed(eventItem.group(row), 'updated', group.parentId);
    // Who reaches the subtree changed with its new ancestors.
    if (moving) await this.deps.accessChanges.forEveryone();
    return this.deps.presenter.group(row, role, await this.deps.presenter.people([row.publisherId]));
  }

  /** Never into itself or a descendant; the destination as the policy allows (same publisher, edit rights). */
  private async move(actor: Actor, group: GroupRow, parentId: string | null): Promise<void> {
    if (parentId === group.id) throw AppError.badRequest(STORAGE_MESSAGES.moveIntoItself, 'MOVE_INTO_ITSELF');
    const target = await this.deps.policy.moveTarget(actor, group, parentId);
    if (target?.path.includes(group.id)) throw AppError.badRequest(STORAGE_MESSAGES.moveIntoItself, 'MOVE_INTO_ITSELF');
    // A move keeps the subtree's shape: its deepest folder must still be within the depth limit.
    if ((target?.path.length ?? 0) + (await this.deps.groups.subtreeLevels(group)) > FOLDER_TREE_LIMITS.depthMax)
      throw AppError.badRequest(FOLDER_TREE_MESSAGES.tooDeep, 'FOLDER_TOO_DEEP');
    await this.deps.groups.move(group, target);
  }

  /** Folders the actor can put things in, each with its full path for a picker. */
  async folders(actor: Actor): Promise<{ id: string; parentId: string | null; path: string }[]> {
    const rows = await this.deps.groups.reachable(actor.userId, await this.deps.policy.accessRoots(actor), 5000);
    const names = new Map(rows.map((r) => [r.id, r.name]));
    const roles = await this.deps.policy.roles(actor, rows);
    return rows
      .filter((row) => groupCapabilities(roles.get(row.id) ?? 'NONE').canCreate)
      .map((row) => ({
        id: row.id,
        parentId: row.parentId,
        path: row.path.map((id) => names.get(id) ?? '…').join(' / '),
      }))
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  /**
   * Creates the folders of a dropped tree that do not exist yet, below `parentId`, and returns the
   * id of every path ("Live/Drums" → id). Existing folders with the same name are reused. The
   * contract bounds the tree (depth, folders per request); here the whole tree must also fit below
   * the parent's own depth, decided before anything is created.
   */
  async ensureFolders(actor: Actor, parentId: string | null, paths: string[]): Promise<Record<string, string>> {
    // The parent is checked first: existing sub-folders must not reveal their ids to outsiders.
    const base = parentId ? (await this.resolve(actor, parentId, 'edit')).group.path.length : 0;
    const prefixes = new Map<string, string[]>();
    for (const path of paths) {
      const segments = path.split('/');
      if (base + segments.length > FOLDER_TREE_LIMITS.depthMax)
        throw AppError.badRequest(FOLDER_TREE_MESSAGES.tooDeep, 'FOLDER_TOO_DEEP');
      for (let depth = 1; depth <= segments.length; depth++) {
        const prefix = segments.slice(0, depth);
        prefixes.set(prefix.join('/'), prefix);
      }
    }
    const sorted = [...prefixes.entries()].sort(([, a], [, b]) => a.length - b.length);
    const ids: Record<string, string> = {};
    // Each parent's children are read once, not once per new folder (a wide drop stays linear).
    const childrenOf = new Map<string | null, Map<string, string>>();
    for (const [path, segments] of sorted) {
      const name = segments.at(-1)!.trim();
      const parent = segments.length > 1 ? ids[segments.slice(0, -1).join('/')]! : parentId;
      let children = childrenOf.get(parent);
      if (!children) {
        const rows = parent
          ? await this.deps.groups.children(parent, 'alphabetical')
          : await this.deps.groups.ownedRoots(actor.userId, 'alphabetical');
        children = new Map(rows.toReversed().map((g) => [g.name, g.id]));
        childrenOf.set(parent, children);
      }
      let id = children.get(name);
      if (!id) {
        // The embedded database answers within the same turn of the event loop: without a turn
        // between folders, a large drop would hold every other request (health checks too) until done.
        await nextTurn();
        id = (await this.create(actor, { name, parentId: parent })).id;
        children.set(name, id);
        childrenOf.set(id, new Map());
      }
      ids[path] = id;
    }
    return ids;
  }
}

function dedupe<T extends { id: string }>(rows: T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
}
