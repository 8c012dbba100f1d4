import { MediaError } from '../../platform/media/ffmpeg';
import { defineJob } from '../../platform/jobs/job-definition';
import type { ToolsStageRunner } from './tools-stage.runner';
import { toolStageJob } from './tools-job-types';

/** What a failed stage tells its owner: the processor's own words, never a tool's paths. */
function reasonOf(error: Error): string {
  if (error instanceof MediaError) return 'The audio could not be processed.';
  return (error.message || 'The processing failed.').slice(0, 300);
}

export const toolsJobs = (runner: ToolsStageRunner) => [
  defineJob(toolStageJob, (payload, { signal, log }) => runner.run(payload, signal, log), {
    onFinalFailure: (payload, error) => runner.fail(payload, reasonOf(error)),
  }),
];
