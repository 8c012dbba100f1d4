import { LIMITS, projectCapabilities, groupCapabilities, STORAGE_MESSAGES, type Role } from '@mixroom/shared';
import type { StorageItem } from '@mixroom/contracts';
import type { AccessChanges } from '../../../access/access-changes';
import type { ItemPolicy } from '../../../access/item.policy';
import type { Clock } from '../../../platform/clock/clock';
import { AppError } from '../../../http/app-error';
import type { BlobStore } from '../../../platform/blob/blob-store';
import type { Actor } from '../../../platform/identity/actor';
import type { UploadsService } from '../../uploads';
import type { GroupRow, GroupsRepository } from '../folders/groups.repository';
import type { ProjectRow, ProjectsRepository } from '../projects/projects.repository';
import { eventItem, type EventItem, type StorageEvents } from '../storage.events';
import type { StoragePresenter } from '../storage.presenter';
import type { TrashRepository } from './trash.repository';
import type { VersionsRepository } from '../projects/versions.repository';
import { projectBlobPrefix } from '../../../platform/blob/blob-keys';

type Ref = { kind: 'group' | 'project'; id: string };

export const ONLY_PUBLISHER_DELETES = 'Only the publisher can delete this for good.';
type Resolved = { kind: 'group'; row: GroupRow; role: Role } | { kind: 'project'; row: ProjectRow; role: Role };

export interface TrashServiceDeps {
  trash: TrashRepository;
  groups: GroupsRepository;
  projects: ProjectsRepository;
  versions: VersionsRepository;
  policy: ItemPolicy;
  presenter: StoragePresenter;
  events: StorageEvents;
  accessChanges: AccessChanges;
  blobs: BlobStore;
  uploads: Pick<UploadsService, 'abortSession'>;
  clock: Clock;
}

/**
 * Delete moves to the trash (the publisher's: whoever trashed a shared item, it is listed there);
 * recover brings back; delete in the trash removes rows and blobs, for the publisher only.
 */
export class TrashService {
  constructor(private readonly deps: TrashServiceDeps) {}

  /**
   * Loads refs the actor may delete (edit rights), whatever their trash state, with every role in
   * one query.
   */
  private async resolve(actor: Actor, refs: Ref[]): Promise<Resolved[]> {
    const rows: { kind: Ref['kind']; row: GroupRow | ProjectRow }[] = [];
    for (const ref of refs) {
      const row = ref.kind === 'group' ? await this.deps.groups.find(ref.id) : await this.deps.projects.find(ref.id);
      if (!row) throw AppError.notFound('This item does not exist.');
      rows.push({ kind: ref.kind, row });
    }
    const roles = await this.deps.policy.roles(
      actor,
      rows.map((r) => r.row),
    );
    return rows.map(({ kind, row }) => {
      const role = roles.get(row.id) ?? 'NONE';
      const caps = kind === 'group' ? groupCapabilities(role) : projectCapabilities(role, false);
      if (!caps.canDelete) throw AppError.forbidden();
      return kind === 'group' ? { kind, row: row as GroupRow, role } : { kind, row: row as ProjectRow, role };
    });
  }

  private eventItem = (item: Resolved): EventItem =>
    item.kind === 'group' ? eventItem.group(item.row) : eventItem.project(item.row);

  private async setFlag(item: Resolved, flag: 'NONE' | 'DELETE' | 'DELETING', by: string | null) {
    if (item.kind === 'group') await this.deps.trash.setGroupFlag(item.row.id, flag, by);
    else await this.deps.trash.setProjectFlag(item.row.id, flag, by);
    await this.deps.events.changed(this.eventItem(item), flag === 'NONE' ? 'recovered' : 'trashed');
  }

  /** Trashing takes the item away from everyone following it (its review, its folder). */
  async moveToTrash(actor: Actor, refs: Ref[]): Promise<void> {
    for (const item of await this.resolve(actor, refs))
      if (item.row.flag === 'NONE' || item.row.flag === 'CREATE') await this.setFlag(item, 'DELETE', actor.userId);
    await this.deps.accessChanges.forEveryone();
  }

  async recover(actor: Actor, refs: Ref[]): Promise<void> {
    for (const item of await this.resolve(actor, refs))
      if (item.row.flag === 'DELETE') await this.setFlag(item, 'NONE', null);
  }

  async list(actor: Actor, sort: 'newest' | 'alphabetical'): Promise<StorageItem[]> {
    const [groups, projects] = await Promise.all([
      this.deps.trash.groupsOf(actor.userId, sort),
      this.deps.trash.projectsOf(actor.userId, sort),
    ]);
    const people = await this.deps.presenter.people([...groups, ...projects].map((i) => i.publisherId));
    const { latest, counts } = await this.deps.versions.latestOf(projects.map((p) => p.id));
    const roles = await this.deps.policy.roles(actor, [...groups, ...projects]);
    const role = (id: string) => roles.get(id) ?? 'NONE';
    return [
      ...groups.map((g) => this.deps.presenter.group(g, role(g.id), people)),
      ...projects.map((p) =>
        this.deps.presenter.project(p, role(p.id), people, latest.get(p.id), counts.get(p.id) ?? 0),
      ),
    ];
  }

  /**
   * Irreversible: only for items already in the trash, and only by their publisher. An editor's
   * delete puts shared content in the publisher's trash, from which the publisher may still bring
   * it back; nobody but the publisher makes it gone for good.
   */
  async deleteForever(actor: Actor, refs: Ref[]): Promise<void> {
    const items = await this.resolve(actor, refs);
    if (items.some((i) => i.row.publisherId !== actor.userId)) throw AppError.forbidden(ONLY_PUBLISHER_DELETES);
    if (items.some((i) => i.row.flag !== 'DELETE' && i.row.flag !== 'DELETING'))
      throw AppError.badRequest(STORAGE_MESSAGES.notInTrash, 'NOT_IN_TRASH');
    for (const item of items) await this.remove(item, actor.userId);
    await this.deps.accessChanges.forEveryone();
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
    const projectIds = await this.deps.projects.idsUnder(item.row.id);
    // Close uploads still open into what goes, first: no part may land after its files are removed.
    for (const uploadId of await this.deps.versions.openUploadIds(projectIds))
      await this.deps.uploads.abortSession(uploadId);
    for (const id of projectIds) await this.deps.blobs.deletePrefix(projectBlobPrefix(id));
    if (item.kind === 'group') await this.deps.groups.delete(item.row.id);
    else await this.deps.projects.delete(item.row.id);
    await this.deps.events.changed(this.eventItem(item), 'deleted');
  }

  /** The scheduled purge of items trashed more than 30 days ago. */
  async purgeExpired(now = this.deps.clock.now()): Promise<number> {
    const expired = await this.deps.trash.expired(new Date(now.getTime() - LIMITS.trashRetentionDays * 86_400_000));
    const items: Resolved[] = [
      ...expired.groups.map((row) => ({ kind: 'group' as const, row, role: 'OWNER' as const })),
      ...expired.projects.map((row) => ({ kind: 'project' as const, row, role: 'OWNER' as const })),
    ];
    for (const item of items) await this.remove(item, null);
    return items.length;
  }
}
