import { z } from 'zod';
import type { JobType } from '../../platform/jobs/job-definition';

/**
 * The "what changed" lane of B against A: two decodes side by side, so one at a time per node. Its own
 * file so the service that queues it and the job list that runs it both import it, not each other.
 */
export const computeDifferenceJob = {
  name: 'review.compute-difference',
  schema: z.object({ versionId: z.uuid(), otherVersionId: z.uuid() }),
  retryLimit: 0,
  expireInSeconds: 3600,
  concurrency: 1,
} satisfies JobType;
