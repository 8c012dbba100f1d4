import { z } from 'zod';
import { defineJob, type JobType } from '../jobs/job-definition';
import type { Mailer } from './mailer';

/**
 * Mail leaves through the queue, so a slow or down SMTP server never blocks a request. A platform job:
 * accounts, users, sharing and transfers all send mail, and none of them owns it.
 */
export const sendMailJob = {
  name: 'mail.send',
  schema: z.object({
    to: z.email(),
    subject: z.string().min(1).max(300),
    text: z.string().max(100_000),
    html: z.string().max(200_000),
    /**
     * A notification (an invitation, a notice) rather than a mail the account needs (a reset link):
     * not sent to an account that turned e-mail notifications off.
     */
    notice: z.boolean().optional(),
  }),
  retryLimit: 5,
} satisfies JobType;

export const mailJobs = (mailer: Mailer, wantsNotices: (address: string) => Promise<boolean> = async () => true) => [
  defineJob(sendMailJob, async ({ notice, ...mail }) => {
    if (notice && !(await wantsNotices(mail.to))) return;
    await mailer.send(mail);
  }),
];
