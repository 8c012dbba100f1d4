import { defineJob } from '../../platform/jobs/job-definition';
import { computeDifferenceJob } from './difference.job';
import type { DifferenceService } from './difference.service';

export const reviewJobs = (difference: DifferenceService) => [
  defineJob(computeDifferenceJob, (pair, context) => difference.compute(pair, context)),
];
