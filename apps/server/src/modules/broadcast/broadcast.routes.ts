import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { broadcastEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { BroadcastPublicService } from './broadcast-public.service';
import type { BroadcastRoomsService } from './broadcast-rooms.service';

export interface BroadcastRoutesDeps {
  rooms: BroadcastRoomsService;
  publicView: BroadcastPublicService;
}

/** Broadcasts on API nodes: the broadcaster's room, and the listeners' public view and way in. */
export const broadcastRoutes: FastifyPluginAsyncZod<BroadcastRoutesDeps> = async (app, { rooms, publicView }) => {
  route(app, endpoints.room, (request) => rooms.room(requireActor(request)));
  route(app, endpoints.settings, (request) => rooms.settings(requireActor(request), request.body));
  route(app, endpoints.regenerate, (request) => rooms.regenerate(requireActor(request), request.params.role));
  route(app, endpoints.streamKey, (request) => rooms.newStreamKey(requireActor(request)));
  route(app, endpoints.start, (request) => rooms.start(requireActor(request), request.params.code));
  route(app, endpoints.stop, (request) => rooms.stop(requireActor(request), request.params.code));
  route(app, endpoints.mediaToken, (request) => rooms.mediaToken(requireActor(request), request.params.code));
  route(app, endpoints.publicGet, (request) => publicView.view(request.params.code, request.ip));
  route(app, endpoints.publicAccess, (request) => publicView.access(request.params.code, request.ip));
};
