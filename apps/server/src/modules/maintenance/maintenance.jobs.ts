import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { purgeExpiredOidcRows } from '../../platform/identity/oidc.repository';
import { purgeEndedSessions } from '../../platform/identity/session-revocations';
import { defineScheduledJob } from '../../platform/jobs/job-definition';
import type { Clock } from '../../platform/clock/clock';
import type { AttemptLimitsRepository } from '../../platform/security/attempt-limits.repository';
import type { UploadsService } from '../uploads';

const STALE_UPLOAD_MS = 7 * 86_400_000;

/** Hourly housekeeping: expired sign-in artefacts and attempt counters, uploads abandoned for a week. */
const ATTEMPT_RECORDS_MS = 2 * 86_400_000;

export const maintenanceJobs = (deps: {
  db: Db;
  uploads: UploadsService;
  attempts: AttemptLimitsRepository;
  clock: Clock;
  embedded: boolean;
}) => [
  defineScheduledJob('maintenance.hourly', '7 * * * *', async ({ log }) => {
    const oidcRows = await purgeExpiredOidcRows(deps.db);
    await purgeEndedSessions(deps.db, deps.clock.now());
    const uploads = await deps.uploads.abortStale(STALE_UPLOAD_MS);
    // Sign-in attempt counters older than the longest block are of no use any more.
    await deps.attempts.purgeOlderThan(new Date(deps.clock.now().getTime() - ATTEMPT_RECORDS_MS));
    // PGlite has no autovacuum: keep the planner's statistics fresh ourselves.
    if (deps.embedded) await deps.db.execute(sql`analyze`);
    log.info({ oidcRows, uploads }, 'maintenance done');
  }),
];
