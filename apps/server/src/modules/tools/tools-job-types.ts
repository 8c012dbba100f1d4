import { z } from 'zod';
import type { JobType } from '../../platform/jobs/job-definition';

const stagePayload = z.object({ taskId: z.uuid(), sessionId: z.uuid() });

/**
 * One stage (session) of a task. The job's id is the session's (`jobIdOf`, where the queue derives
 * ids), so a second send of the same stage is a no-op; the handler is also a no-op for a session
 * that already completed or failed, so a duplicate or a retry after the commit changes nothing.
 * Separation of a long song takes minutes: the job may run an hour before it is given up.
 */
export const toolStageJob: JobType<typeof stagePayload> & { jobIdOf(payload: z.output<typeof stagePayload>): string } =
  {
    name: 'tools.stage',
    schema: stagePayload,
    retryLimit: 2,
    expireInSeconds: 3600,
    concurrency: 1,
    jobIdOf: (payload) => payload.sessionId,
  };
