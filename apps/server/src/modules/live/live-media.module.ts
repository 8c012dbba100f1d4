import type { EventData } from '@mixroom/contracts';
import type { AppModule, CoreDeps } from '../module';
import { LiveMediaHub } from './live-media-hub';
import { liveMediaRoutes } from './live-media.routes';
import type { LiveMediaService } from './live-media.service';
import { createSfu } from './sfu-factory';

export type LiveMediaModule = AppModule<{ hub: () => LiveMediaHub }>;

/**
 * The media part of live rooms, on `sfu` nodes only: WHIP/WHEP routes over the configured SFU
 * driver, the slot maps of its listening resources (asked for and told on the bus), and the room changes that end, drop or
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
  const tellSlots = (data: EventData<'live.slots.changed'>) =>
    core.bus.publish({ topic: 'system', type: 'live.slots.changed', data });
  const theHub = (): LiveMediaHub =>
    (hub ??= new LiveMediaHub({
      sfu: createSfu(core.config.live),
      media: deps.media,
      log: core.log,
      announce,
      tellSlots,
    }));
  return {
    name: 'live-media',
    roles: ['sfu'],
    anyNodeRoutes: [(app) => app.register(liveMediaRoutes, { media: deps.media, hub: theHub() })],
    services: { hub: theHub },
    onStop: async () => {
      await hub?.close();
    },
    reactions: {
      'live.changed': (event) => theHub().onRoomChanged(event.data),
      'live.slots.requested': (event) => theHub().answerSlots(event.data),
    },
  };
}
