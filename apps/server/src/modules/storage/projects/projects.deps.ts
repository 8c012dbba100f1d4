import type { PlanLimits } from '@mixroom/shared';
import type { AccessChanges } from '../../../access/access-changes';
import type { ItemPolicy } from '../../../access/item.policy';
import type { Tx, UnitOfWork } from '../../../db/database';
import type { BlobStore } from '../../../platform/blob/blob-store';
import type { Clock } from '../../../platform/clock/clock';
import type { FaultPoints } from '../../../platform/faults/fault-points';
import type { Outbox } from '../../../platform/jobs/outbox';
import type { UploadsService } from '../../uploads';
import type { Notice } from '../../users';
import type { StorageEvents } from '../storage.events';
import type { StoragePresenter } from '../storage.presenter';
import type { ProjectsRepository } from './projects.repository';
import type { VersionsRepository } from './versions.repository';

/** What the projects service is built from (wired by the storage module). */
export interface ProjectsServiceDeps {
  projects: ProjectsRepository;
  versions: VersionsRepository;
  policy: ItemPolicy;
  presenter: StoragePresenter;
  events: StorageEvents;
  accessChanges: AccessChanges;
  uploads: UploadsService;
  blobs: BlobStore;
  outbox: Outbox;
  unitOfWork: UnitOfWork;
  limitsFor: (userId: string) => Promise<PlanLimits>;
  signTtlSeconds: number;
  clock: Clock;
  faults: FaultPoints;
  /** Tells users something on the channels each of them chose, in the caller's transaction. */
  notify: (tx: Tx, userIds: string[], notice: Notice) => Promise<void>;
}
