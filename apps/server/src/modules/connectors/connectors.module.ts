import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { PartialBlob } from '../../platform/blob/blob-store';
import type { ProjectsService, ZipService } from '../storage';
import type { UploadsService } from '../uploads';
import type { Actor } from '../../platform/identity/actor';
import { stageJob } from '../../platform/jobs/staged-job';
import { SecretBox } from '../../platform/secrets/secret-box';
import type { SecretsRepository } from '../../platform/secrets/secrets.repository';
import type { AppModule, CoreDeps } from '../module';
import { connectorCopyJob, ConnectorCopyWork } from './connector-copy.work';
import { ConnectorDurationsService } from './connector-durations.service';
import { ConnectorPreviewService } from './connector-preview.service';
import { ConnectorsOAuthService } from './connectors-oauth.service';
import { ConnectorsRepository } from './connectors.repository';
import { connectorRoutes } from './connectors.routes';
import { ConnectorsService, presentConnector, presentTransfer } from './connectors.service';

export type ConnectorsModule = AppModule<{ connectors: ConnectorsService }>;

/**
 * Linked storage accounts (WebDAV, S3-compatible, Dropbox and Google Drive through OAuth): linking, browsing, and the server's copies
 * between them and Mixroom (imports become versions through the storage module's upload path).
 */
export async function createConnectorsModule(
  core: CoreDeps,
  deps: {
    secrets: SecretsRepository;
    projects: ProjectsService;
    uploads: UploadsService;
    zip: ZipService;
    actorOf: (userId: string) => Promise<Actor | null>;
    /** Whether a sign-in session ended: a preview link ends with the session that asked for it. */
    sessionEnded: (sessionId: string) => boolean;
  },
): Promise<ConnectorsModule> {
  const key = await deps.secrets.getOrCreate('connectors.key', () => randomBytes(32).toString('base64url'));
  const repository = new ConnectorsRepository(core.db, core.clock);
  const { config } = core;
  const serviceDeps = {
    repository,
    box: new SecretBox(Buffer.from(key, 'base64url')),
    network: { allowHosts: config.connectors.allowHosts, timeoutMs: config.connectors.timeoutMs },
    enabled: config.connectors.enabled,
    oauth: config.connectors.oauth,
    redirectUri: `${config.publicUrl}/settings`,
    clock: core.clock,
    jobs: core.jobs,
    bus: core.bus,
    blobs: core.blobs,
    items: core.items,
    zip: deps.zip,
    log: core.log,
    actorOf: deps.actorOf,
    startVersion: (actor: Actor, projectId: string, input: { name: string; fileName: string; size: number }) =>
      deps.projects.startVersion(actor, projectId, input),
    storeWhole: (userId: string, uploadId: string, body: Readable) => deps.uploads.storeWhole(userId, uploadId, body),
    fillWhole: (userId: string, uploadId: string, fill: (partial: PartialBlob) => Promise<number | null>) =>
      deps.uploads.fillWhole(userId, uploadId, fill),
    completeUpload: (actor: Actor, versionId: string) => deps.projects.completeUpload(actor, versionId),
    cancelUpload: (actor: Actor, versionId: string) => deps.projects.cancelUpload(actor, versionId),
  };
  const connectors = new ConnectorsService(serviceDeps);
  const oauth = new ConnectorsOAuthService(serviceDeps, connectors);
  const work = new ConnectorCopyWork(serviceDeps, connectors);
  const previews = new ConnectorPreviewService({
    open: (userId, id) => connectors.open(userId, id),
    tokens: core.tokens,
    clock: core.clock,
    sessionEnded: deps.sessionEnded,
  });
  const durations = new ConnectorDurationsService({ open: (userId, id) => connectors.open(userId, id) });
  return {
    name: 'connectors',
    routes: [(app) => app.register(connectorRoutes, { connectors, oauth, previews, durations })],
    jobs: [stageJob(connectorCopyJob(work), { unitOfWork: core.unitOfWork, outbox: core.outbox, clock: core.clock })],
    services: { connectors },
    userData: {
      // The accounts a user linked (never their credentials) and the copies made.
      export: async (userId, archive) => {
        archive.json('connectors.json', {
          linked: (await repository.accounts(userId)).map(presentConnector),
          transfers: (await repository.transfers(userId)).map(presentTransfer),
        });
      },
      // Deleting the account unlinks every linked account first, so OAuth tokens are revoked at the provider.
      release: (userId) => connectors.unlinkAll(userId),
    },
  };
}
