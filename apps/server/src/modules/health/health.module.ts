import type { Database } from '../../db/database';
import type { AppModule, CoreDeps } from '../module';
import { healthRoutes } from './health.routes';

/** Health checks: every node answers them, whatever its roles, so a load balancer can probe all. */
export function createHealthModule(core: CoreDeps, deps: { database: Database }): AppModule {
  return {
    name: 'health',
    roles: ['api', 'worker', 'sfu'],
    anyNodeRoutes: [
      (app) =>
        app.register(healthRoutes, {
          database: () => deps.database.ping(),
          storage: () => core.blobs.check(),
          queue: () => core.jobs.check(),
        }),
    ],
    services: {},
  };
}
