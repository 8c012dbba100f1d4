import { MediaError } from '../../platform/media/ffmpeg';
import { defineJob } from '../../platform/jobs/job-definition';
import type { ToolsStageRunner } from './tools-stage.runner';
import type { ToolsHousekeepingService } from './tools-housekeeping.service';
import { toolStageJob, toolsSweepJob } from './tools-job-types';

/** What a failed stage tells its owner: the processor's own words, never a tool's paths. */
function reasonOf(error: Error): string {
  if (error instanceof MediaError) return 'The audio could not be processed.';
  return (error.message || 'The processing failed.').slice(0, 300);
}

export const toolsJobs = (runner: ToolsStageRunner, housekeeping: ToolsHousekeepingService) => [
  defineJob(toolStageJob, (payload, { signal, log }) => runner.run(payload, signal, log), {
    onFinalFailure: (payload, error) => runner.fail(payload, reasonOf(error)),
  }),
  defineJob(toolsSweepJob, async (_payload, { log }) => {
    const swept = await housekeeping.sweep();
    if (swept.tasks + swept.uploads > 0) log.info(swept, 'tools swept');
  }),
];
