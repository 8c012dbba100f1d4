import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type Provider from 'oidc-provider';
import type { AppConfig } from './config/config';
import { lockDataDir } from './db/data-dir-lock';
import { openDatabase, type Database } from './db/database';
import { createBlobStore } from './platform/blob/create-blob-store';
import type { BlobStore } from './platform/blob/blob-store';
import { UrlSigner } from './platform/blob/url-signer';
import { createEmbeddedProvider } from './platform/identity/embedded-provider';
import { loadIdentitySecrets, publicJwks } from './platform/identity/signing-keys';
import { createTokenVerifier, discoverJwksUri, type TokenVerifier } from './platform/identity/token-verifier';
import type { JobDefinition } from './platform/jobs/job-definition';
import { JobQueue } from './platform/jobs/job-queue';
import { createMailer, type Mailer } from './platform/mail/mailer';
import type { EventBus } from './platform/realtime/event-bus';
import { PgNotifyBus } from './platform/realtime/pg-notify-bus';
import { TopicPolicy } from './platform/realtime/topic-policy';
import { SecretsRepository } from './platform/secrets/secrets.repository';
import { TokenSigner } from './platform/secrets/token-signer';
import { AccountsService } from './modules/accounts/accounts.service';
import { mailJobs } from './modules/accounts/mail.jobs';
import { PasswordResetsRepository } from './modules/accounts/password-resets.repository';
import { AdminService } from './modules/admin/admin.service';
import { maintenanceJobs } from './modules/maintenance/maintenance.jobs';
import { UploadsRepository } from './modules/uploads/uploads.repository';
import { UploadsService } from './modules/uploads/uploads.service';
import { UsersRepository } from './modules/users/users.repository';
import { UsersService } from './modules/users/users.service';
import { createStorageModule, type StorageModule } from './modules/storage/storage.module';
import { PublicShareService } from './modules/sharing/public-share.service';
import { SharingRepository } from './modules/sharing/sharing.repository';
import { SharingService } from './modules/sharing/sharing.service';
import { CommentsRepository } from './modules/comments/comments.repository';
import { PresenceRepository } from './modules/review/presence.repository';
import { ReviewService } from './modules/review/review.service';
import { CommentsService } from './modules/comments/comments.service';
import { PushService } from './platform/push/push.service';
import { PushRepository } from './modules/push/push.repository';
import { pushJobs, sendPushJob } from './modules/push/push.jobs';
import { locateMediaTools } from './platform/media/ffmpeg';

/** Everything a node runs with, built once from the configuration. */
export interface AppContext {
  config: AppConfig;
  log: Logger;
  database: Database;
  blobs: BlobStore;
  signer: UrlSigner;
  bus: EventBus;
  mailer: Mailer;
  jobs: JobQueue;
  jobDefinitions: JobDefinition[];
  topics: TopicPolicy;
  verifyToken: TokenVerifier;
  provider: Provider | null;
  services: {
    users: UsersService;
    accounts: AccountsService | null;
    admin: AdminService;
    uploads: UploadsService;
    storage: StorageModule;
    sharing: SharingService;
    publicShare: PublicShareService;
    push: PushService;
    pushDevices: PushRepository;
    comments: CommentsService;
    review: ReviewService;
  };
  /** Releases what the context holds, in reverse order of acquisition. */
  dispose(): Promise<void>;
}

export async function createContext(config: AppConfig, log: Logger): Promise<AppContext> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const dispose = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    if (!config.database.url) cleanups.push(lockDataDir(config.dataDir));
    const database = await openDatabase({
      url: config.database.url,
      dataDir: config.dataDir,
      poolSize: config.database.poolSize,
      onError: (error) => log.warn({ err: error }, 'database connection lost; it will be replaced'),
    });
    cleanups.push(() => database.close());
    const { db } = database;

    const secrets = new SecretsRepository(db);
    const urlSecret = await secrets.getOrCreate('blob.urlSecret', () => randomBytes(32).toString('base64url'));
    const signer = new UrlSigner(Buffer.from(urlSecret, 'base64url'), config.publicUrl);
    const tokens = new TokenSigner(Buffer.from(await secrets.getOrCreate('tokens.secret', () => randomBytes(32).toString('base64url')), 'base64url'));
    const blobs = createBlobStore(config.blob, signer);

    const bus = database.pglite
      ? await PgNotifyBus.onPglite(database.pglite, log)
      : await PgNotifyBus.onPostgres(database.pool!, database.connectionString!, log);
    cleanups.push(() => bus.close());

    const mailer = createMailer(config.mail, log);
    const jobs = new JobQueue(database, bus, log);
    cleanups.push(() => jobs.stop());

    const usersRepository = new UsersRepository(db);
    const users = new UsersService(usersRepository, config.identity);
    const uploads = new UploadsService(new UploadsRepository(db), blobs, config.signedUrlTtlSeconds);
    const admin = new AdminService(usersRepository, bus);

    let provider: Provider | null = null;
    let accounts: AccountsService | null = null;
    let verifyToken: TokenVerifier;
    const { identity } = config;
    if (identity.mode === 'embedded') {
      const identitySecrets = await loadIdentitySecrets(secrets);
      accounts = new AccountsService(usersRepository, new PasswordResetsRepository(db), jobs, config.publicUrl);
      provider = createEmbeddedProvider(
        db,
        identitySecrets,
        {
          findAccountClaims: async (id) => {
            const user = await usersRepository.findById(id);
            return user ? { email: user.email, name: user.displayName } : null;
          },
        },
        { issuer: identity.issuer, publicUrl: config.publicUrl, clientId: identity.clientId, audience: identity.audience, extraOrigins: config.devOrigins },
      );
      verifyToken = createTokenVerifier({ issuer: identity.issuer, audience: identity.audience, keys: { local: publicJwks(identitySecrets.jwks) } });
    } else {
      const jwksUri = await discoverJwksUri(identity.issuer);
      verifyToken = createTokenVerifier({ issuer: identity.issuer, audience: identity.audience, keys: { remoteJwksUri: jwksUri } });
    }

    const topics = new TopicPolicy();
    const storage = createStorageModule({
      db,
      blobs,
      bus,
      jobs,
      uploads,
      users,
      usersRepository,
      topics,
      mediaTools: locateMediaTools(config.media),
      signTtlSeconds: config.signedUrlTtlSeconds,
      tokens,
    });
    const push = await PushService.create(secrets, pushSubject(config));
    const pushDevices = new PushRepository(db);
    const sharingRepository = new SharingRepository(db);
    const { repositories } = storage;
    const sharing = new SharingService(
      sharingRepository,
      storage.groups,
      storage.projects,
      repositories.groups,
      repositories.projects,
      repositories.access,
      jobs,
      bus,
      config.publicUrl,
      (userId, message) => jobs.send(sendPushJob, { userId, ...message }).then(() => undefined),
    );
    const publicShare = new PublicShareService(
      sharingRepository,
      repositories.groups,
      repositories.projects,
      repositories.versions,
      storage.presenter,
      blobs,
      config.signedUrlTtlSeconds,
      storage.zip,
    );
    const comments = new CommentsService(new CommentsRepository(db), repositories.versions, storage.projects, bus);
    const review = new ReviewService(
      repositories.versions,
      storage.projects,
      new PresenceRepository(db),
      storage.presenter,
      storage.media,
      bus,
      config.signedUrlTtlSeconds,
    );
    // A project's review events (comments) reach whoever can see the project.
    topics.register('project', async (actor, projectId) => {
      const project = /^[0-9a-f-]{36}$/.test(projectId) ? await repositories.projects.find(projectId) : null;
      return project ? (await repositories.access.roleFor(actor.userId, project)) !== 'NONE' : false;
    });
    const jobDefinitions = [
      ...mailJobs(mailer),
      ...maintenanceJobs({ db, uploads, embedded: database.kind === 'pglite' }),
      ...storage.jobs,
      ...pushJobs(push, pushDevices),
    ];

    return {
      config,
      log,
      database,
      blobs,
      signer,
      bus,
      mailer,
      jobs,
      jobDefinitions,
      topics,
      verifyToken,
      provider,
      services: { users, accounts, admin, uploads, storage, sharing, publicShare, push, pushDevices, comments, review },
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** VAPID needs a contact: the sender address of mails, else the public URL. */
function pushSubject(config: AppConfig): string {
  const address = /<([^>]+)>/.exec(config.mail.from)?.[1] ?? (config.mail.from.includes('@') ? config.mail.from : null);
  return address ? `mailto:${address}` : config.publicUrl;
}
