import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { purgeExpiredOidcRows } from '../../platform/identity/oidc.repository';
import { defineJob } from '../../platform/jobs/job-definition';
import type { UploadsService } from '../uploads/uploads.service';

const STALE_UPLOAD_MS = 7 * 86_400_000;

/** Hourly housekeeping: expired sign-in artefacts and uploads abandoned for a week. */
export const maintenanceJobs = (deps: { db: Db; uploads: UploadsService; embedded: boolean }) => [
  defineJob({ name: 'maintenance.hourly', schema: z.object({}).passthrough(), schedule: '7 * * * *', retryLimit: 1 }, async (_payload, { log }) => {
    const oidcRows = await purgeExpiredOidcRows(deps.db);
    const uploads = await deps.uploads.abortStale(STALE_UPLOAD_MS);
    // PGlite has no autovacuum: keep the planner's statistics fresh ourselves.
    if (deps.embedded) await deps.db.execute(sql`analyze`);
    log.info({ oidcRows, uploads }, 'maintenance done');
  }),
];
