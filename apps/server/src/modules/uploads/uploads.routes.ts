import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uploadEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { UploadsService } from './uploads.service';

/**
 * Resuming an upload session part by part. Finishing is the owning feature's step (a version
 * completes through its own endpoint, which assembles the parts and queues processing), so a session
 * is never closed on its own here: that would leave its version unable to complete.
 */
export const uploadsRoutes: FastifyPluginAsyncZod<{ uploads: UploadsService }> = async (app, { uploads }) => {
  route(app, endpoints.session, (request) => uploads.get(requireActor(request).userId, request.params.id));
  route(app, endpoints.partUrl, (request) =>
    uploads.partUrl(requireActor(request).userId, request.params.id, request.params.partNumber),
  );
  route(app, endpoints.recordPart, (request) =>
    uploads.recordPart(requireActor(request).userId, request.params.id, {
      partNumber: request.params.partNumber,
      ...request.body,
    }),
  );
  route(app, endpoints.abort, (request) => uploads.abort(requireActor(request).userId, request.params.id));
};
