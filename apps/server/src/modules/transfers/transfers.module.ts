import { TRANSFER_SCOPE } from '../../access/item-scope';
import { TransferPolicy } from '../../access/transfer.policy';
import type { Drive } from '../../platform/drives/drive';
import { stageJob } from '../../platform/jobs/staged-job';
import { AttemptLimiter } from '../../platform/security/attempt-limiter';
import { AttemptLimitsRepository } from '../../platform/security/attempt-limits.repository';
import type { AppModule, CoreDeps } from '../module';
import type { UploadsService } from '../uploads';
import type { PlanLimits } from '@mixroom/shared';
import { FileRequestsRepository } from './file-requests.repository';
import { fileRequestsRoutes } from './file-requests.routes';
import { FileRequestsService } from './file-requests.service';
import { publicTransfersRoutes } from './public-transfers.routes';
import { TransferAccessService } from './transfer-access.service';
import { TransferDownloadsRepository } from './transfer-downloads.repository';
import { TransferLinksRepository } from './transfer-links.repository';
import { TransferDownloadService, type ZipWriter } from './transfer-download.service';
import { TransferHousekeepingService } from './transfer-housekeeping.service';
import { transferLinkedCopyJob, TransferLinkedCopyWork } from './transfer-linked-copy.work';
import type { TransfersDeps } from './transfers.deps';
import { transfersJobs } from './transfers.jobs';
import { TransfersRepository } from './transfers.repository';
import { transfersRoutes } from './transfers.routes';
import { TransfersService } from './transfers.service';
import { transfersUserData } from './transfers.user-data';

export type TransfersModule = AppModule<{
  transfers: TransfersService;
  access: TransferAccessService;
  housekeeping: TransferHousekeepingService;
  requests: FileRequestsService;
}>;

/** Transfers: files sent as expiring links or e-mails, their recipients' page, and their housekeeping. */
export function createTransfersModule(
  core: CoreDeps,
  deps: {
    uploads: UploadsService;
    zip: ZipWriter;
    limitsFor: (userId: string) => Promise<PlanLimits>;
    transfersThisMonth: (userId: string) => Promise<number>;
    userOf: (userId: string) => Promise<{ email: string; displayName: string } | null>;
    /** The user's linked storage account (the connectors module's), for files the server copies. */
    linkedDrive: (userId: string, connectorId: string) => Promise<Drive>;
  },
): TransfersModule {
  const repository = new TransfersRepository(core.db, TRANSFER_SCOPE);
  const downloads = new TransferDownloadsRepository(core.db);
  const links = new TransferLinksRepository(core.db);
  const shared: TransfersDeps = {
    repository,
    downloads,
    policy: new TransferPolicy(links, core.tokens, core.clock),
    links,
    uploads: deps.uploads,
    blobs: core.blobs,
    outbox: core.outbox,
    bus: core.bus,
    unitOfWork: core.unitOfWork,
    clock: core.clock,
    publicUrl: core.config.publicUrl,
    signTtlSeconds: core.config.signedUrlTtlSeconds,
    limitsFor: deps.limitsFor,
    transfersThisMonth: deps.transfersThisMonth,
    userOf: deps.userOf,
    linkedDrive: deps.linkedDrive,
    linkedNetwork: { allowHosts: core.config.connectors.allowHosts, timeoutMs: core.config.connectors.timeoutMs },
  };
  const transfers = new TransfersService(shared);
  const limiter = new AttemptLimiter(new AttemptLimitsRepository(core.db), core.clock);
  const access = new TransferAccessService({ ...shared, limiter });
  const downloadService = new TransferDownloadService({ access, repository, blobs: core.blobs, zip: deps.zip });
  const housekeeping = new TransferHousekeepingService(shared, transfers);
  const requests = new FileRequestsService(
    { ...shared, requests: new FileRequestsRepository(core.db), tokens: core.tokens, limiter },
    transfers.creation,
  );
  return {
    name: 'transfers',
    routes: [
      (app) => app.register(transfersRoutes, { transfers }),
      (app) => app.register(publicTransfersRoutes, { access, downloads: downloadService }),
      (app) => app.register(fileRequestsRoutes, { requests }),
    ],
    jobs: [
      ...transfersJobs(housekeeping),
      stageJob(
        transferLinkedCopyJob(
          new TransferLinkedCopyWork(shared, transfers.creation, (transfer) => transfers.dropFiles(transfer)),
        ),
        { unitOfWork: core.unitOfWork, outbox: core.outbox, clock: core.clock },
      ),
    ],
    services: { transfers, access, housekeeping, requests },
    userData: transfersUserData(repository, downloads),
  };
}
