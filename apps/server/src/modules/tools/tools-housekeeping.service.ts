import { toolsTaskPrefix, type ToolsDeps } from './tools.deps';

const FLAGGED_GRACE_MS = 10 * 60 * 1000;
const UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Hourly: finishes deletions a crash or a store failure left (the task is hidden from its flag on),
 * and removes inputs uploaded a day ago that no task took, with their upload sessions.
 */
export class ToolsHousekeepingService {
  constructor(private readonly deps: ToolsDeps) {}

  async sweep(): Promise<{ tasks: number; uploads: number }> {
    const { repository, blobs, clock } = this.deps;
    const now = clock.now().getTime();
    const tasks = await repository.flaggedBefore(new Date(now - FLAGGED_GRACE_MS));
    for (const task of tasks) {
      await blobs.deletePrefix(toolsTaskPrefix(task.userId, task.id));
      await blobs.delete(task.inputKey);
      await repository.deleteTask(task.id);
    }
    const uploads = await repository.uploadsBefore(new Date(now - UPLOAD_MAX_AGE_MS));
    for (const upload of uploads) {
      // An open session goes with its parts; a completed one leaves its file, deleted here.
      await this.deps.uploads.abortSession(upload.id).catch(() => undefined);
      await blobs.delete(upload.blobKey);
      await repository.deleteUpload(upload.id);
    }
    return { tasks: tasks.length, uploads: uploads.length };
  }
}
