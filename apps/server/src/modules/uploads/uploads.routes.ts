import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, uploadPart, uploadSession } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import type { UploadsService } from './uploads.service';

const security = [{ bearer: [] }];
const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse };
const id = z.object({ id: z.uuid() });
const part = z.object({ id: z.uuid(), partNumber: z.coerce.number().int().min(1).max(10_000) });

/** Resuming and finishing an upload session; features create sessions for their own blobs. */
export const uploadsRoutes: FastifyPluginAsyncZod<{ uploads: UploadsService }> = async (app, { uploads }) => {
  app.get(
    '/api/uploads/:id',
    {
      schema: {
        tags: ['uploads'],
        summary: 'An upload session with its stored parts (to resume)',
        security,
        params: id,
        response: { 200: uploadSession, ...errors },
      },
    },
    (request) => uploads.get(requireActor(request).userId, request.params.id),
  );

  app.post(
    '/api/uploads/:id/parts/:partNumber/url',
    {
      schema: {
        tags: ['uploads'],
        summary: 'A signed URL to PUT one part to',
        security,
        params: part,
        response: { 200: z.object({ url: z.string() }), ...errors },
      },
    },
    (request) => uploads.partUrl(requireActor(request).userId, request.params.id, request.params.partNumber),
  );

  app.put(
    '/api/uploads/:id/parts/:partNumber',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Record a part the store accepted, with its ETag',
        security,
        params: part,
        body: uploadPart.omit({ partNumber: true }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await uploads.recordPart(requireActor(request).userId, request.params.id, { partNumber: request.params.partNumber, ...request.body });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/uploads/:id/complete',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Assemble the parts into the final blob',
        security,
        params: id,
        response: { 200: z.object({ size: z.number() }), ...errors },
      },
    },
    async (request) => ({ size: (await uploads.complete(requireActor(request).userId, request.params.id)).size }),
  );

  app.delete(
    '/api/uploads/:id',
    { schema: { tags: ['uploads'], summary: 'Abort an upload and drop its parts', security, params: id, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await uploads.abort(requireActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
