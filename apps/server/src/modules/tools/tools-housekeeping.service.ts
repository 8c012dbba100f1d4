import type { Logger } from 'pino';
import { toolStageJob } from './tools-job-types';
import { toolsTaskPrefix, type ToolsDeps } from './tools.deps';

/** A stage's work folder in the temp space: `tool-{sessionId}-{random}` (tools-stage.ts). */
const WORK_FOLDER = /^tool-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-/;

/** The sessions whose stage was running in a process that died, from the work folders it left. */
export function interruptedSessionIds(leftovers: string[]): string[] {
  return [...new Set(leftovers.flatMap((name) => WORK_FOLDER.exec(name)?.[1] ?? []))];
}

const FLAGGED_GRACE_MS = 10 * 60 * 1000;
const UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Hourly: finishes deletions a crash or a store failure left (the task is hidden from its flag on),
 * and removes inputs uploaded a day ago that no task took, with their upload sessions.
 */
export class ToolsHousekeepingService {
  constructor(private readonly deps: ToolsDeps) {}

  /**
   * Runs again, at once, the stages a dead process of this host was running (found by their work
   * folders when the node starts): without it they would wait for their heartbeat to go stale. The
   * job (its id comes from the session) is failed as the dead worker's, so pg-boss retries it now;
   * the retry starts the stage from its start and charges nothing twice (the charge is once per task).
   */
  async requeueInterrupted(sessionIds: string[], log: Logger): Promise<number> {
    let requeued = 0;
    for (const sessionId of sessionIds) {
      const session = await this.deps.repository.session(sessionId);
      // Ended (completed, failed, deleted) by the time the node is back: nothing to take up.
      if (session?.status !== 'RUNNING') continue;
      const jobId = toolStageJob.jobIdOf({ taskId: session.taskId, sessionId });
      if (!(await this.deps.jobs.failRunning(toolStageJob.name, jobId, 'its node restarted'))) continue;
      log.warn({ taskId: session.taskId, sessionId }, 'tool stage interrupted by a restart: retried now');
      requeued += 1;
    }
    return requeued;
  }

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
