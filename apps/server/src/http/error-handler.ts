import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES } from '@mixroom/shared';
import type { ErrorResponse } from '@mixroom/contracts';
import { AppError } from './app-error';
import { isDatabaseUnreachable } from '../platform/errors/database-unreachable';
import { RateLimitedError } from '../platform/security/attempt-limiter';

/** Every failure leaves the API as `{ error: { code, message } }`: one shape for every client. */
/** `serveApp` answers unknown GETs outside /api and /oidc with the web app (client-side routes). */
export function registerErrorHandler(
  app: FastifyInstance,
  serveApp: ((reply: FastifyReply) => Promise<unknown>) | null,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status = 500;
    let body: ErrorResponse = { error: { code: 'INTERNAL', message: MESSAGES.genericError } };
    if (error instanceof RateLimitedError) void reply.header('Retry-After', String(error.retryAfterSeconds));
    if (error instanceof AppError) {
      status = error.status;
      body = {
        error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
      };
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      status = 400;
      const details = error.validation.map((v) => ({
        path: [error.validationContext, ...v.instancePath.split('/').filter(Boolean)].join('.'),
        message: v.message ?? 'is invalid',
      }));
      body = { error: { code: 'VALIDATION', message: details[0]?.message ?? 'The request is invalid.', details } };
    } else if (isDatabaseUnreachable(error)) {
      // The installation's failure, not the request's: nothing was written, so a retry is safe.
      status = 503;
      void reply.header('Retry-After', '5');
      body = { error: { code: 'UNAVAILABLE', message: MESSAGES.serviceUnavailable } };
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      body = { error: { code: error.code ?? 'BAD_REQUEST', message: error.message } };
    }
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    void reply.status(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isAppRoute = request.method === 'GET' && !/^\/(api|oidc|assets)\//.test(path);
    if (serveApp && isAppRoute) return serveApp(reply);
    void reply
      .status(404)
      .send({ error: { code: 'NOT_FOUND', message: `No route ${request.method} ${request.url.split('?')[0]}` } });
  });
}
