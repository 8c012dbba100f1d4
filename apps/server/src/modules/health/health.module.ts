import type { Database } from '../../db/database';
import type { AppModule, CoreDeps } from '../module';
import { healthRoutes } from './health.routes';
import { startProcessStats } from './process-stats';

/** Health checks: every node answers them, whatever its roles, so a load balancer can probe all. */
export function createHealthModule(core: CoreDeps, deps: { database: Database }): AppModule {
  const stats = startProcessStats();
  return {
    name: 'health',
    roles: ['api', 'worker', 'sfu'],
    anyNodeRoutes: [
      (app) =>
        app.register(healthRoutes, {
          database: () => deps.database.ping(),
          storage: () => core.blobs.check(),
          queue: () => core.jobs.check(),
          process: () => stats.read(),
        }),
    ],
    onStop: async () => stats.stop(),
    services: {},
  };
}
