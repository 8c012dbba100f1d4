import { z } from 'zod';
import { defineJob, type JobType } from '../../platform/jobs/job-definition';
import type { PushService } from '../../platform/push/push.service';
import type { PushRepository } from './push.repository';

/** Push messages leave through the queue: a slow push service never delays a request. */
export const sendPushJob = {
  name: 'push.send',
  schema: z.object({
    userId: z.uuid(),
    title: z.string().max(200),
    body: z.string().max(1000),
    url: z.string().max(500),
  }),
  retryLimit: 3,
} satisfies JobType;

export const pushJobs = (
  push: PushService,
  devices: PushRepository,
  /** Whether the user wants push notifications at all (their preference). */
  wantsPush: (userId: string) => Promise<boolean> = async () => true,
) => [
  defineJob(sendPushJob, async ({ userId, title, body, url }) => {
    if (!(await wantsPush(userId))) return;
    const { gone } = await push.send(await devices.devicesOf(userId), { title, body, url });
    for (const deviceId of gone) await devices.remove(userId, deviceId);
  }),
];
