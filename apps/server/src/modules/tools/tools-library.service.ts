import type { z } from 'zod';
import type { savedTask, saveTaskBody } from '@mixroom/contracts';
import { DomainError } from '../../platform/errors/domain-error';
import type { Actor } from '../../platform/identity/actor';
import type { AttachmentsService, ProjectsService } from '../storage';
import type { UploadsService } from '../uploads';
import type { ToolsDeps } from './tools.deps';
import { downloadableOf, outputFileName, outputsOf } from './tools.presenter';
import type { ToolsService } from './tools.service';

export interface ToolsLibraryDeps {
  tools: ToolsService;
  blobs: ToolsDeps['blobs'];
  items: ToolsDeps['items'];
  uploads: UploadsService;
  projects: ProjectsService;
  attachments: AttachmentsService;
}

/**
 * Saving a task's results back to the library beside the version it came from: as attachments of
 * its project, or as new projects in the same folder, through storage's one import path (a ticket
 * like a browser's upload, so rights, quotas and the media job all apply; the bytes stay inside).
 */
export class ToolsLibraryService {
  constructor(private readonly deps: ToolsLibraryDeps) {}

  async save(actor: Actor, taskId: string, body: z.output<typeof saveTaskBody>): Promise<z.infer<typeof savedTask>> {
    const record = await this.deps.tools.ownedRecord(actor, taskId);
    if (record.task.status !== 'COMPLETED')
      throw DomainError.conflict('The task has not completed yet.', 'TASK_NOT_COMPLETED');
    if (!record.task.inputVersionId)
      throw DomainError.conflict('Only a task started from the library can be saved back to it.', 'NOT_FROM_LIBRARY');
    const { project } = await this.deps.items.version(actor, record.task.inputVersionId, 'edit');
    const chosen = body.outputs
      ? outputsOf(record).filter((o) => body.outputs!.includes(o.kind))
      : downloadableOf(record);
    if (chosen.length === 0) throw DomainError.badRequest('This task has none of these outputs.', 'NO_OUTPUTS');
    const saved: z.infer<typeof savedTask> = { attachmentIds: [], projectIds: [] };
    for (const output of chosen) {
      const fileName = outputFileName(record.task, output.kind);
      const size = output.size;
      const ticket =
        body.as === 'attachments'
          ? await this.deps.attachments.start(actor, project.id, { fileName, size })
          : await this.deps.projects.uploadFile(actor, { groupId: project.groupId, fileName, size });
      await this.deps.projects.importFile(actor, ticket, await this.deps.blobs.get(output.key));
      (body.as === 'attachments' ? saved.attachmentIds : saved.projectIds).push(ticket.project.id);
    }
    return saved;
  }
}
