import type { AppModule, CoreDeps } from '../module';
import { LiveMediaHub } from './live-media-hub';
import { liveMediaRoutes } from './live-media.routes';
import type { LiveMediaService } from './live-media.service';
import { createSfu } from './sfu-factory';

export type LiveMediaModule = AppModule<{ hub: () => LiveMediaHub }>;

/**
 * The media part of live rooms, on `sfu` nodes only: WHIP/WHEP routes over the configured SFU
 * driver, slot maps for subscribers' sockets (`live.slots`), and the room changes that end, drop or
 * stop peers. A node without the `sfu` role builds no SFU and serves none of it.
 */
export function createLiveMediaModule(core: CoreDeps, deps: { media: LiveMediaService }): LiveMediaModule {
  let hub: LiveMediaHub | null = null;
  const announce = (code: string, userId: string) =>
    core.bus.publishOrLog({
      topic: `live:${code}`,
      type: 'live.changed',
      data: { code, action: 'publishing', userId, instanceId: null, remainingMs: null },
    });
  const theHub = (): LiveMediaHub =>
    (hub ??= new LiveMediaHub({ sfu: createSfu(core.config.live), media: deps.media, log: core.log, announce }));
  return {
    name: 'live-media',
    roles: ['sfu'],
    anyNodeRoutes: [(app) => app.register(liveMediaRoutes, { media: deps.media, hub: theHub() })],
    services: { hub: theHub },
    onStop: async () => {
      await hub?.close();
    },
    clientMessages: {
      'live.slots': async (sender, message) => theHub().watchSlots(sender, message.code, message.resourceId),
    },
    reactions: {
      'live.changed': (event) => theHub().onRoomChanged(event.data),
    },
  };
}
