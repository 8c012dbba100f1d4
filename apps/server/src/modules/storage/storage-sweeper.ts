import type { Logger } from 'pino';
import type { ItemAccessRepository } from '../../access/item-access.repository';
import type { UnitOfWork } from '../../db/database';
import type { Clock } from '../../platform/clock/clock';
import type { Outbox } from '../../platform/jobs/outbox';
import type { UploadsService } from '../uploads';
import { processVersionJob } from './media/media.jobs';
import { PROCESSING_STALLED_AFTER_MS } from './media/processing-heartbeat';
import type { ProjectsService } from './projects/projects.service';
import type { VersionsRepository } from './projects/versions.repository';

/** An upload no part has reached for this long is abandoned: its tile and its reservation go. */
export const ABANDONED_UPLOAD_MS = 24 * 3_600_000;

export interface StorageSweeperDeps {
  versions: VersionsRepository;
  facts: ItemAccessRepository;
  projects: ProjectsService;
  uploads: UploadsService;
  outbox: Outbox;
  unitOfWork: UnitOfWork;
  clock: Clock;
}

/**
 * Repairs what a crash or a vanished client leaves behind, on a schedule:
 * - a version whose media job stopped beating (its node died mid-job, or the job was lost) is
 *   queued again; processing is idempotent, so a slow job that was merely late does no harm;
 * - an upload abandoned mid-way (no part for a day, or its session closed or aborted) is removed with
 *   its "Uploading…" tile, its stored parts and the quota it reserved.
 */
export class StorageSweeper {
  constructor(private readonly deps: StorageSweeperDeps) {}

  async run(log?: Logger): Promise<{ requeued: number; dropped: number }> {
    const now = this.deps.clock.now().getTime();
    const stalled = await this.deps.versions.listStalled(new Date(now - PROCESSING_STALLED_AFTER_MS));
    for (const version of stalled) {
      await this.deps.unitOfWork(async (tx) => {
        await this.deps.versions.update(version.id, { processingHeartbeatAt: new Date(now) }, tx);
        await this.deps.outbox.job(tx, processVersionJob, { versionId: version.id });
      });
      log?.warn({ versionId: version.id }, 'processing stalled: queued again');
    }
    const abandoned = await this.deps.versions.abandonedUploads(new Date(now - ABANDONED_UPLOAD_MS), new Date(now));
    for (const version of abandoned) {
      const found = await this.deps.facts.project(version.projectId);
      if (version.uploadId) await this.deps.uploads.abortSession(version.uploadId);
      if (found) await this.deps.projects.dropUploadingVersion(version, found.row);
    }
    if (stalled.length > 0) await this.deps.outbox.flush();
    return { requeued: stalled.length, dropped: abandoned.length };
  }

  /**
   * Queues again, at once, the media jobs this node's previous process was running when it died
   * (found by their work folders at start): without it they would wait for the heartbeat to go
   * stale, minutes during which a version shows ready without its playback preview.
   */
  async requeueInterrupted(versionIds: string[], log?: Logger): Promise<number> {
    let requeued = 0;
    for (const id of versionIds) {
      const version = await this.deps.versions.find(id);
      // Gone, finished, or marked corrupt by the time the node is back: nothing to take up.
      if (!version || version.progress >= 100 || !['processing', 'ready'].includes(version.status)) continue;
      await this.deps.unitOfWork(async (tx) => {
        await this.deps.versions.update(id, { processingHeartbeatAt: this.deps.clock.now() }, tx);
        await this.deps.outbox.job(tx, processVersionJob, { versionId: id });
      });
      log?.warn({ versionId: id }, 'processing interrupted by a restart: queued again');
      requeued += 1;
    }
    if (requeued > 0) await this.deps.outbox.flush();
    return requeued;
  }
}
