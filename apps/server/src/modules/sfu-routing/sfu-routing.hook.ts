import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppError } from '../../http/app-error';
import type { TokenSigner } from '../../platform/secrets/token-signer';
import { FORWARDED_HEADER, forwardSignalling, UnreachableError } from './sfu-proxy';
import { matchSignalling, type SfuRoomRoute } from './sfu-rooms';
import type { Holder, SfuRoutingService } from './sfu-routing.service';

const NOTE_PURPOSE = 'sfu-forward';
const NOTE_TTL_SECONDS = 60;

interface ForwardNote {
  /** The node that sent the request on. */
  n: string;
  /** The client's address as that node saw it (attempt limits count per address). */
  ip: string;
}

export interface SfuRoutingHookDeps {
  routing: SfuRoutingService;
  routes: readonly SfuRoomRoute[];
  tokens: TokenSigner;
  log: Logger;
}

/**
 * Sends each WHIP/WHEP request (offer, trickle, stop) of a routed room to the node holding the room,
 * before anything reads its body. The holder checks the media token itself exactly as for a request
 * from a client: forwarding grants nothing. The signed note only stops a forwarded request from
 * being routed again and carries the client's address; a request without a valid one is routed.
 */
export function sfuRoutingHook({ routing, routes, tokens, log }: SfuRoutingHookDeps) {
  const noteFor = (request: FastifyRequest) =>
    tokens.sign(NOTE_PURPOSE, { n: routing.nodeId, ip: request.ip } satisfies ForwardNote, NOTE_TTL_SECONDS);
  const targetOf = (holder: Holder, request: FastifyRequest) => ({
    // A room moved onto this node after the body was read goes round through its own URL.
    baseUrl: holder.self ? routing.selfUrl : holder.node.url,
    note: noteFor(request),
  });

  let warnedSameUrl = false;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const signalling = matchSignalling(routes, request.url);
    if (!signalling) return undefined;
    const noted = request.headers[FORWARDED_HEADER];
    const note = typeof noted === 'string' ? tokens.verify<ForwardNote>(NOTE_PURPOSE, noted) : null;
    if (note) {
      // Served here, whoever holds the room now: a forwarded request is never sent on again.
      Object.defineProperty(request, 'ip', { value: note.ip });
      return undefined;
    }
    const room = await signalling.route.roomOf(signalling.code, signalling.kind);
    if (!room) return undefined;
    // Only an offer places a room; a trickle or stop for a room nobody holds finds nothing anywhere.
    const place = request.method === 'POST';
    const holder = await routing.holderFor(room, place);
    if (!holder || holder.self) return undefined;
    if (holder.node.url === routing.selfUrl && !warnedSameUrl) {
      // Two nodes naming one URL (a loopback default on each): requests would stay where they arrive.
      warnedSameUrl = true;
      log.error({ url: holder.node.url }, "another SFU node advertises this node's URL: set MIXROOM_NODE_URL on each");
    }
    try {
      return await forwardSignalling(request, reply, targetOf(holder, request));
    } catch (error) {
      if (!(error instanceof UnreachableError) || error.body === null) throw unavailable(reply, error, log);
      // The holder did not answer: asked directly, a gone process loses the room at once; a live one
      // keeps it; a silent one keeps it until its heartbeat says it is gone (see afterUnreachable).
      const { next, why } = await routing.afterUnreachable(room, holder.node, place);
      log.warn({ room, holder: holder.node.id, why, next: next?.node.id }, 'media room holder unreachable');
      if (!next) throw new AppError(404, 'NOT_FOUND', 'No such media resource.');
      try {
        return await forwardSignalling(request, reply, targetOf(next, request), error.body);
      } catch (again) {
        throw unavailable(reply, again, log);
      }
    }
  };
}

/** The holder failed to answer (gone, or too slow): the client tries again by its backoff. */
function unavailable(reply: FastifyReply, cause: unknown, log: Logger): unknown {
  if (cause instanceof AppError) return cause;
  log.warn({ err: cause }, 'a media request could not be forwarded to its room');
  void reply.header('retry-after', '2');
  return new AppError(503, 'SFU_UNAVAILABLE', 'The media server of this room is not reachable; try again shortly.');
}
