import type { Entitlements } from '../../access/entitlements';
import { defineScheduledJob } from '../../platform/jobs/job-definition';
import type { AppModule, CoreDeps } from '../module';
import { CreditsRepository } from './credits.repository';
import { creditsRoutes } from './credits.routes';
import { CreditsService } from './credits.service';

export type CreditsModule = AppModule<{ credits: CreditsService }>;

/** AI credits: the ledger, monthly grants, spends and refunds, administrators' adjustments. */
export function createCreditsModule(core: CoreDeps, deps: { entitlements: Entitlements }): CreditsModule {
  const credits = new CreditsService({
    repository: new CreditsRepository(core.db),
    entitlements: deps.entitlements,
    clock: core.clock,
    bus: core.bus,
  });
  const jobs = [
    // Daily rather than only on the 1st, so a day the job could not run is made up the next day;
    // users already granted this month are skipped by the query and by the ledger's once-only key.
    defineScheduledJob(
      'credits.monthly-grant',
      '5 0 * * *',
      async ({ log }) => {
        const granted = await credits.grantMonthlyToAll();
        if (granted) log.info({ granted }, 'monthly credits granted');
      },
      { retryLimit: 2 },
    ),
  ];
  return { name: 'credits', routes: [(app) => app.register(creditsRoutes, { credits })], jobs, services: { credits } };
}
