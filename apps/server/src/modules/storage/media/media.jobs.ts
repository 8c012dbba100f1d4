import { z } from 'zod';
import { defineJob, type JobType } from '../../../platform/jobs/job-definition';
import {
  declareStage,
  defineStage,
  stageJob,
  type StageOptions,
  type StageRunnerDeps,
} from '../../../platform/jobs/staged-job';
import type { MediaService } from './media.service';

const versionPayload = z.object({ versionId: z.uuid() });

const processVersionOptions: StageOptions<typeof versionPayload> = {
  name: 'media.process-version',
  schema: versionPayload,
  // One job per version, whoever sends it (an upload, a transfer, a restarted node).
  idOf: ({ versionId }) => versionId,
  // A worker that dies mid-job stops beating: pg-boss runs the job again within a minute or so.
  heartbeatSeconds: 30,
  // Attempts cover dead workers too (each retry after a crash uses one).
  retryLimit: 2,
  expireInSeconds: 3600,
  concurrency: 2,
};

/** Probe, peaks, loudness, thumbnail and preview of one uploaded version: a stage with a heartbeat. */
export const processVersionJob = declareStage(processVersionOptions);

const renderSpectrogramOptions: StageOptions<typeof versionPayload> = {
  name: 'media.render-spectrogram',
  schema: versionPayload,
  idOf: ({ versionId }) => versionId,
  heartbeatSeconds: 30,
  retryLimit: 1,
  expireInSeconds: 600,
  concurrency: 1,
};

/**
 * A version's spectrogram image, rendered once when first asked for (heavy: never inside a
 * request). The request queues it (one job per version) and answers at once; the screen asks again.
 */
export const renderSpectrogramJob = declareStage(renderSpectrogramOptions);

/** Lossy playback previews for versions processed before they existed, or whose encode failed. */
export const backfillLossyPreviewsJob = {
  name: 'media.backfill-lossy-previews',
  schema: z.object({}).passthrough(),
  schedule: '*/10 * * * *',
  retryLimit: 0,
} satisfies JobType;

export const mediaJobs = (media: MediaService, runner: StageRunnerDeps) => [
  stageJob(
    defineStage({ ...processVersionOptions, run: ({ versionId }, context) => media.process(versionId, context) }),
    runner,
  ),
  stageJob(
    defineStage({ ...renderSpectrogramOptions, run: ({ versionId }) => media.ensureSpectrogram(versionId) }),
    runner,
  ),
  defineJob(backfillLossyPreviewsJob, async (_payload, { log }) => {
    const made = await media.backfillLossyPreviews(log);
    if (made > 0) log.info({ made }, 'lossy previews made for older versions');
  }),
];
