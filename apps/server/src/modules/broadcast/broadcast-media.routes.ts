import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { broadcastMediaEndpoints as endpoints } from '@mixroom/contracts';
import { route } from '../../http/endpoint';
import type { BroadcastMediaHub } from './broadcast-media-hub';
import type { BroadcastPublicService } from './broadcast-public.service';
import { broadcastRoomId } from './broadcast-tokens';

export interface BroadcastMediaRoutesDeps {
  access: BroadcastPublicService;
  hub: BroadcastMediaHub;
}

const SDP_TYPES = ['application/sdp', 'application/trickle-ice-sdpfrag'];

function bearerOf(request: FastifyRequest): string | null {
  const [scheme, token] = (request.headers.authorization ?? '').split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

/**
 * WHIP into a broadcast (its broadcaster code; bearer: the stream key or the browser's token) and
 * WHEP out of it (its viewer code; no account, a bearer optional) on `sfu` nodes. The resource URL
 * an answer names is the capability for its PATCH and DELETE, while its code still leads to the room.
 */
export const broadcastMediaRoutes: FastifyPluginAsyncZod<BroadcastMediaRoutesDeps> = async (app, { access, hub }) => {
  // Live rooms' media routes may already have taken these types on a shared instance.
  if (!app.hasContentTypeParser('application/sdp'))
    app.addContentTypeParser(SDP_TYPES, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
  route(app, endpoints.whip, async (request, reply) => {
    const grant = await access.authorizePublish(bearerOf(request), request.params.code);
    const exchange = await hub.publish(grant, request.body);
    return created(reply, `/api/broadcast/${grant.code}/whip/${exchange.resourceId}`, exchange.answerSdp);
  });
  route(app, endpoints.whep, async (request, reply) => {
    const grant = await access.authorizeListen(bearerOf(request), request.params.code, request.ip);
    const exchange = await hub.subscribe(grant, access.listenerId(), request.body);
    return created(reply, `/api/broadcast/${grant.code}/whep/${exchange.resourceId}`, exchange.answerSdp);
  });
  for (const mode of ['publish', 'subscribe'] as const) {
    const patch = mode === 'publish' ? endpoints.whipPatch : endpoints.whepPatch;
    const remove = mode === 'publish' ? endpoints.whipDelete : endpoints.whepDelete;
    route(app, patch, async (request, reply) => {
      const room = await access.stillValid(request.params.code, mode);
      const ok =
        room !== null &&
        hub.owns(request.params.resourceId, broadcastRoomId(room.userId), mode) &&
        (await hub.sfu.addIceCandidates(request.params.resourceId, request.body));
      return ok ? reply.status(204).send() : notFound(reply);
    });
    route(app, remove, async (request, reply) => {
      const room = await access.stillValid(request.params.code, mode);
      const ok =
        room !== null &&
        hub.owns(request.params.resourceId, broadcastRoomId(room.userId), mode) &&
        (await hub.sfu.remove(request.params.resourceId));
      return ok ? reply.status(200).send() : notFound(reply);
    });
  }
};

function created(reply: FastifyReply, location: string, answerSdp: string) {
  return reply.status(201).header('content-type', 'application/sdp').header('location', location).send(answerSdp);
}

function notFound(reply: FastifyReply) {
  return reply.status(404).send({ error: { code: 'NOT_FOUND', message: 'No such media resource.' } });
}
