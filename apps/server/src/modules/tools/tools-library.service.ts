import type { z } from 'zod';
import type { savedTask, saveTaskBody, UploadTicket } from '@mixroom/contracts';
import { DomainError } from '../../platform/errors/domain-error';
import type { Actor } from '../../platform/identity/actor';
import type { AttachmentsService, ProjectsService } from '../storage';
import type { UploadsService } from '../uploads';
import type { ToolsDeps } from './tools.deps';
import { downloadableOf, outputFileName, outputsOf, type StoredOutput } from './tools.presenter';
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
 * its project, or as new projects in the same folder. Storage takes new files only through upload
 * sessions, so the server sends each output the way a browser would (the same signed part URLs, so
 * quotas, rights and the media job all apply), then completes the upload.
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
      await this.send(actor, ticket, output);
      await this.deps.projects.completeUpload(actor, ticket.version.id);
      (body.as === 'attachments' ? saved.attachmentIds : saved.projectIds).push(ticket.project.id);
    }
    return saved;
  }

  /** Sends an output's bytes part by part through the upload's signed URLs. */
  private async send(actor: Actor, ticket: UploadTicket, output: StoredOutput): Promise<void> {
    const { upload } = ticket;
    for (let partNumber = 1; partNumber <= upload.partCount; partNumber++) {
      const start = (partNumber - 1) * upload.partSize;
      const end = Math.min(upload.size, partNumber * upload.partSize) - 1;
      const chunks: Buffer[] = [];
      for await (const chunk of await this.deps.blobs.get(output.key, { start, end })) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      const { url } = await this.deps.uploads.partUrl(actor.userId, upload.id, partNumber);
      const answer = await fetch(url, { method: 'PUT', body: bytes });
      const etag = answer.headers.get('etag');
      if (!answer.ok || !etag) throw DomainError.conflict('The file could not be saved to the library.', 'SAVE_FAILED');
      await this.deps.uploads.recordPart(actor.userId, upload.id, { partNumber, etag, size: bytes.length });
    }
  }
}
