import { Entitlements } from '../access/entitlements';
import { EntitlementsRepository } from '../access/entitlements.repository';
import type { Core } from '../core';
import { revokeOidcRowsOfAccount } from '../platform/identity/oidc.repository';
import { createAdminModule } from './admin/admin.module';
import { createBillingModule } from './billing/billing.module';
import { createBroadcastMediaModule, createBroadcastModule } from './broadcast/broadcast.module';
import { BroadcastRepository } from './broadcast/broadcast.repository';
import { createCommentsModule } from './comments/comments.module';
import { createConnectorsModule } from './connectors/connectors.module';
import { createCreditsModule } from './credits/credits.module';
import { createFilesModule } from './files/files.module';
import { createHealthModule } from './health/health.module';
import { createLiveMediaModule } from './live/live-media.module';
import { createLiveModule } from './live/live.module';
import { newRoomCode } from './live';
import { createMaintenanceModule } from './maintenance/maintenance.module';
import type { AppModule } from './module';
import { DEFAULT_SLOT_COUNT } from '../platform/rtc/sfu-driver';
import { createPushModule } from './push/push.module';
import { createReviewModule } from './review/review.module';
import { broadcastSfuRooms, liveSfuRooms, talkbackSfuRooms } from './sfu-routing/sfu-rooms';
import { createSfuRoutingModule } from './sfu-routing/sfu-routing.module';
import { createSharingModule } from './sharing/sharing.module';
import { createSignInModule } from './sign-in/sign-in.module';
import { createTalkbackMediaModule, createTalkbackModule } from './talkback/talkback.module';
import { createStorageModule } from './storage/storage.module';
import { createToolsModule } from './tools/tools.module';
import { createTransfersModule } from './transfers/transfers.module';
import { createUploadsModule } from './uploads/uploads.module';
import { createAccountModule } from './users/account.module';
import { createUsersModule } from './users/users.module';

/**
 * Every feature module, built in dependency order: each takes the core and services of modules
 * built before it, never a closure over one built later. The account module comes last because
 * "download my data" and erasure ask every other module for its part.
 */
export async function createModules({ core, database, secrets, signer, mailer, mediaTools }: Core) {
  const billing = createBillingModule(core);
  const entitlements = new Entitlements(
    new EntitlementsRepository(core.db),
    core.clock,
    billing.services.provider.info,
  );
  const credits = createCreditsModule(core, { entitlements });
  const users = createUsersModule(core, { entitlements, credits: credits.services.credits, mailer });
  const { usersRepository, accountRepository, notifier } = users.services;
  const signIn = await createSignInModule(core, { usersRepository, secrets });
  const { revokeSessions } = signIn.services;
  const uploads = createUploadsModule(core);
  const storage = createStorageModule(core, {
    uploads: uploads.services.uploads,
    users: users.services.users,
    entitlements,
    mediaTools,
    notifier,
  });
  const sharing = createSharingModule(core, {
    catalog: storage.services.catalog,
    zip: storage.services.zip,
    projects: storage.services.projects,
  });
  const comments = createCommentsModule(core);
  const review = createReviewModule(core, {
    projects: storage.services.projects,
    media: storage.services.media,
    presenter: storage.services.presenter,
  });
  const live = createLiveModule(core, {
    limitsOf: (userId) => entitlements.limits(userId),
    skusOf: async (userId) => (await entitlements.of(userId)).skus,
    cardsOf: (userIds) => users.services.users.findMany(userIds),
    trialOf: async (userId) => (await entitlements.of(userId)).trial,
    startVersion: (actor, projectId, input) => storage.services.projects.startVersion(actor, projectId, input),
  });
  const liveMedia = createLiveMediaModule(core, { media: live.services.media });
  const broadcastDeps = {
    factsOf: async (userId: string) => {
      const [entitlement, paidSubscription] = await Promise.all([
        entitlements.of(userId),
        entitlements.hasRunningPaidSubscription(userId),
      ]);
      return { ...entitlement, paidSubscription };
    },
    cardOf: async (userId: string) => (await users.services.users.findMany([userId]))[0] ?? null,
    newCode: newRoomCode,
  };
  const talkbackDeps = {
    repository: live.services.repository,
    sessions: live.services.sessions,
    limitsOf: (userId: string) => entitlements.limits(userId),
    sfu: () => liveMedia.services.hub().sfu,
    slotCount: DEFAULT_SLOT_COUNT,
  };
  const admin = createAdminModule(core, {
    entitlements,
    credits: credits.services.credits,
    endSessions: (tx, userId) => (signIn.services.provider ? revokeOidcRowsOfAccount(tx, userId) : Promise.resolve()),
    startedAt: core.clock.now(),
    database: database.kind,
    live: live.services.adminFacts,
  });
  const push = await createPushModule(core, {
    secrets,
    wantsPush: async (userId) => (await accountRepository.preferences(userId)).push,
  });
  const connectors = await createConnectorsModule(core, {
    secrets,
    projects: storage.services.projects,
    uploads: uploads.services.uploads,
    zip: storage.services.zip,
    actorOf: (userId) => users.services.users.actorById(userId),
    sessionEnded: signIn.services.sessionEnded,
  });
  // After the connectors: a transfer's linked files are read through the owner's linked accounts.
  const transfers = createTransfersModule(core, {
    uploads: uploads.services.uploads,
    zip: storage.services.zip,
    limitsFor: (userId) => entitlements.limits(userId),
    transfersThisMonth: (userId) => entitlements.transfersThisMonth(userId),
    userOf: (userId) => users.services.users.actorById(userId),
    linkedDrive: (userId, connectorId) => connectors.services.connectors.open(userId, connectorId),
  });
  const others: AppModule[] = [
    createHealthModule(core, { database }),
    // Before the media modules: its hook sends a room's WHIP/WHEP to the node holding the room.
    createSfuRoutingModule(core, {
      clustered: database.kind === 'postgres',
      rooms: [
        liveSfuRooms(live.services.repository),
        talkbackSfuRooms(live.services.repository),
        broadcastSfuRooms(new BroadcastRepository(core.db)),
      ],
    }),
    signIn,
    users,
    uploads,
    storage,
    sharing,
    transfers,
    comments,
    review,
    credits,
    billing,
    admin,
    push,
    createMaintenanceModule(core, { uploads: uploads.services.uploads, embedded: database.kind === 'pglite' }),
    createFilesModule(core, { signer }),
    live,
    liveMedia,
    createBroadcastModule(core, broadcastDeps),
    createBroadcastMediaModule(core, { ...broadcastDeps, sfu: () => liveMedia.services.hub().sfu }),
    createTalkbackModule(core, talkbackDeps),
    createTalkbackMediaModule(core, talkbackDeps),
    createToolsModule(core, {
      uploads: uploads.services.uploads,
      credits: credits.services.credits,
      projects: storage.services.projects,
      attachments: storage.services.attachments,
      mediaTools,
      linkedFiles: (userId, connectorId, path, maxBytes) =>
        connectors.services.connectors.readFile(userId, connectorId, path, maxBytes),
    }),
    connectors,
  ];
  const localAccounts = signIn.services.signIn;
  const account = createAccountModule(core, {
    users: users.services.users,
    usersRepository,
    repository: accountRepository,
    notifier,
    mediaTools,
    localAccounts: localAccounts !== null,
    verifyPassword: async (userId, password, address) => {
      if (!localAccounts) throw new Error('passwords are kept by the external issuer');
      await localAccounts.verifyCurrentPassword(userId, password, address);
    },
    hasRunningPaidSubscription: (userId) => entitlements.hasRunningPaidSubscription(userId),
    revokeSessions,
    abortUploads: (userId, prefixes) => uploads.services.uploads.abortForErasure(userId, prefixes),
    contributions: others.flatMap((m) => (m.userData ? [m.userData] : [])),
  });
  return {
    modules: [...others, account],
    services: {
      users: users.services.users,
      signIn: signIn.services.signIn,
      admin: admin.services.admin,
      uploads: uploads.services.uploads,
      storage: storage.services,
      sharing: sharing.services.sharing,
      publicShare: sharing.services.publicShare,
      push: push.services.push,
      pushDevices: push.services.devices,
      comments: comments.services.comments,
      review: review.services.review,
      entitlements,
      credits: credits.services.credits,
      transfers: transfers.services.transfers,
      planEndings: billing.services.planEndings,
      connectors: connectors.services.connectors,
    },
    identity: { provider: signIn.services.provider, verifyToken: signIn.services.verifyToken },
  };
}

export type ModuleServices = Awaited<ReturnType<typeof createModules>>['services'];
