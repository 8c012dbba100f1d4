import { LIMITS, projectCapabilities, groupCapabilities, STORAGE_MESSAGES, type Role } from '@mixroom/shared';
import type { StorageItem } from '@mixroom/contracts';
import type { ItemAccessRepository } from '../../access/item-access.repository';
import { AppError } from '../../http/app-error';
import type { BlobStore } from '../../platform/blob/blob-store';
import type { Actor } from '../users/users.service';
import type { GroupRow, GroupsRepository } from './groups.repository';
import type { ProjectRow, ProjectsRepository } from './projects.repository';
import type { StorageEvents } from './storage.events';
import type { StoragePresenter } from './storage.presenter';
import type { TrashRepository } from './trash.repository';
import type { VersionsRepository } from './versions.repository';

type Ref = { kind: 'group' | 'project'; id: string };
type Resolved = { kind: 'group'; row: GroupRow; role: Role } | { kind: 'project'; row: ProjectRow; role: Role };

/** Delete moves to the trash; recover brings back; delete in the trash removes rows and blobs. */
export class TrashService {
  constructor(
    private readonly trash: TrashRepository,
    private readonly groups: GroupsRepository,
    private readonly projects: ProjectsRepository,
    private readonly versions: VersionsRepository,
    private readonly access: ItemAccessRepository,
    private readonly presenter: StoragePresenter,
    private readonly events: StorageEvents,
    private readonly blobs: BlobStore,
  ) {}

  /** Loads refs the actor may delete (edit rights), whatever their trash state. */
  private async resolve(actor: Actor, refs: Ref[]): Promise<Resolved[]> {
    const resolved: Resolved[] = [];
    for (const ref of refs) {
      const row = ref.kind === 'group' ? await this.groups.find(ref.id) : await this.projects.find(ref.id);
      if (!row) throw AppError.notFound('This item does not exist.');
      const role = await this.access.roleFor(actor.userId, row);
      const caps = ref.kind === 'group' ? groupCapabilities(role) : projectCapabilities(role, false);
      if (!caps.canDelete) throw AppError.forbidden();
      resolved.push(ref.kind === 'group' ? { kind: 'group', row: row as GroupRow, role } : { kind: 'project', row: row as ProjectRow, role });
    }
    return resolved;
  }

  private parentOf = (item: Resolved) => (item.kind === 'group' ? item.row.parentId : item.row.groupId);

  private async setFlag(item: Resolved, flag: 'NONE' | 'DELETE' | 'DELETING', by: string | null) {
    if (item.kind === 'group') await this.trash.setGroupFlag(item.row.id, flag, by);
    else await this.trash.setProjectFlag(item.row.id, flag, by);
    await this.events.changed([this.parentOf(item)], { itemId: item.row.id, kind: item.kind, action: flag === 'NONE' ? 'recovered' : 'trashed' });
  }

  async moveToTrash(actor: Actor, refs: Ref[]): Promise<void> {
    for (const item of await this.resolve(actor, refs))
      if (item.row.flag === 'NONE' || item.row.flag === 'CREATE') await this.setFlag(item, 'DELETE', actor.userId);
  }

  async recover(actor: Actor, refs: Ref[]): Promise<void> {
    for (const item of await this.resolve(actor, refs)) if (item.row.flag === 'DELETE') await this.setFlag(item, 'NONE', null);
  }

  async list(actor: Actor, sort: 'newest' | 'alphabetical'): Promise<StorageItem[]> {
    const [groups, projects] = await Promise.all([this.trash.groupsOf(actor.userId, sort), this.trash.projectsOf(actor.userId, sort)]);
    const people = await this.presenter.people([...groups, ...projects].map((i) => i.publisherId));
    const { latest, counts } = await this.versions.latestOf(projects.map((p) => p.id));
    const items: StorageItem[] = [];
    for (const g of groups) items.push(this.presenter.group(g, await this.access.roleFor(actor.userId, g), people));
    for (const p of projects)
      items.push(this.presenter.project(p, await this.access.roleFor(actor.userId, p), people, latest.get(p.id), counts.get(p.id) ?? 0));
    return items;
  }

  /** Irreversible: only for items already in the trash. */
  async deleteForever(actor: Actor, refs: Ref[]): Promise<void> {
    const items = await this.resolve(actor, refs);
    if (items.some((i) => i.row.flag !== 'DELETE' && i.row.flag !== 'DELETING')) throw AppError.badRequest(STORAGE_MESSAGES.notInTrash, 'NOT_IN_TRASH');
    for (const item of items) await this.remove(item, actor.userId);
  }

  async empty(actor: Actor): Promise<number> {
    const items = await this.list(actor, 'newest');
    await this.deleteForever(
      actor,
      items.map((i) => ({ kind: i.kind, id: i.id })),
    );
    return items.length;
  }

  /** Rows go (the database cascades to sub-folders, projects and versions) after their blobs. */
  private async remove(item: Resolved, by: string | null): Promise<void> {
    await this.setFlag(item, 'DELETING', by);
    const projectIds = await this.projects.idsUnder(item.row.id);
    for (const id of projectIds) await this.blobs.deletePrefix(`projects/${id}/`);
    if (item.kind === 'group') await this.groups.delete(item.row.id);
    else await this.projects.delete(item.row.id);
    await this.events.changed([this.parentOf(item)], { itemId: item.row.id, kind: item.kind, action: 'deleted' });
  }

  /** The scheduled purge of items trashed more than 30 days ago. */
  async purgeExpired(now = new Date()): Promise<number> {
    const expired = await this.trash.expired(new Date(now.getTime() - LIMITS.trashRetentionDays * 86_400_000));
    const items: Resolved[] = [
      ...expired.groups.map((row) => ({ kind: 'group' as const, row, role: 'OWNER' as const })),
      ...expired.projects.map((row) => ({ kind: 'project' as const, row, role: 'OWNER' as const })),
    ];
    for (const item of items) await this.remove(item, null);
    return items.length;
  }
}
