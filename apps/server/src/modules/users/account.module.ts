import { PLANS, type PlanSku } from '@mixroom/shared';
import type { BlobStore } from '../../platform/blob/blob-store';
import { defineJob, defineScheduledJob } from '../../platform/jobs/job-definition';
import type { MediaTools } from '../../platform/media/ffmpeg';
import { AttemptLimiter } from '../../platform/security/attempt-limiter';
import { AttemptLimitsRepository } from '../../platform/security/attempt-limits.repository';
import type { AppModule, CoreDeps } from '../module';
import type { UserDataContribution } from '../user-data';
import { AccountDeletionService, accountErasureJob } from './account-deletion.service';
import type { AccountRepository } from './account.repository';
import { accountRoutes } from './account.routes';
import { DataExportService, dataExportJob, exportPrefix } from './data-export.service';
import type { Notifier } from './notifier';
import { ProfileService } from './profile.service';
import type { UsersRepository } from './users.repository';
import type { UsersService } from './users.service';

export interface AccountServices {
  profile: ProfileService;
  exports: DataExportService;
  deletion: AccountDeletionService;
  notifier: Notifier;
  repository: AccountRepository;
}

export type AccountModule = AppModule<AccountServices>;

const DAY_S = 86_400;

/** Signs a picture's URL as of the start of the day, so a browser gets the same URL (and its cache) all day. */
function stableSigner(blobs: BlobStore, now: () => Date) {
  return (key: string) =>
    blobs.signDownloadUrl(key, {
      signedAt: new Date(Math.floor(now().getTime() / (DAY_S * 1000)) * DAY_S * 1000),
      expiresInSeconds: 2 * DAY_S,
      cacheSeconds: DAY_S,
      contentType: 'image/jpeg',
    });
}

/**
 * The signed-in user's own account: profile (name, picture, e-mail), notification channels, the
 * "download my data" archive and account deletion. Export and deletion ask every module for its
 * part through `userData` contributions (see user-data.ts).
 */
export function createAccountModule(
  core: CoreDeps,
  deps: {
    users: UsersService;
    usersRepository: UsersRepository;
    mediaTools: MediaTools;
    localAccounts: boolean;
    /** Throws unless the password is the user's own (local accounts only). */
    verifyPassword: (userId: string, password: string, address: string) => Promise<void>;
    hasRunningPaidSubscription: (userId: string) => Promise<boolean>;
    revokeSessions: (userId: string) => Promise<unknown>;
    abortUploads: (userId: string, prefixes: string[]) => Promise<unknown>;
    repository: AccountRepository;
    notifier: Notifier;
    /** Every other module's part of a user's data, in module order (storage before sharing's clean-up). */
    contributions: UserDataContribution[];
  },
): AccountModule {
  const { repository, notifier } = deps;
  // Built last: its own part comes after everyone else's.
  const contributions = () => [...deps.contributions, userData];
  const profile = new ProfileService({
    repository,
    blobs: core.blobs,
    clock: core.clock,
    jobs: core.jobs,
    bus: core.bus,
    media: deps.mediaTools,
    publicUrl: core.config.publicUrl,
    localAccounts: deps.localAccounts,
    signStable: stableSigner(core.blobs, () => core.clock.now()),
    verifyPassword: deps.verifyPassword,
    limiter: new AttemptLimiter(new AttemptLimitsRepository(core.db), core.clock),
  });
  const exports = new DataExportService({
    repository,
    blobs: core.blobs,
    clock: core.clock,
    outbox: core.outbox,
    tokens: core.tokens,
    publicUrl: core.config.publicUrl,
    contributions,
  });
  const deletion = new AccountDeletionService({
    repository,
    blobs: core.blobs,
    clock: core.clock,
    outbox: core.outbox,
    faults: core.faults,
    notifier,
    hasRunningPaidSubscription: deps.hasRunningPaidSubscription,
    grantedPlans: async (userId) => {
      const now = core.clock.now();
      return (await deps.usersRepository.grantsFor([userId]))
        .filter((g) => g.sku !== 'FREE' && g.startsAt <= now && (!g.endsAt || g.endsAt > now))
        .map((g) => ({ name: PLANS[g.sku as PlanSku]?.name ?? g.sku, endsAt: g.endsAt }));
    },
    revokeSessions: deps.revokeSessions,
    signOutSockets: (userId) => core.accessChanges.forUsers([userId]),
    abortUploads: deps.abortUploads,
    contributions,
  });
  const userData: UserDataContribution = {
    // The "download my data" archives hold copies of the user's files: they go with the account.
    blobPrefixes: async (userId) => [exportPrefix(userId)],
    export: async (userId, archive) => {
      const user = await deps.usersRepository.findById(userId);
      if (!user) return;
      const grants = await deps.usersRepository.grantsFor([userId]);
      archive.json('account/profile.json', {
        id: user.id,
        email: user.email,
        displayName: user.displayName,
        createdAt: user.createdAt.toISOString(),
        plans: grants.map((g) => ({
          sku: g.sku,
          startsAt: g.startsAt.toISOString(),
          endsAt: g.endsAt?.toISOString() ?? null,
        })),
        notifications: await repository.preferences(userId),
      });
      if (user.photoKey) {
        const info = await core.blobs.head(user.photoKey);
        if (info) archive.blob('account/profile-picture.jpg', user.photoKey, info.size, user.updatedAt);
      }
    },
  };
  const jobs = [
    defineJob(dataExportJob, ({ exportId }, context) => exports.run(exportId, context)),
    defineJob(accountErasureJob, ({ userId }) => deletion.erase(userId)),
    defineScheduledJob('account.housekeeping', '17 * * * *', async ({ log }) => {
      const purged = await exports.purgeExpired();
      const resumed = await deletion.resumeUnfinished();
      if (purged || resumed) log.info({ purged, resumed }, 'account housekeeping');
    }),
  ];
  return {
    name: 'account',
    routes: [(app) => app.register(accountRoutes, { users: deps.users, profile, exports, deletion })],
    jobs,
    services: { profile, exports, deletion, notifier, repository },
    userData,
    // An erasure whose node died keeps its job "active" until it expires; at start it is queued anew.
    onStart: async () => {
      await deletion.resumeUnfinished(0);
      core.outbox.kick();
    },
  };
}
