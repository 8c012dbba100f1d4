import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { talkbackEndpoints, talkbackMediaEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { TalkbackHub } from './talkback-hub';
import type { TalkbackMode, TalkbackService } from './talkback.service';

const SDP_TYPES = ['application/sdp', 'application/trickle-ice-sdpfrag'];

function bearerOf(request: FastifyRequest): string | null {
  const [scheme, token] = (request.headers.authorization ?? '').split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

function notFound(reply: FastifyReply) {
  return reply.status(404).send({ error: { code: 'NOT_FOUND', message: 'No such talkback resource.' } });
}

/** The talkback token, on API nodes (a signed-in participant of the room). */
export const talkbackRoutes: FastifyPluginAsyncZod<{ talkback: TalkbackService }> = async (app, { talkback }) => {
  route(app, talkbackEndpoints.token, (request) =>
    talkback.mint(requireActor(request), request.params.code, request.body.mode),
  );
};

/**
 * Talkback WHIP (talk) and WHEP (hear everyone else) on `sfu` nodes, with a talkback token as the
 * bearer. Every request checks the token against the room as it is now; PATCH, DELETE and the slot
 * map reach only the caller's own resource.
 */
export const talkbackMediaRoutes: FastifyPluginAsyncZod<{ talkback: TalkbackService; hub: TalkbackHub }> = async (
  app,
  { talkback, hub },
) => {
  app.addContentTypeParser(SDP_TYPES, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  for (const [kind, mode] of [
    ['whip', 'publish'],
    ['whep', 'subscribe'],
  ] as const satisfies [string, TalkbackMode][]) {
    const post = kind === 'whip' ? endpoints.whip : endpoints.whep;
    const patch = kind === 'whip' ? endpoints.whipPatch : endpoints.whepPatch;
    const remove = kind === 'whip' ? endpoints.whipDelete : endpoints.whepDelete;
    route(app, post, async (request, reply) => {
      const grant = await talkback.authorize(bearerOf(request), request.params.code, mode);
      const exchange =
        mode === 'publish' ? await hub.publish(grant, request.body) : await hub.subscribe(grant, request.body);
      return reply
        .status(201)
        .header('content-type', 'application/sdp')
        .header('location', `/api/live/${grant.code}/talkback/${kind}/${exchange.resourceId}`)
        .send(exchange.answerSdp);
    });
    route(app, patch, async (request, reply) => {
      const grant = await talkback.authorize(bearerOf(request), request.params.code, mode);
      const ok =
        hub.owns(request.params.resourceId, grant) &&
        (await hub.sfu.addIceCandidates(request.params.resourceId, request.body));
      return ok ? reply.status(204).send() : notFound(reply);
    });
    route(app, remove, async (request, reply) => {
      const grant = await talkback.authorize(bearerOf(request), request.params.code, mode);
      const ok = hub.owns(request.params.resourceId, grant) && (await hub.sfu.remove(request.params.resourceId));
      return ok ? reply.status(200).send() : notFound(reply);
    });
  }
  route(app, endpoints.whepSlots, async (request, reply) => {
    const grant = await talkback.authorize(bearerOf(request), request.params.code, 'subscribe');
    const slots = hub.slots(request.params.resourceId, grant);
    return slots ? { slots } : notFound(reply);
  });
};
