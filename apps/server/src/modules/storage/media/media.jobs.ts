import { z } from 'zod';
import { defineJob, type JobType } from '../../../platform/jobs/job-definition';
import type { MediaService } from './media.service';

/** Probe, peaks, loudness, thumbnail and preview of one uploaded version. */
export const processVersionJob = {
  name: 'media.process-version',
  schema: z.object({ versionId: z.uuid() }),
  retryLimit: 1,
  expireInSeconds: 3600,
  concurrency: 2,
} satisfies JobType;

/** A version's spectrogram image, rendered once when first asked for (heavy: never inside a request). */
export const renderSpectrogramJob = {
  name: 'media.render-spectrogram',
  schema: z.object({ versionId: z.uuid() }),
  retryLimit: 1,
  expireInSeconds: 600,
  concurrency: 1,
} satisfies JobType;

/** Lossy playback previews for versions processed before they existed, or whose encode failed. */
export const backfillLossyPreviewsJob = {
  name: 'media.backfill-lossy-previews',
  schema: z.object({}).passthrough(),
  schedule: '*/10 * * * *',
  retryLimit: 0,
} satisfies JobType;

export const mediaJobs = (media: MediaService) => [
  defineJob(processVersionJob, ({ versionId }, context) => media.process(versionId, context)),
  defineJob(renderSpectrogramJob, ({ versionId }) => media.ensureSpectrogram(versionId)),
  defineJob(backfillLossyPreviewsJob, async (_payload, { log }) => {
    const made = await media.backfillLossyPreviews(log);
    if (made > 0) log.info({ made }, 'lossy previews made for older versions');
  }),
];
