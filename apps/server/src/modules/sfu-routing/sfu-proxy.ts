import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { finished } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The header a forwarded request carries: a short signed note of the sending node and the client's address. */
export const FORWARDED_HEADER = 'x-mixroom-sfu-forwarded';

/** SDP offers and trickle fragments are small: this much is kept to resend after a failed connect. */
const RESEND_LIMIT = 128 * 1024;
const CONNECT_TIMEOUT_MS = 2000;
const ANSWER_TIMEOUT_MS = 20_000;
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

// Connection-level headers are the hop's own; the rest of the request goes through as it came.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  FORWARDED_HEADER,
]);
// What a WHIP/WHEP answer says that the client needs: the rest is the answering node's own business.
const ANSWER_HEADERS = [
  'content-type',
  'content-length',
  'location',
  'etag',
  'link',
  'accept-patch',
  'retry-after',
  'cache-control',
];

/** The request could not reach the other node (nothing was answered): the caller may try elsewhere. */
export class UnreachableError extends Error {
  constructor(
    readonly body: Buffer | null,
    cause: unknown,
  ) {
    super('the holding node could not be reached', { cause });
  }
}

export interface ForwardTarget {
  baseUrl: string;
  /** The signed note for FORWARDED_HEADER. */
  note: string;
}

/**
 * Sends a signalling request on to another node and its answer back to the client: the body streams
 * through (a copy of it is kept, up to RESEND_LIMIT, in case the connection fails and it must go
 * elsewhere); status, type, Location and ETag come back. A Location naming the other node's own URL
 * becomes a path, so the client's PATCH and DELETE come back through whichever node it reaches.
 * `body` replays a body already read by a first attempt.
 */
export async function forwardSignalling(
  request: FastifyRequest,
  reply: FastifyReply,
  target: ForwardTarget,
  body: Buffer | null = null,
): Promise<FastifyReply> {
  const url = new URL(request.url, target.baseUrl);
  const headers: Record<string, string | string[]> = { [FORWARDED_HEADER]: target.note };
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  if (body) {
    headers['content-length'] = String(body.length);
    delete headers['transfer-encoding'];
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const kept: Buffer[] = [];
  let keptBytes = 0;
  const answer = await new Promise<IncomingMessage>((resolve, reject) => {
    let answered = false;
    // A connection of its own per request: a pooled socket the other node closed would read as a dead node.
    const outgoing = send(url, { method: request.method, headers, agent: false }, (response) => {
      answered = true;
      outgoing.setTimeout(0);
      resolve(response);
    });
    // Until connected, a short wait says the node is away; past it, the node has time to answer an offer.
    outgoing.setTimeout(CONNECT_TIMEOUT_MS);
    outgoing.on('socket', (socket) => socket.once('connect', () => outgoing.setTimeout(ANSWER_TIMEOUT_MS)));
    outgoing.on('timeout', () => outgoing.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      // Nothing came back: the node is down or away, and the request may go elsewhere.
      reject(UNREACHABLE.has(error.code ?? '') ? new UnreachableError(body, error) : error);
    });
    if (body) {
      outgoing.end(body);
      return;
    }
    request.raw.on('data', (chunk: Buffer) => {
      keptBytes += chunk.length;
      if (keptBytes <= RESEND_LIMIT) kept.push(chunk);
    });
    request.raw.pipe(outgoing);
  }).catch(async (error: unknown) => {
    if (!(error instanceof UnreachableError) || body) throw error;
    // The client may still be sending: the rest of a small body is read, to be sent elsewhere.
    request.raw.unpipe();
    if (keptBytes > RESEND_LIMIT) throw new UnreachableError(null, error.cause);
    await finished(request.raw.resume());
    throw new UnreachableError(keptBytes <= RESEND_LIMIT ? Buffer.concat(kept) : null, error.cause);
  });
  reply.code(answer.statusCode ?? 502);
  for (const name of ANSWER_HEADERS) {
    const value = answer.headers[name as keyof IncomingHttpHeaders];
    if (value === undefined) continue;
    void reply.header(name, name === 'location' ? localLocation(String(value), target.baseUrl) : value);
  }
  return reply.send(answer);
}

/** A Location on the other node's internal URL, as a path the client can use through any node. */
function localLocation(location: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  if (!URL.canParse(location)) return location;
  const absolute = new URL(location);
  return absolute.origin === base.origin ? `${absolute.pathname}${absolute.search}` : location;
}
