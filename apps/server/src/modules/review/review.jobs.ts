import { z } from 'zod';
import { defineJob, type JobType } from '../../platform/jobs/job-definition';
import type { DifferenceService } from './difference.service';

/** The "what changed" lane of B against A: two decodes side by side, so one at a time per node. */
export const computeDifferenceJob = {
  name: 'review.compute-difference',
  schema: z.object({ versionId: z.uuid(), otherVersionId: z.uuid() }),
  retryLimit: 0,
  expireInSeconds: 3600,
  concurrency: 1,
} satisfies JobType;

export const reviewJobs = (difference: DifferenceService) => [
  defineJob(computeDifferenceJob, (pair, context) => difference.compute(pair, context)),
];
