import { z } from 'zod';
import { EVENT_TYPES } from '@mixroom/contracts';
import { defineJob, type JobType } from '../../platform/jobs/job-definition';
import type { Clock } from '../../platform/clock/clock';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { BillingRepository } from './billing.repository';

/** Every 5 minutes: users whose plan grant ended since are told, so open screens show the plan they have now. */
export const planEndingsJob = {
  name: 'plans.endings',
  schema: z.object({}).passthrough(),
  schedule: '*/5 * * * *',
  retryLimit: 0,
} satisfies JobType;

/**
 * A grant with an end date stops counting the moment the clock passes it (entitlements read the
 * clock); this tells the user's open tabs and the administrators' grid, which otherwise would show
 * the old plan until their next fetch.
 */
export class PlanEndings {
  constructor(private readonly deps: { repository: BillingRepository; clock: Clock; bus: EventBus }) {}

  async announce(): Promise<number> {
    const users = await this.deps.repository.announceEndedGrants(this.deps.clock.now());
    for (const userId of users) {
      await this.deps.bus.publish({ topic: `user:${userId}`, type: EVENT_TYPES.userUpdated, data: { userId } });
      await this.deps.bus.publish({ topic: 'admin', type: EVENT_TYPES.userUpdated, data: { userId } });
    }
    return users.length;
  }

  job() {
    return defineJob(planEndingsJob, async (_payload, { log }) => {
      const told = await this.announce();
      if (told > 0) log.info({ users: told }, 'plan endings told');
    });
  }
}
