import type { AppModule, CoreDeps } from '../module';

export type LiveModule = AppModule;

/** Live rooms (codes, sessions, media tokens, WHIP/WHEP); the `live:{code}` topic's rule. */
export function createLiveModule(_core: CoreDeps): LiveModule {
  return {
    name: 'live',
    services: {},
    topics: { live: { canFollow: async () => false, canFollowPublicly: async () => false } },
  };
}
