import { defineJob } from '../../platform/jobs/job-definition';
import { stageJob, type StageRunnerDeps } from '../../platform/jobs/staged-job';
import type { ToolsHousekeepingService } from './tools-housekeeping.service';
import { toolsSweepJob } from './tools-job-types';
import { toolStage, type ToolsStageWork } from './tools-stage';

export const toolsJobs = (stages: ToolsStageWork, runner: StageRunnerDeps, housekeeping: ToolsHousekeepingService) => [
  stageJob(toolStage(stages), runner),
  defineJob(toolsSweepJob, async (_payload, { log }) => {
    const swept = await housekeeping.sweep();
    if (swept.tasks + swept.uploads > 0) log.info(swept, 'tools swept');
  }),
];
