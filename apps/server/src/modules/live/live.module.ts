import type { PlanLimits, PlanSku } from '@mixroom/shared';
import type { UploadTicket } from '@mixroom/contracts';
import { AttemptLimitsRepository } from '../../platform/security/attempt-limits.repository';
import { AttemptLimiter } from '../../platform/security/attempt-limiter';
import type { Actor } from '../../platform/identity/actor';
import { DEFAULT_SLOT_COUNT } from '../../platform/rtc/sfu-driver';
import type { AppModule, CoreDeps } from '../module';
import { LiveMediaService } from './live-media.service';
import { LiveRoomsService } from './live-rooms.service';
import { LiveSessionsService } from './live-sessions.service';
import { LivePresence } from './live-presence';
import { LiveTimers } from './live-timers';
import type { UserCard } from './live.presenter';
import { LiveRepository } from './live.repository';
import { liveRoutes } from './live.routes';
import { liveUserData } from './live.user-data';
import { LiveSlotWatchers } from './live-slot-watchers';

export interface LiveModuleDeps {
  limitsOf: (userId: string) => Promise<PlanLimits>;
  skusOf: (userId: string) => Promise<PlanSku[]>;
  cardsOf: (userIds: string[]) => Promise<UserCard[]>;
  trialOf: (userId: string) => Promise<{ sku: PlanSku; startsAt: Date } | null>;
  /** The storage area's one way to make a version (its edit check included). */
  startVersion: (
    actor: Actor,
    projectId: string,
    input: { name: string; fileName: string; size: number },
  ) => Promise<UploadTicket>;
}

export type LiveModule = AppModule<{
  rooms: LiveRoomsService;
  sessions: LiveSessionsService;
  media: LiveMediaService;
  timers: LiveTimers;
  repository: LiveRepository;
  /** What the admin area shows of a user's live data (existing codes only: reading creates none). */
  adminFacts: {
    roomCodes: (userId: string) => Promise<{ role: string; code: string }[]>;
    sessionElapsedMs: (userId: string) => Promise<number | null>;
  };
}>;

/**
 * Live rooms on API nodes: room codes, sessions, media tokens, free-tier timers and the `live:{code}`
 * topic rule (the host and admitted guests of that room). The media itself (WHIP/WHEP, the SFU) is
 * the `live-media` module on `sfu` nodes.
 */
export function createLiveModule(core: CoreDeps, deps: LiveModuleDeps): LiveModule {
  const repository = new LiveRepository(core.db);
  const timers = new LiveTimers({ repository, clock: core.clock, bus: core.bus, log: core.log });
  let sessions: LiveSessionsService | null = null;
  const rooms = new LiveRoomsService({
    repository,
    unitOfWork: core.unitOfWork,
    clock: core.clock,
    publicUrl: core.config.publicUrl,
    guestCodeReplaced: (oldCode) => (sessions ? sessions.guestCodeReplaced(oldCode) : Promise.resolve()),
  });
  sessions = new LiveSessionsService({
    repository,
    unitOfWork: core.unitOfWork,
    clock: core.clock,
    bus: core.bus,
    accessChanges: core.accessChanges,
    limiter: new AttemptLimiter(new AttemptLimitsRepository(core.db), core.clock),
    rooms,
    timers,
    publicUrl: core.config.publicUrl,
    limitsOf: deps.limitsOf,
    cardsOf: deps.cardsOf,
    trialOf: deps.trialOf,
  });
  const media = new LiveMediaService({
    repository,
    sessions,
    tokens: core.tokens,
    clock: core.clock,
    publicUrl: core.config.publicUrl,
    iceServers: core.config.live.iceServers,
    slotCount: DEFAULT_SLOT_COUNT,
    limitsOf: deps.limitsOf,
    skusOf: deps.skusOf,
    startVersion: deps.startVersion,
  });
  const live = sessions;
  const presence = new LivePresence({
    clock: core.clock,
    log: core.log,
    away: (code, userId) => live.away(code, userId),
  });
  const slotWatchers = new LiveSlotWatchers(core.bus);
  return {
    name: 'live',
    roles: ['api'],
    routes: [(app) => app.register(liveRoutes, { rooms, sessions: live, media })],
    services: {
      rooms,
      sessions: live,
      media,
      timers,
      repository,
      adminFacts: {
        roomCodes: async (userId) =>
          (await repository.codesOf(userId))
            .sort((a, b) => b.role.localeCompare(a.role)) // host, then guest
            .map((c) => ({ role: c.role, code: c.code })),
        sessionElapsedMs: async (userId) => {
          const [session] = await repository.sessionsOfHost(userId);
          return session ? session.elapsedMs : null;
        },
      },
    },
    userData: liveUserData(repository),
    onStart: () => live.resume(),
    onStop: async () => {
      timers.cancelAll();
      presence.stop();
    },
    clientMessages: {
      'live.slots': (sender, message) => slotWatchers.watch(sender, message.code, message.resourceId),
    },
    reactions: {
      'presence.changed': (event) => presence.onPresence(event.topic, event.data),
      'live.slots.changed': async (event) => slotWatchers.deliver(event.data),
    },
    topics: {
      live: {
        async canFollow(actor, code) {
          const session = await repository.session(code);
          if (!session) return false;
          return session.hostId === actor.userId || (await repository.stream(code, actor.userId)) !== null;
        },
        // Broadcast listeners will follow a public room by grant; no room is public yet.
        canFollowPublicly: async () => false,
      },
    },
  };
}
