import { z } from 'zod';
import type { JobType } from '../../platform/jobs/job-definition';
import { declareStage, type StageOptions } from '../../platform/jobs/staged-job';

const stagePayload = z.object({ taskId: z.uuid(), sessionId: z.uuid() });

export const toolStageOptions: StageOptions<typeof stagePayload> = {
  name: 'tools.stage',
  schema: stagePayload,
  // One job per session, whoever sends it: a second send of the same stage, through the outbox or
  // not, is a no-op.
  idOf: ({ sessionId }) => sessionId,
  // A dead worker's stage stops beating and is retried within about a minute.
  heartbeatSeconds: 30,
  retryLimit: 2,
  // A long separation may run an hour.
  expireInSeconds: 3600,
  concurrency: 1,
};

/**
 * One stage (session) of a task, as a staged job: its id derives from the session's, and its work
 * is a no-op for a session that already completed or failed, so a retry after the completing commit
 * changes nothing. The work binds where the tools services are built (tools.jobs.ts).
 */
export const toolStageJob = declareStage(toolStageOptions);

/** Hourly housekeeping: unfinished deletions and inputs no task took. */
export const toolsSweepJob = {
  name: 'tools.sweep',
  schema: z.object({}).passthrough(),
  schedule: '23 * * * *',
  retryLimit: 1,
  expireInSeconds: 900,
} satisfies JobType;
