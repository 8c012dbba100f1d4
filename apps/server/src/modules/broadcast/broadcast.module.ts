import { AttemptLimitsRepository } from '../../platform/security/attempt-limits.repository';
import { AttemptLimiter } from '../../platform/security/attempt-limiter';
import type { SfuDriver } from '../../platform/rtc/sfu-driver';
import type { AppModule, CoreDeps } from '../module';
import type { BroadcastFacts } from './broadcast-access';
import { BroadcastMediaHub } from './broadcast-media-hub';
import { broadcastMediaRoutes } from './broadcast-media.routes';
import { BroadcastPublicService } from './broadcast-public.service';
import { BroadcastRoomsService } from './broadcast-rooms.service';
import { BroadcastRepository } from './broadcast.repository';
import { broadcastRoutes } from './broadcast.routes';
import { broadcastUserData } from './broadcast.user-data';

export interface BroadcastModuleDeps {
  factsOf: (userId: string) => Promise<BroadcastFacts>;
  cardOf: (userId: string) => Promise<{ displayName: string; photoUrl: string | null } | null>;
  /** Room codes as live rooms draw them (50 random bits). */
  newCode: () => string;
}

export type BroadcastModule = AppModule<{
  rooms: BroadcastRoomsService;
  publicView: BroadcastPublicService;
  repository: BroadcastRepository;
}>;

function services(core: CoreDeps, deps: BroadcastModuleDeps) {
  const repository = new BroadcastRepository(core.db);
  const rooms = new BroadcastRoomsService({
    repository,
    clock: core.clock,
    bus: core.bus,
    accessChanges: core.accessChanges,
    tokens: core.tokens,
    publicUrl: core.config.publicUrl,
    iceServers: core.config.live.iceServers,
    factsOf: deps.factsOf,
    newCode: deps.newCode,
  });
  const publicView = new BroadcastPublicService({
    repository,
    rooms,
    clock: core.clock,
    tokens: core.tokens,
    grants: core.grants,
    limiter: new AttemptLimiter(new AttemptLimitsRepository(core.db), core.clock),
    iceServers: core.config.live.iceServers,
    cardOf: deps.cardOf,
  });
  return { repository, rooms, publicView };
}

/**
 * Broadcasts on API nodes: the broadcaster's streaming room (codes, countdown, stream key), the
 * public view and a listener's way in by the viewer code, and the `broadcast:{code}` topic rule
 * (the broadcaster and anyone signed in with the current code; grant sockets while it is current).
 */
export function createBroadcastModule(core: CoreDeps, deps: BroadcastModuleDeps): BroadcastModule {
  const { repository, rooms, publicView } = services(core, deps);
  const current = async (code: string) => (await repository.byViewerCode(code)) !== null;
  return {
    name: 'broadcast',
    roles: ['api'],
    routes: [(app) => app.register(broadcastRoutes, { rooms, publicView })],
    services: { rooms, publicView, repository },
    userData: broadcastUserData(repository),
    onStop: async () => rooms.stopTimers(),
    topics: {
      broadcast: {
        canFollow: (_actor, code) => current(code),
        canFollowPublicly: (code) => current(code),
      },
    },
  };
}

export type BroadcastMediaModule = AppModule<{ hub: BroadcastMediaHub }>;

/**
 * The media part of broadcasts, on `sfu` nodes: WHIP ingest and WHEP egress over the node's SFU
 * (the one live rooms use), listener counts and the live/ended status that follows the publisher.
 */
export function createBroadcastMediaModule(
  core: CoreDeps,
  deps: BroadcastModuleDeps & { sfu: () => SfuDriver },
): BroadcastMediaModule {
  const { repository, publicView } = services(core, deps);
  const hub = new BroadcastMediaHub({ sfu: deps.sfu, repository, bus: core.bus, clock: core.clock, log: core.log });
  return {
    name: 'broadcast-media',
    roles: ['sfu'],
    anyNodeRoutes: [(app) => app.register(broadcastMediaRoutes, { access: publicView, hub })],
    services: { hub },
    onStart: async () => hub.start(),
    onStop: async () => hub.close(),
    reactions: { 'broadcast.changed': (event) => hub.onChanged(event.data) },
  };
}
