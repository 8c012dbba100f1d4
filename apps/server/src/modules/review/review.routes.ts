import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, noteBody, noteResponse, presenceBody, presenceResponse, signedUrl } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { contentDisposition } from '../../platform/blob/content-disposition';
import type { ReviewService } from './review.service';

const security = [{ bearer: [] }];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const id = z.object({ id: z.uuid() });

export const reviewRoutes: FastifyPluginAsyncZod<{ review: ReviewService }> = async (app, { review }) => {
  const tags = ['review'];
  app.get(
    '/api/versions/:id/note',
    {
      schema: {
        tags,
        summary: "A version's notes (HTML) and whether the actor may edit them",
        security,
        params: id,
        response: { 200: noteResponse, ...errors },
      },
    },
    (request) => review.note(requireActor(request), request.params.id),
  );
  app.put(
    '/api/versions/:id/note',
    { schema: { tags, summary: "Save a version's notes (sanitized)", security, params: id, body: noteBody, response: { 200: noteResponse, ...errors } } },
    (request) => review.saveNote(requireActor(request), request.params.id, request.body.html),
  );
  app.post(
    '/api/versions/:id/note/pdf',
    { schema: { tags, summary: 'Render notes (as shown in the editor) to a PDF', security, params: id, body: noteBody } },
    async (request, reply) => {
      const { pdf, fileName } = await review.notePdf(requireActor(request), request.params.id, request.body.html);
      return reply.header('Content-Type', 'application/pdf').header('Content-Disposition', contentDisposition(fileName)).send(pdf);
    },
  );
  app.get(
    '/api/versions/:id/presence',
    { schema: { tags, summary: 'Who has the review open, online first', security, params: id, response: { 200: presenceResponse, ...errors } } },
    async (request) => ({ users: await review.listPresence(requireActor(request), request.params.id) }),
  );
  app.put(
    '/api/versions/:id/presence',
    {
      schema: {
        tags,
        summary: 'Announce (and renew) being online on a review, or leaving it',
        security,
        params: id,
        body: presenceBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await review.setPresence(requireActor(request), request.params.id, request.body.state);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/api/versions/:id/spectrogram',
    {
      schema: {
        tags,
        summary: "A signed URL to the version's spectrogram image (rendered on first request)",
        security,
        params: id,
        response: { 200: signedUrl, 422: errorResponse, ...errors },
      },
    },
    (request) => review.spectrogramUrl(requireActor(request), request.params.id),
  );
  app.get(
    '/api/versions/:id/stream',
    {
      schema: {
        tags,
        summary: 'A signed URL the player streams with Range requests (the preview, else the original)',
        security,
        params: id,
        response: { 200: signedUrl, ...errors },
      },
    },
    (request) => review.streamUrl(requireActor(request), request.params.id),
  );
};
