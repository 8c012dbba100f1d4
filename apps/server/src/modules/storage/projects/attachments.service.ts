import { randomUUID } from 'node:crypto';
import { LIMITS, baseName, projectCapabilities } from '@mixroom/shared';
import type { ProjectItem, UploadTicket } from '@mixroom/contracts';
import { AppError } from '../../../http/app-error';
import type { BlobStore } from '../../../platform/blob/blob-store';
import type { ItemPolicy } from '../../../access/item.policy';
import type { Actor } from '../../../platform/identity/actor';
import type { ProjectsRepository } from './projects.repository';
import type { ProjectsService } from './projects.service';
import type { StorageEvents } from '../storage.events';
import type { StoragePresenter } from '../storage.presenter';
import type { VersionsRepository } from './versions.repository';
import { projectBlobPrefix } from '../../../platform/blob/blob-keys';

export interface AttachmentsServiceDeps {
  projects: ProjectsService;
  projectsRepo: ProjectsRepository;
  versions: VersionsRepository;
  policy: ItemPolicy;
  presenter: StoragePresenter;
  blobs: BlobStore;
  events: StorageEvents;
}

/**
 * Files attached to a project: ANY projects whose parent is the project. They
 * live under the project's path, so whoever may see the project sees them; adding and deleting
 * need the right to edit the project; downloads follow the project's download setting.
 */
export class AttachmentsService {
  constructor(private readonly deps: AttachmentsServiceDeps) {}

  private announce(parentId: string, attachmentId: string, action: string): Promise<void> {
    return this.deps.events.attachment(parentId, { attachmentId, action });
  }

  async list(actor: Actor, parentId: string): Promise<{ items: ProjectItem[]; canEdit: boolean }> {
    const { project, role } = await this.deps.policy.project(actor, parentId);
    const rows = await this.deps.projectsRepo.attachments(project.id);
    const { latest, counts } = await this.deps.versions.latestOf(rows.map((r) => r.id));
    const people = await this.deps.presenter.people([project.publisherId]);
    return {
      items: rows.map((row) =>
        this.deps.presenter.project(row, role, people, latest.get(row.id), counts.get(row.id) ?? 0),
      ),
      canEdit: projectCapabilities(role, project.enableDownload).canEdit,
    };
  }

  /** Opens the upload of a new attachment; it shows once its bytes are in. */
  async start(actor: Actor, parentId: string, input: { fileName: string; size: number }): Promise<UploadTicket> {
    const { project: parent } = await this.deps.policy.project(actor, parentId, 'edit');
    if (parent.parentProjectId) throw AppError.badRequest('Attachments cannot have attachments.', 'NESTED_ATTACHMENT');
    const id = randomUUID();
    const row = await this.deps.projectsRepo.insert({
      id,
      name: baseName(input.fileName).slice(0, LIMITS.nameMax).trim() || input.fileName.slice(0, LIMITS.nameMax),
      type: 'ANY',
      groupId: parent.groupId,
      parentProjectId: parent.id,
      path: [...parent.path, id],
      publisherId: parent.publisherId,
      enableDownload: parent.enableDownload,
      flag: 'CREATE',
      createdBy: actor.userId,
    });
    try {
      const ticket = await this.deps.projects.openVersion(actor, row, {
        name: row.name,
        fileName: input.fileName,
        size: input.size,
      });
      await this.announce(parent.id, id, 'created');
      return ticket;
    } catch (error) {
      await this.deps.projectsRepo.delete(id);
      throw error;
    }
  }

  async delete(actor: Actor, attachmentId: string): Promise<void> {
    const attachment = await this.deps.projectsRepo.find(attachmentId);
    if (!attachment?.parentProjectId) throw AppError.notFound('No such attachment.');
    await this.deps.policy.project(actor, attachment.parentProjectId, 'edit');
    await this.deps.blobs.deletePrefix(projectBlobPrefix(attachment.id));
    await this.deps.projectsRepo.delete(attachment.id);
    await this.announce(attachment.parentProjectId, attachment.id, 'deleted');
  }
}
