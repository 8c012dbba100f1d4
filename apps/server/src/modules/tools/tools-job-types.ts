import { z } from 'zod';
import type { JobType } from '../../platform/jobs/job-definition';

const stagePayload = z.object({ taskId: z.uuid(), sessionId: z.uuid() });

/**
 * One stage (session) of a task. The job's id is the session's (`jobIdOf`), so a second send of the
 * same stage, through the outbox or not, is a no-op; the handler is also a no-op for a session that
 * already completed or failed, so a retry after the completing commit changes nothing. The
 * heartbeat has a dead worker's stage retried within about a minute; a long separation may run an
 * hour.
 */
export const toolStageJob = {
  name: 'tools.stage',
  schema: stagePayload,
  retryLimit: 2,
  expireInSeconds: 3600,
  heartbeatSeconds: 30,
  concurrency: 1,
  jobIdOf: (payload: z.output<typeof stagePayload>) => payload.sessionId,
} satisfies JobType<typeof stagePayload>;

/** Hourly housekeeping: unfinished deletions and inputs no task took. */
export const toolsSweepJob = {
  name: 'tools.sweep',
  schema: z.object({}).passthrough(),
  schedule: '23 * * * *',
  retryLimit: 1,
  expireInSeconds: 900,
} satisfies JobType;
