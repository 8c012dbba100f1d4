import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
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
import { SecretsRepository } from './platform/secrets/secrets.repository';
import { TokenSigner } from './platform/secrets/token-signer';
import { AccountsService } from './modules/accounts/accounts.service';
import { mailJobs } from './platform/mail/mail.jobs';
import { PasswordResetsRepository } from './modules/accounts/password-resets.repository';
import { createAdminModule } from './modules/admin/admin.module';
import type { AdminService } from './modules/admin/admin.service';
import { maintenanceJobs } from './modules/maintenance/maintenance.jobs';
import { UploadsRepository } from './modules/uploads/uploads.repository';
import { UploadsService } from './modules/uploads/uploads.service';
import { uploadsRoutes } from './modules/uploads/uploads.routes';
import { UsersRepository } from './modules/users/users.repository';
import { UsersService } from './modules/users/users.service';
import { createStorageModule, type StorageServices } from './modules/storage/storage.module';
import { createSharingModule } from './modules/sharing/sharing.module';
import type { PublicShareService } from './modules/sharing/public-share.service';
import type { SharingService } from './modules/sharing/sharing.service';
import { createCommentsModule } from './modules/comments/comments.module';
import type { CommentsService } from './modules/comments/comments.service';
import { createReviewModule } from './modules/review/review.module';
import type { ReviewService } from './modules/review/review.service';
import type { AppModule, CoreDeps } from './modules/module';
import { AccessChanges } from './access/access-changes';
import { ItemAccessRepository } from './access/item-access.repository';
import { STORAGE_SCOPE } from './access/item-scope';
import { ItemPolicy } from './access/item.policy';
import { PublicLinkPolicy } from './access/public-link.policy';
import { TopicPolicy } from './access/topic.policy';
import { FaultPoints } from './platform/faults/fault-points';
import { Outbox } from './platform/jobs/outbox';
import type { Tx } from './db/database';
import { PushService } from './platform/push/push.service';
import { pushEndpointPolicy } from './platform/push/push-endpoint';
import { PushRepository } from './modules/push/push.repository';
import { pushJobs } from './modules/push/push.jobs';
import { locateMediaTools } from './platform/media/ffmpeg';
import { systemClock, type Clock } from './platform/clock/clock';
import { AttemptLimiter } from './platform/security/attempt-limiter';
import { AttemptLimitsRepository } from './platform/security/attempt-limits.repository';
import { revokeOidcRowsOfAccount } from './platform/identity/oidc.repository';
import { TempSpace } from './platform/temp/temp-space';
import { Entitlements } from './access/entitlements';
import { EntitlementsRepository } from './access/entitlements.repository';
import { createBillingModule } from './modules/billing/billing.module';
import { createCreditsModule } from './modules/credits/credits.module';
import type { CreditsService } from './modules/credits/credits.service';
import type { PlanEndings } from './modules/billing/plan-endings';
import { createAccountModule } from './modules/users/account.module';
import { createTransfersModule } from './modules/transfers/transfers.module';
import type { TransfersService } from './modules/transfers/transfers.service';

/** Everything a node runs with, built once from the configuration. */
export interface AppContext {
  config: AppConfig;
  log: Logger;
  clock: Clock;
  database: Database;
  blobs: BlobStore;
  signer: UrlSigner;
  bus: EventBus;
  mailer: Mailer;
  jobs: JobQueue;
  outbox: Outbox;
  jobDefinitions: JobDefinition[];
  /** Feature modules; the HTTP app registers their routes, worker nodes process their jobs. */
  modules: AppModule[];
  topics: TopicPolicy;
  verifyToken: TokenVerifier;
  provider: Provider | null;
  services: {
    users: UsersService;
    accounts: AccountsService | null;
    admin: AdminService;
    uploads: UploadsService;
    storage: StorageServices;
    sharing: SharingService;
    publicShare: PublicShareService;
    push: PushService;
    pushDevices: PushRepository;
    comments: CommentsService;
    review: ReviewService;
    entitlements: Entitlements;
    credits: CreditsService;
    transfers: TransfersService;
    planEndings: PlanEndings;
  };
  /** Releases what the context holds, in reverse order of acquisition. */
  dispose(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  /** A test's crash point (see FaultPoints); production leaves it unset. */
  faultPoint?: string | null;
}

export async function createContext(config: AppConfig, log: Logger, options: ContextOptions = {}): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const cleanups: (() => Promise<void> | void)[] = [];
  const dispose = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    if (!config.database.url) cleanups.push(lockDataDir(config.dataDir));
    // After the lock: a process refused the directory must not sweep the files of the one holding it.
    const temp = TempSpace.open(join(config.dataDir, 'tmp'));
    cleanups.push(() => temp.close());
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
    const signer = new UrlSigner(Buffer.from(urlSecret, 'base64url'), config.publicUrl, clock);
    const tokens = new TokenSigner(
      Buffer.from(await secrets.getOrCreate('tokens.secret', () => randomBytes(32).toString('base64url')), 'base64url'),
    );
    const blobs = createBlobStore(config.blob, signer);

    const bus = database.pglite
      ? await PgNotifyBus.onPglite(database.pglite, log, clock)
      : await PgNotifyBus.onPostgres(database.pool!, database.connectionString!, log, clock);
    cleanups.push(() => bus.close());

    const mailer = createMailer(config.mail, log, clock);
    const jobs = new JobQueue(database, bus, log);
    cleanups.push(() => jobs.stop());
    const outbox = new Outbox(db, jobs, bus, log);
    cleanups.push(() => outbox.stop());

    const usersRepository = new UsersRepository(db, clock);
    // /api/me carries usage and credits; the month's credits are given on the first read of a month.
    const users = new UsersService(
      usersRepository,
      config.identity,
      {
        summary: (userId) => meSummary(userId),
        pendingEmail: (userId) => account.services.profile.pendingEmail(userId),
        preferences: (userId) => account.services.repository.preferences(userId),
      },
      clock,
    );
    const uploads = new UploadsService(new UploadsRepository(db, clock), blobs, config.signedUrlTtlSeconds, clock);

    let provider: Provider | null = null;
    let accounts: AccountsService | null = null;
    let verifyToken: TokenVerifier;
    const { identity } = config;
    if (identity.mode === 'embedded') {
      const identitySecrets = await loadIdentitySecrets(secrets);
      accounts = new AccountsService(usersRepository, new PasswordResetsRepository(db, clock), jobs, config.publicUrl, {
        limiter: new AttemptLimiter(new AttemptLimitsRepository(db), clock),
        clock,
        revokeGrants: (userId) => revokeOidcRowsOfAccount(db, userId),
      });
      provider = createEmbeddedProvider(
        db,
        identitySecrets,
        {
          // A disabled account is unknown to the provider: its refresh tokens and sessions can't renew.
          findAccountClaims: async (id) => {
            const user = await usersRepository.findById(id);
            return user && !user.disabledAt ? { email: user.email, name: user.displayName } : null;
          },
        },
        {
          issuer: identity.issuer,
          publicUrl: config.publicUrl,
          clientId: identity.clientId,
          audience: identity.audience,
          extraOrigins: config.devOrigins,
        },
      );
      verifyToken = createTokenVerifier({
        issuer: identity.issuer,
        audience: identity.audience,
        keys: { local: publicJwks(identitySecrets.jwks) },
        clock,
      });
    } else {
      const jwksUri = await discoverJwksUri(identity.issuer);
      verifyToken = createTokenVerifier({
        issuer: identity.issuer,
        audience: identity.audience,
        keys: { remoteJwksUri: jwksUri },
        clock,
      });
    }

    const facts = new ItemAccessRepository(db, STORAGE_SCOPE);
    const items = new ItemPolicy(facts);
    const topics = new TopicPolicy(items);
    const core: CoreDeps = {
      config,
      log,
      db,
      unitOfWork: <T>(work: (tx: Tx) => Promise<T>) => db.transaction(work),
      blobs,
      bus,
      jobs,
      outbox,
      clock,
      faults: new FaultPoints(options.faultPoint ?? process.env.MIXROOM_FAULT_INJECTION ?? null),
      tokens,
      temp,
      facts,
      items,
      links: new PublicLinkPolicy(facts),
      accessChanges: new AccessChanges(bus),
    };
    const billing = createBillingModule(core);
    const entitlements = new Entitlements(new EntitlementsRepository(db), clock, billing.services.provider.info);
    const credits = createCreditsModule(core, { entitlements });
    const meSummary = async (userId: string) => {
      await credits.services.credits.ensureMonthlyGrant(userId);
      return entitlements.summary(userId);
    };
    const mediaTools = locateMediaTools(config.media);
    const storage = createStorageModule(core, {
      uploads,
      users,
      entitlements,
      mediaTools,
      // The account module (made below) holds everyone's notification channels.
      notify: (tx, userIds, notice) => account.services.notifier.notify(tx, userIds, notice),
    });
    const sharing = createSharingModule(core, {
      catalog: storage.services.catalog,
      zip: storage.services.zip,
      projects: storage.services.projects,
    });
    const transfers = createTransfersModule(core, {
      uploads,
      zip: storage.services.zip,
      limitsFor: (userId) => entitlements.limits(userId),
      transfersThisMonth: (userId) => entitlements.transfersThisMonth(userId),
      userOf: (userId) => users.actorById(userId),
    });
    const comments = createCommentsModule(core);
    const review = createReviewModule(core, {
      projects: storage.services.projects,
      media: storage.services.media,
      presenter: storage.services.presenter,
    });
    const adminModule = createAdminModule(core, {
      entitlements,
      credits: credits.services.credits,
      endSessions: (tx, userId) =>
        identity.mode === 'embedded' ? revokeOidcRowsOfAccount(tx, userId) : Promise.resolve(),
      startedAt: clock.now(),
      database: database.kind,
    });
    const account = createAccountModule(core, {
      users,
      usersRepository,
      mediaTools,
      localAccounts: identity.mode === 'embedded',
      verifyPassword: async (userId, password, address) => {
        if (!accounts) throw new Error('passwords are kept by the external issuer');
        await accounts.verifyCurrentPassword(userId, password, address);
      },
      hasRunningPaidSubscription: (userId) => entitlements.hasRunningPaidSubscription(userId),
      revokeSessions: (userId) =>
        identity.mode === 'embedded' ? revokeOidcRowsOfAccount(db, userId) : Promise.resolve(),
      abortUploads: (userId, prefixes) => uploads.abortForErasure(userId, prefixes),
      // Every module's part of a user's data, in module order (storage before sharing's clean-up).
      contributions: () => modules.flatMap((m) => (m.userData ? [m.userData] : [])),
    });
    const push = await PushService.create(secrets, pushSubject(config), pushEndpointPolicy(config.pushTest));
    const pushDevices = new PushRepository(db, clock);
    const platformModule: AppModule = {
      name: 'platform',
      routes: [(app) => app.register(uploadsRoutes, { uploads })],
      jobs: [
        ...mailJobs(
          mailer,
          async (address) => (await account.services.repository.preferencesByEmail(address))?.email ?? true,
        ),
        ...maintenanceJobs({
          db,
          uploads,
          attempts: new AttemptLimitsRepository(db),
          clock,
          embedded: database.kind === 'pglite',
        }),
        ...pushJobs(push, pushDevices, async (userId) => (await account.services.repository.preferences(userId)).push),
      ],
      services: {},
    };
    const modules: AppModule[] = [
      platformModule,
      storage,
      sharing,
      transfers,
      comments,
      review,
      credits,
      billing,
      adminModule,
      account,
    ];
    const jobDefinitions = modules.flatMap((m) => m.jobs);

    return {
      config,
      log,
      clock,
      database,
      blobs,
      signer,
      bus,
      mailer,
      jobs,
      outbox,
      jobDefinitions,
      modules,
      topics,
      verifyToken,
      provider,
      services: {
        users,
        accounts,
        admin: adminModule.services.admin,
        uploads,
        storage: storage.services,
        sharing: sharing.services.sharing,
        publicShare: sharing.services.publicShare,
        push,
        pushDevices,
        comments: comments.services.comments,
        review: review.services.review,
        entitlements,
        credits: credits.services.credits,
        transfers: transfers.services.transfers,
        planEndings: billing.services.planEndings,
      },
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
