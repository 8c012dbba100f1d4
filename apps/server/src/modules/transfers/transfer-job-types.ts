import { z } from 'zod';
import type { JobType } from '../../platform/jobs/job-definition';

/** SHA-256 of one transfer file, streamed from the store once its upload is assembled. */
export const transferChecksumJob = {
  name: 'transfers.checksum',
  schema: z.object({ versionId: z.uuid() }),
  retryLimit: 3,
  expireInSeconds: 3600,
  concurrency: 2,
} satisfies JobType;

/**
 * Hourly housekeeping: files of transfers expired longer than the grace period are purged, and
 * transfers whose upload was abandoned a day ago are removed.
 */
export const transferPurgeJob = {
  name: 'transfers.purge',
  schema: z.object({}).passthrough(),
  schedule: '17 * * * *',
  retryLimit: 0,
} satisfies JobType;

/** Every 10 minutes: the reminder to recipients who have not downloaded, a day before expiry. */
export const transferReminderJob = {
  name: 'transfers.remind',
  schema: z.object({}).passthrough(),
  schedule: '*/10 * * * *',
  retryLimit: 0,
} satisfies JobType;
