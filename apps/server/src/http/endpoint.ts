import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import {
  successStatus,
  type EndpointDefinition,
  type EndpointReply,
  type EndpointRequestShape,
} from '@mixroom/contracts';
import { requireActor } from './authentication';

export type EndpointRequest<E extends EndpointDefinition> = FastifyRequest<EndpointRequestShape<E>>;

/**
 * A JSON endpoint's handler returns its success document (sent with the declared success status);
 * a raw one (redirect, file) writes the reply itself and returns it.
 */
export type EndpointHandler<E extends EndpointDefinition> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => E['raw'] extends string ? Promise<FastifyReply> : Promise<EndpointReply<E> | FastifyReply> | EndpointReply<E>;

const bearer = [{ bearer: [] }];

// Runs after the app's authentication hook has resolved the bearer token (route hooks come last).
const signedIn = async (request: FastifyRequest): Promise<void> => {
  requireActor(request);
};

/** The Fastify schema of a declaration: inputs validated, responses serialized through their schemas, OpenAPI from both. */
export function endpointSchema(definition: EndpointDefinition): FastifySchema & Record<string, unknown> {
  return {
    tags: [...definition.tags],
    summary: definition.summary,
    ...(definition.hidden ? { hide: true } : {}),
    ...(definition.auth ? { security: bearer } : {}),
    ...(definition.params ? { params: definition.params } : {}),
    ...(definition.query ? { querystring: definition.query } : {}),
    ...(definition.body ? { body: definition.body } : {}),
    response: definition.responses,
  };
}

/**
 * Registers the route of a declared endpoint. One that needs a signed-in user answers 401 to anyone
 * else before its inputs are even read, so what the table says about authentication is what happens.
 */
export function route<E extends EndpointDefinition>(
  app: FastifyInstance,
  definition: E,
  handler: EndpointHandler<E>,
  /** A larger body than the server's default, for the few endpoints that take one (a picture). */
  options: { bodyLimit?: number } = {},
): void {
  const status = successStatus(definition);
  app.route({
    method: definition.method,
    url: definition.path,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    schema: endpointSchema(definition),
    ...(definition.auth ? { onRequest: signedIn } : {}),
    handler: async (request, reply) => {
      // The validator compiler has checked params, query and body against the declared schemas.
      const result = await handler(request as unknown as EndpointRequest<E>, reply);
      // A handler that wrote the reply itself returns it. A Fastify reply is a thenable that settles
      // (with nothing) once sent, so the awaited value is undefined then: `reply.sent` tells.
      if (definition.raw || reply.sent || result === reply) return reply;
      if (status === 204) return reply.status(204).send(null);
      return reply.status(status).send(result);
    },
  });
}
