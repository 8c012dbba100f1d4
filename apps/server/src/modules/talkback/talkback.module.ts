import type { SfuDriver } from '../../platform/rtc/sfu-driver';
import type { LiveRepository, LiveSessionsService } from '../live';
import type { AppModule, CoreDeps } from '../module';
import type { PlanLimits } from '@mixroom/shared';
import { TalkbackHub } from './talkback-hub';
import { talkbackMediaRoutes, talkbackRoutes } from './talkback.routes';
import { TalkbackService } from './talkback.service';

export interface TalkbackModuleDeps {
  repository: LiveRepository;
  sessions: LiveSessionsService;
  limitsOf: (userId: string) => Promise<PlanLimits>;
  /** The node's SFU, the one the live music runs on. */
  sfu: () => SfuDriver;
  slotCount: number;
}

export type TalkbackMediaModule = AppModule<{ hub: TalkbackHub; talkback: TalkbackService }>;

function serviceOf(core: CoreDeps, deps: TalkbackModuleDeps): TalkbackService {
  return new TalkbackService({
    repository: deps.repository,
    sessions: deps.sessions,
    limitsOf: deps.limitsOf,
    tokens: core.tokens,
    clock: core.clock,
    publicUrl: core.config.publicUrl,
    iceServers: core.config.live.iceServers,
    slotCount: deps.slotCount,
  });
}

/** The talkback token on API nodes: only participants admitted to the live room get one. */
export function createTalkbackModule(core: CoreDeps, deps: TalkbackModuleDeps): AppModule {
  const talkback = serviceOf(core, deps);
  return {
    name: 'talkback',
    roles: ['api'],
    routes: [(app) => app.register(talkbackRoutes, { talkback })],
    services: {},
  };
}

/**
 * Talkback media on `sfu` nodes: WHIP/WHEP in talkback rooms of the same SFU as the music, and the
 * live room changes (ended, left, replaced tab) that free a participant's talkback peers.
 */
export function createTalkbackMediaModule(core: CoreDeps, deps: TalkbackModuleDeps): TalkbackMediaModule {
  const talkback = serviceOf(core, deps);
  const hub = new TalkbackHub(deps.sfu);
  return {
    name: 'talkback-media',
    roles: ['sfu'],
    anyNodeRoutes: [(app) => app.register(talkbackMediaRoutes, { talkback, hub })],
    services: { hub, talkback },
    onStop: () => hub.close(),
    reactions: {
      'live.changed': (event) => hub.onRoomChanged(event.data),
    },
  };
}
