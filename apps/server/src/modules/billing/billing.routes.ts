import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { billingEndpoints as endpoints } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import { route } from '../../http/endpoint';
import type { BillingProvider } from './billing-provider';
import { SIGNATURE_HEADER } from './webhook-signature';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received, for routes that check a signature over it. */
    rawBody?: string;
  }
}

export const billingRoutes: FastifyPluginAsyncZod<{ provider: BillingProvider }> = async (app, { provider }) => {
  // The signature covers the bytes sent, so this plugin keeps them (parsing again would not give
  // back the same text). The parser is scoped to this plugin's routes.
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (request, body, done) => {
    request.rawBody = body as string;
    done(null, null);
  });
  route(app, endpoints.webhook, async (request) => {
    if (!provider.receive)
      throw AppError.notFound('This server takes no billing events: plans are assigned by an administrator.');
    const signature = request.headers[SIGNATURE_HEADER];
    return {
      received: true as const,
      ...(await provider.receive({
        rawBody: request.rawBody ?? '',
        signature: typeof signature === 'string' ? signature : undefined,
      })),
    };
  });
};
