import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { liveEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { LiveMediaService } from './live-media.service';
import type { LiveRoomsService } from './live-rooms.service';
import type { LiveSessionsService } from './live-sessions.service';

export interface LiveRoutesDeps {
  rooms: LiveRoomsService;
  sessions: LiveSessionsService;
  media: LiveMediaService;
}

/** Live rooms on API nodes: codes, the session's lifecycle, media tokens, saving a recording. */
export const liveRoutes: FastifyPluginAsyncZod<LiveRoutesDeps> = async (app, { rooms, sessions, media }) => {
  route(app, endpoints.rooms, (request) => rooms.rooms(requireActor(request)));
  route(app, endpoints.regenerate, (request) => rooms.regenerate(requireActor(request), request.params.role));
  route(app, endpoints.start, (request) =>
    sessions.start(requireActor(request), request.params.code, request.body.instanceId),
  );
  route(app, endpoints.join, (request) =>
    sessions.join(requireActor(request), request.params.code, request.body.instanceId, request.ip),
  );
  route(app, endpoints.get, (request) => sessions.get(requireActor(request), request.params.code));
  route(app, endpoints.leave, (request) =>
    sessions.leave(requireActor(request), request.params.code, request.body.instanceId),
  );
  route(app, endpoints.coHost, (request) =>
    sessions.setCoHost(requireActor(request), request.params.code, request.body.userId, request.body.enabled),
  );
  route(app, endpoints.settings, (request) =>
    sessions.settings(requireActor(request), request.params.code, request.body),
  );
  route(app, endpoints.mediaToken, (request) =>
    media.mint(requireActor(request), request.params.code, request.body.mode),
  );
  route(app, endpoints.saveRecording, (request) =>
    media.saveRecording(requireActor(request), request.params.code, request.body),
  );
};
