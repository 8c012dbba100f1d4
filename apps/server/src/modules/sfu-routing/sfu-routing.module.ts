import { randomUUID } from 'node:crypto';
import type { AppModule, CoreDeps } from '../module';
import type { SfuRoomRoute } from './sfu-rooms';
import { sfuRoutingHook } from './sfu-routing.hook';
import { SfuRoutingRepository } from './sfu-routing.repository';
import { SfuRoutingService } from './sfu-routing.service';

export type SfuRoutingModule = AppModule<{ routing: SfuRoutingService | null }>;

/**
 * Media rooms across nodes on one PostgreSQL: `sfu` nodes record their presence, and every node
 * sends a room's WHIP/WHEP requests to the node holding it (`rooms` lists the routed endpoint
 * families). On the embedded database there is one process and so one SFU: nothing is recorded,
 * no hook is added, requests go straight to the media routes as before.
 */
export function createSfuRoutingModule(
  core: CoreDeps,
  deps: { clustered: boolean; rooms: readonly SfuRoomRoute[] },
): SfuRoutingModule {
  const name = 'sfu-routing';
  if (!deps.clustered) return { name, roles: ['api', 'sfu'], services: { routing: null } };
  const routing = new SfuRoutingService({
    repository: new SfuRoutingRepository(core.db),
    clock: core.clock,
    log: core.log,
    self: { id: randomUUID(), url: core.config.node.url, sfu: core.config.roles.sfu },
    heartbeatMs: core.config.node.heartbeatMs,
  });
  const hook = sfuRoutingHook({ routing, routes: deps.rooms, tokens: core.tokens, log: core.log });
  return {
    name,
    roles: ['api', 'sfu'],
    // On the root instance, before any route: it must see requests no route of this node serves.
    anyNodeRoutes: [
      async (app) => {
        app.addHook('onRequest', hook);
      },
    ],
    services: { routing },
    onStart: () => routing.start(),
    onStop: () => routing.stop(),
  };
}
