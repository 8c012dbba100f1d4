import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, projectItem, uploadFileBody, uploadTicket } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import type { AttachmentsService } from './attachments.service';

const security = [{ bearer: [] }];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 413: errorResponse };
const id = z.object({ id: z.uuid() });

export const attachmentsRoutes: FastifyPluginAsyncZod<{ attachments: AttachmentsService }> = async (app, { attachments }) => {
  const tags = ['attachments'];
  app.get(
    '/api/projects/:id/attachments',
    {
      schema: {
        tags,
        summary: "A project's attachments, newest first, and whether the actor may add or delete them",
        security,
        params: id,
        response: { 200: z.object({ items: z.array(projectItem), canEdit: z.boolean() }), ...errors },
      },
    },
    (request) => attachments.list(requireActor(request), request.params.id),
  );
  app.post(
    '/api/projects/:id/attachments',
    {
      schema: {
        tags,
        summary: 'Start uploading an attachment (finish it with /api/versions/{id}/complete)',
        security,
        params: id,
        body: uploadFileBody.omit({ groupId: true }),
        response: { 201: uploadTicket, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await attachments.start(requireActor(request), request.params.id, request.body)),
  );
  app.delete(
    '/api/attachments/:id',
    { schema: { tags, summary: 'Delete an attachment and its file', security, params: id, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await attachments.delete(requireActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
