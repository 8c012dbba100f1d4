import type { ServerOverview } from '@mixroom/contracts';
import { APP_VERSION } from '@mixroom/shared';
import { assertAdmin } from '../../access/admin.policy';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { AdminRepository } from './admin.repository';

export interface OverviewDeps {
  repository: AdminRepository;
  jobs: Pick<JobQueue, 'stats'>;
  clock: Clock;
  /** How this node runs: fixed at start. */
  setup: {
    roles: string[];
    database: ServerOverview['database']['driver'];
    storage: ServerOverview['storage']['driver'];
    identity: ServerOverview['identity'];
    startedAt: Date;
  };
}

/** The server at a glance for its operator: version, drivers, queue, storage and accounts. */
export class AdminOverviewService {
  constructor(private readonly deps: OverviewDeps) {}

  async overview(actor: Actor | null): Promise<ServerOverview> {
    assertAdmin(actor);
    const now = this.deps.clock.now();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const [queues, storage, users] = await Promise.all([
      this.deps.jobs.stats(),
      this.deps.repository.storageFigures(),
      this.deps.repository.userFigures(monthStart),
    ]);
    const sum = (key: 'queued' | 'active' | 'failed') => queues.reduce((total, q) => total + q[key], 0);
    const { setup } = this.deps;
    return {
      version: APP_VERSION,
      nodeVersion: process.version,
      roles: setup.roles,
      database: { driver: setup.database },
      storage: { driver: setup.storage, usedBytes: storage.bytes, files: storage.files },
      queue: { queued: sum('queued'), active: sum('active'), failed: sum('failed'), queues },
      users: { total: users.total, admins: users.admins, disabled: users.disabled, newThisMonth: users.newSince },
      identity: setup.identity,
      startedAt: setup.startedAt.toISOString(),
    };
  }
}
