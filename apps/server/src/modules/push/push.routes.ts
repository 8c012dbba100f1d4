import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import { requireActor } from '../../http/authentication';
import { PushEndpointError } from '../../platform/push/push-endpoint';
import type { PushService } from '../../platform/push/push.service';
import type { PushRepository } from './push.repository';

const subscription = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(20).max(200), auth: z.string().min(8).max(100) }),
});
const device = z.object({ deviceId: z.string().regex(/^[\w-]{8,64}$/) });

/** The server will POST to a saved endpoint: only https push services on public addresses are kept. */
const refused = (error: unknown): never => {
  throw error instanceof PushEndpointError ? AppError.badRequest(error.message, 'PUSH_ENDPOINT_REFUSED') : error;
};

/** This device's Web Push subscription (the spec's per-device token record). */
export const pushRoutes: FastifyPluginAsyncZod<{ push: PushService; devices: PushRepository }> = async (app, { push, devices }) => {
  const tags = ['push'];
  const security = [{ bearer: [] }];
  app.get(
    '/api/push/public-key',
    { schema: { tags, summary: 'The VAPID public key browsers subscribe with', response: { 200: z.object({ publicKey: z.string() }) } } },
    () => ({ publicKey: push.publicKey }),
  );
  app.put(
    '/api/push/devices/:deviceId',
    {
      schema: {
        tags,
        summary: 'Save this device’s push subscription',
        security,
        params: device,
        body: z.object({ subscription }),
        response: { 204: z.null(), 400: errorResponse, 401: errorResponse },
      },
    },
    async (request, reply) => {
      await push.assertSendable(request.body.subscription.endpoint).catch(refused);
      await devices.save(requireActor(request).userId, request.params.deviceId, {
        endpoint: request.body.subscription.endpoint,
        keys: request.body.subscription.keys,
      });
      return reply.status(204).send(null);
    },
  );
  app.delete(
    '/api/push/devices/:deviceId',
    { schema: { tags, summary: 'Forget this device', security, params: device, response: { 204: z.null(), 401: errorResponse } } },
    async (request, reply) => {
      await devices.remove(requireActor(request).userId, request.params.deviceId);
      return reply.status(204).send(null);
    },
  );
};
