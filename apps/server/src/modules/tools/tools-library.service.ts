import type { z } from 'zod';
import type { savedTask, saveTaskBody } from '@mixroom/contracts';
import { DomainError } from '../../platform/errors/domain-error';
import type { Actor } from '../../platform/identity/actor';
import type { ToolsService } from './tools.service';

/**
 * Saving a task's results back to the library, beside the version it came from. The storage module
 * takes new files only through browser uploads (multipart sessions completed by the client) today;
 * until it lends a server-side "attach this stored file" door, saving answers 409 and the web offers
 * the downloads instead. Ownership and state are checked first so the refusal is the right one.
 */
export class ToolsLibraryService {
  constructor(private readonly tools: ToolsService) {}

  async save(actor: Actor, taskId: string, _body: z.input<typeof saveTaskBody>): Promise<z.infer<typeof savedTask>> {
    const record = await this.tools.ownedRecord(actor, taskId);
    if (record.task.status !== 'COMPLETED')
      throw DomainError.conflict('The task has not completed yet.', 'TASK_NOT_COMPLETED');
    if (!record.task.inputVersionId)
      throw DomainError.conflict('Only a task started from the library can be saved back to it.', 'NOT_FROM_LIBRARY');
    throw DomainError.conflict(
      'Saving results to the library is not available yet. Please download them instead.',
      'SAVE_NOT_AVAILABLE',
    );
  }
}
