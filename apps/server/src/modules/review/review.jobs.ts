import { stageJob, type StageRunnerDeps } from '../../platform/jobs/staged-job';
import type { DifferenceService } from './difference.service';

export const reviewJobs = (difference: DifferenceService, runner: StageRunnerDeps) => [
  stageJob(difference.stage, runner),
];
