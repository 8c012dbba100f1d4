import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pushEndpoints as endpoints } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import { PushEndpointError } from '../../platform/push/push-endpoint';
import type { PushService } from '../../platform/push/push.service';
import type { PushRepository } from './push.repository';

const refused = (error: unknown): never => {
  throw error instanceof PushEndpointError ? AppError.badRequest(error.message, 'PUSH_ENDPOINT_REFUSED') : error;
};

/** This device's Web Push subscription (one record per device and user). */
export const pushRoutes: FastifyPluginAsyncZod<{ push: PushService; devices: PushRepository }> = async (app, { push, devices }) => {
  route(app, endpoints.publicKey, () => ({ publicKey: push.publicKey }));
  route(app, endpoints.saveDevice, async (request) => {
    // The server will POST to this address: only https push services on public addresses are kept.
    await push.assertSendable(request.body.subscription.endpoint).catch(refused);
    return devices.save(requireActor(request).userId, request.params.deviceId, {
      endpoint: request.body.subscription.endpoint,
      keys: request.body.subscription.keys,
    });
  });
  route(app, endpoints.removeDevice, (request) => devices.remove(requireActor(request).userId, request.params.deviceId));
};
