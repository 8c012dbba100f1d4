import type { Version } from '@mixroom/contracts';
import { MESSAGES, storageLimitBytes, type PlanLimits } from '@mixroom/shared';
import type { z } from 'zod';
import type { Tx, UnitOfWork } from '../../../db/database';
import type { ProjectRow, VersionRow } from '../../../db/rows';
import type { projects, versions } from '../../../db/schema';
import { AppError } from '../../../http/app-error';
import type { JobType } from '../../../platform/jobs/job-definition';
import type { Outbox } from '../../../platform/jobs/outbox';
import type { UploadsService } from '../../uploads';
import { processVersionJob } from '../media/media.jobs';
import { presentVersion } from '../storage.presenter';

/**
 * The rows of one area (STORAGE or TRANSFER) that an upload turns into a version: each area passes
 * repositories bound to its own scope, so a completion never touches the other area's rows.
 */
export interface VersionArea {
  /** Under the publisher's lock: does the whole file fit their quota now? */
  fitsOnCompletion(
    tx: Tx,
    version: { id: string; fileSize: number },
    quota: { publisherId: string; limitBytes: number },
  ): Promise<boolean>;
  updateVersion(id: string, values: Partial<typeof versions.$inferInsert>, tx: Tx): Promise<VersionRow>;
  updateProject(id: string, values: Partial<typeof projects.$inferInsert>, tx: Tx): Promise<unknown>;
}

/** What completing a version's upload is built from (both the storage and the transfer deps have it). */
export interface VersionCompletionDeps {
  uploads: UploadsService;
  unitOfWork: UnitOfWork;
  outbox: Outbox;
  limitsFor: (userId: string) => Promise<PlanLimits>;
}

/** A job that follows a completed version, with the version's id as its payload. */
export type VersionJob = JobType<z.ZodType<{ versionId: string }, { versionId: string }>>;

export interface VersionCompletion {
  area: VersionArea;
  /** Whose upload session it is (the uploader, or the owner for an upload without an account). */
  sessionOwnerId: string;
  version: VersionRow;
  project: Pick<ProjectRow, 'id' | 'publisherId'>;
  /** Jobs recorded with the media job, in the same transaction (a transfer's checksum). */
  extraJobs?: readonly VersionJob[];
  /** The file did not fit its publisher's quota: drop it (its area decides what goes with it). */
  drop: () => Promise<void>;
  /** After commit, before the outbox is kicked: a crash here leaves every job in the outbox. */
  afterCommit?: (row: VersionRow) => Promise<void>;
}

/**
 * The one path for anything that becomes a version (a browser's upload, a file the server made, a
 * transfer's file, a file request's upload): all parts are in, so the file is assembled, then in
 * one transaction the version is marked processing, its project live, and its media job (and the
 * area's extra jobs) recorded in the outbox. The jobs are dispatched after commit; a crash in
 * between leaves them in the outbox for the next start. Someone else's upload held only the bytes
 * that arrived, so its whole size must fit the publisher's quota now, or the file is dropped (413).
 */
export async function completeVersionUpload(deps: VersionCompletionDeps, input: VersionCompletion): Promise<Version> {
  const { area, version, project } = input;
  if (version.status !== 'uploading' || !version.uploadId) return presentVersion(version);
  const { size } = await deps.uploads.complete(input.sessionOwnerId, version.uploadId);
  const byOther = version.createdBy !== project.publisherId;
  const limitBytes = byOther ? storageLimitBytes(await deps.limitsFor(project.publisherId)) : 0;
  const updated = await deps.unitOfWork(async (tx) => {
    if (
      byOther &&
      !(await area.fitsOnCompletion(tx, version, {
        publisherId: project.publisherId,
        limitBytes: Math.min(limitBytes, Number.MAX_SAFE_INTEGER),
      }))
    )
      return null;
    const row = await area.updateVersion(version.id, { status: 'processing', progress: 0, fileSize: size }, tx);
    await area.updateProject(project.id, { flag: 'NONE', size, latestExtension: version.fileExtension }, tx);
    await deps.outbox.job(tx, processVersionJob, { versionId: version.id });
    for (const job of input.extraJobs ?? []) await deps.outbox.job(tx, job, { versionId: version.id });
    return row;
  });
  if (!updated) {
    await input.drop();
    throw new AppError(413, 'STORAGE_LIMIT', MESSAGES.storageLimit);
  }
  await input.afterCommit?.(updated);
  deps.outbox.kick();
  return presentVersion(updated);
}
