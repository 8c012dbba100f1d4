import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pushEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { PushService } from '../../platform/push/push.service';
import { PushDevicesService, type PushDeviceStore } from './push-devices.service';

/** This device's Web Push subscription (one record per device and user). */
export const pushRoutes: FastifyPluginAsyncZod<{ push: PushService; devices: PushDeviceStore }> = async (
  app,
  { push, devices },
) => {
  const service = new PushDevicesService(push, devices);
  route(app, endpoints.publicKey, () => ({ publicKey: push.publicKey }));
  route(app, endpoints.saveDevice, (request) =>
    service.save(requireActor(request).userId, request.params.deviceId, {
      endpoint: request.body.subscription.endpoint,
      keys: request.body.subscription.keys,
    }),
  );
  route(app, endpoints.removeDevice, (request) =>
    service.remove(requireActor(request).userId, request.params.deviceId),
  );
};
