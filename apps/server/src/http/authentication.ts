import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error';
import { InvalidTokenError, type TokenVerifier } from '../platform/identity/token-verifier';
import type { Actor } from '../platform/identity/actor';
import type { IdentityPort } from '../platform/identity/identity-port';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

/** WHIP/WHEP carry their own bearer (a media, talkback or stream key token), which the live, talkback and broadcast modules check. */
const OWN_BEARER = /^\/api\/(live|broadcast)\/[^/?]+\/(talkback\/)?(whip|whep)(\/|\?|$)/;

/** Reads `Authorization: Bearer …`; a present but invalid token is a 401, never an anonymous call. */
export function registerAuthentication(app: FastifyInstance, verify: TokenVerifier, identity: IdentityPort): void {
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header || !request.url.startsWith('/api/') || OWN_BEARER.test(request.url)) return;
    const [scheme, token] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw AppError.unauthorized('Malformed Authorization header.');
    try {
      request.actor = await identity.resolveActor(await verify(token));
    } catch (error) {
      if (error instanceof InvalidTokenError)
        throw new AppError(401, 'INVALID_TOKEN', 'Your session is invalid or has expired.');
      throw error;
    }
  });
}

export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw AppError.unauthorized();
  return request.actor;
}
