import type { Logger } from 'pino';
import type { ItemAccessRepository } from '../../access/item-access.repository';
import type { Clock } from '../../platform/clock/clock';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { UploadsService } from '../uploads';
import { processVersionJob } from './media/media.jobs';
import type { ProjectsService } from './projects/projects.service';
import type { VersionsRepository } from './projects/versions.repository';

/** An upload no part has reached for this long is abandoned: its tile and its reservation go. */
export const ABANDONED_UPLOAD_MS = 24 * 3_600_000;

export interface StorageSweeperDeps {
  versions: VersionsRepository;
  facts: ItemAccessRepository;
  projects: ProjectsService;
  uploads: UploadsService;
  jobs: Pick<JobQueue, 'failRunning' | 'send'>;
  clock: Clock;
}

/**
 * Repairs what a vanished client or a restart leaves behind:
 * - on a schedule, an upload abandoned mid-way (no part for a day, or its session closed or aborted)
 *   is removed with its "Uploading…" tile, its stored parts and the quota it reserved;
 * - at start, the media jobs this node's previous process was running are run again at once.
 * A media job whose worker died on another node needs nothing here: it is a stage with a heartbeat,
 * which pg-boss runs again once the heartbeat stops.
 */
export class StorageSweeper {
  constructor(private readonly deps: StorageSweeperDeps) {}

  async run(): Promise<{ dropped: number }> {
    const now = this.deps.clock.now().getTime();
    const abandoned = await this.deps.versions.abandonedUploads(new Date(now - ABANDONED_UPLOAD_MS), new Date(now));
    for (const version of abandoned) {
      const found = await this.deps.facts.project(version.projectId);
      if (version.uploadId) await this.deps.uploads.abortSession(version.uploadId);
      if (found) await this.deps.projects.dropUploadingVersion(version, found.row);
    }
    return { dropped: abandoned.length };
  }

  /**
   * Runs again, at once, the media jobs this node's previous process was running when it died
   * (found by their work folders at start): without it they would wait for their heartbeat to go
   * stale, during which a version shows ready without its playback preview. The job (its id comes
   * from the version) is failed as the dead worker's, so pg-boss retries it now; one no longer
   * known (or finished without finishing the version) is sent anew.
   */
  async requeueInterrupted(versionIds: string[], log?: Logger): Promise<number> {
    let requeued = 0;
    for (const id of versionIds) {
      const version = await this.deps.versions.find(id);
      // Gone, finished, or marked corrupt by the time the node is back: nothing to take up.
      if (!version || version.progress >= 100 || !['processing', 'ready'].includes(version.status)) continue;
      const payload = { versionId: id };
      const failed = await this.deps.jobs.failRunning(
        processVersionJob.name,
        processVersionJob.jobIdOf(payload),
        'its node restarted',
      );
      if (!failed) await this.deps.jobs.send(processVersionJob, payload, { again: true });
      log?.warn({ versionId: id }, 'processing interrupted by a restart: queued again');
      requeued += 1;
    }
    return requeued;
  }
}
