import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { liveMediaEndpoints as endpoints } from '@mixroom/contracts';
import { route } from '../../http/endpoint';
import type { LiveMediaHub } from './live-media-hub';
import type { LiveMediaService, MediaMode } from './live-media.service';

export interface LiveMediaRoutesDeps {
  media: LiveMediaService;
  hub: LiveMediaHub;
}

const SDP_TYPES = ['application/sdp', 'application/trickle-ice-sdpfrag'];

function bearerOf(request: FastifyRequest): string | null {
  const [scheme, token] = (request.headers.authorization ?? '').split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

/**
 * WHIP (publish) and WHEP (subscribe) on `sfu` nodes: SDP over HTTP with a media token as the
 * bearer. Each request checks the token against the room as it is now; PATCH and DELETE reach only
 * the caller's own resource.
 */
export const liveMediaRoutes: FastifyPluginAsyncZod<LiveMediaRoutesDeps> = async (app, { media, hub }) => {
  app.addContentTypeParser(SDP_TYPES, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  for (const [kind, mode] of [
    ['whip', 'publish'],
    ['whep', 'subscribe'],
  ] as const satisfies [string, MediaMode][]) {
    const post = kind === 'whip' ? endpoints.whip : endpoints.whep;
    const patch = kind === 'whip' ? endpoints.whipPatch : endpoints.whepPatch;
    const remove = kind === 'whip' ? endpoints.whipDelete : endpoints.whepDelete;
    route(app, post, async (request, reply) => {
      const grant = await media.authorize(bearerOf(request), request.params.code, mode);
      const exchange =
        mode === 'publish' ? await hub.publish(grant, request.body) : await hub.subscribe(grant, request.body);
      return reply
        .status(201)
        .header('content-type', 'application/sdp')
        .header('location', `/api/live/${grant.room}/${kind}/${exchange.resourceId}`)
        .send(exchange.answerSdp);
    });
    route(app, patch, async (request, reply) => {
      const grant = await media.authorize(bearerOf(request), request.params.code, mode);
      const ok =
        hub.owns(request.params.resourceId, grant) &&
        (await hub.sfu.addIceCandidates(request.params.resourceId, request.body));
      return ok ? reply.status(204).send() : notFound(reply);
    });
    route(app, remove, async (request, reply) => {
      const grant = await media.authorize(bearerOf(request), request.params.code, mode);
      const ok = hub.owns(request.params.resourceId, grant) && (await hub.sfu.remove(request.params.resourceId));
      return ok ? reply.status(200).send() : notFound(reply);
    });
  }
};

function notFound(reply: FastifyReply) {
  return reply.status(404).send({ error: { code: 'NOT_FOUND', message: 'No such media resource.' } });
}
