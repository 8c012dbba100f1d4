import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachmentEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../../http/authentication';
import { route } from '../../../http/endpoint';
import type { AttachmentsService } from './attachments.service';

export const attachmentsRoutes: FastifyPluginAsyncZod<{ attachments: AttachmentsService }> = async (
  app,
  { attachments },
) => {
  route(app, endpoints.list, (request) => attachments.list(requireActor(request), request.params.id));
  route(app, endpoints.start, (request) => attachments.start(requireActor(request), request.params.id, request.body));
  route(app, endpoints.delete, (request) => attachments.delete(requireActor(request), request.params.id));
};
