import { defineJob } from '../../platform/jobs/job-definition';
import type { TransferHousekeepingService } from './transfer-housekeeping.service';
import { transferChecksumJob, transferPurgeJob, transferReminderJob } from './transfer-job-types';

export const transfersJobs = (housekeeping: TransferHousekeepingService) => [
  defineJob(transferChecksumJob, ({ versionId }) => housekeeping.checksum(versionId)),
  defineJob(transferPurgeJob, async (_payload, { log }) => {
    const done = await housekeeping.purge();
    if (done.purged + done.abandoned > 0) log.info(done, 'transfers purged');
  }),
  defineJob(transferReminderJob, async (_payload, { log }) => {
    const mails = await housekeeping.remind();
    if (mails > 0) log.info({ mails }, 'transfer reminders sent');
  }),
];
