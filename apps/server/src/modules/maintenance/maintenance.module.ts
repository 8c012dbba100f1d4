import { AttemptLimitsRepository } from '../../platform/security/attempt-limits.repository';
import type { AppModule, CoreDeps } from '../module';
import type { UploadsService } from '../uploads';
import { maintenanceJobs } from './maintenance.jobs';

/** The system's own scheduled chores: stale uploads, expired sign-in counters, database upkeep. */
export function createMaintenanceModule(
  core: CoreDeps,
  deps: { uploads: UploadsService; embedded: boolean },
): AppModule {
  return {
    name: 'maintenance',
    roles: ['worker'],
    jobs: maintenanceJobs({
      db: core.db,
      uploads: deps.uploads,
      attempts: new AttemptLimitsRepository(core.db),
      clock: core.clock,
      embedded: deps.embedded,
    }),
    services: {},
  };
}
