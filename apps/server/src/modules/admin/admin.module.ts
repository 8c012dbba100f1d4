import type { Entitlements } from '../../access/entitlements';
import type { Tx } from '../../db/database';
import type { AppModule, CoreDeps } from '../module';
import type { CreditsService } from '../credits';
import { AdminOverviewService } from './admin-overview.service';
import { AdminRepository } from './admin.repository';
import { adminRoutes } from './admin.routes';
import { AdminService, type AdminLiveFacts } from './admin.service';

export type AdminModule = AppModule<{ admin: AdminService; overview: AdminOverviewService }>;

export interface AdminModuleDeps {
  entitlements: Entitlements;
  credits: CreditsService;
  /** Ends an account's sessions at the identity provider (nothing to end with an external issuer). */
  endSessions: (tx: Tx, userId: string) => Promise<unknown>;
  startedAt: Date;
  database: 'pglite' | 'postgres';
  live?: AdminLiveFacts;
}

/** The admin area: user management with its audit log, and the server overview. */
export function createAdminModule(core: CoreDeps, deps: AdminModuleDeps): AdminModule {
  const repository = new AdminRepository(core.db);
  const admin = new AdminService({
    repository,
    unitOfWork: core.unitOfWork,
    clock: core.clock,
    bus: core.bus,
    accessChanges: core.accessChanges,
    entitlements: deps.entitlements,
    credits: deps.credits,
    endSessions: deps.endSessions,
    ...(deps.live ? { live: deps.live } : {}),
  });
  const { config } = core;
  const overview = new AdminOverviewService({
    repository,
    jobs: core.jobs,
    clock: core.clock,
    setup: {
      roles: Object.entries(config.roles)
        .filter(([, on]) => on)
        .map(([role]) => role),
      database: deps.database,
      storage: config.blob.driver,
      identity: { mode: config.identity.mode, issuer: config.identity.issuer },
      startedAt: deps.startedAt,
    },
  });
  return {
    name: 'admin',
    routes: [(app) => app.register(adminRoutes, { admin, overview })],
    jobs: [],
    services: { admin, overview },
  };
}
