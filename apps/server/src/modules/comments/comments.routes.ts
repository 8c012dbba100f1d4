import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commentsResponse, createCommentBody, editCommentBody, errorResponse, replyBody } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import type { CommentsService } from './comments.service';

const security = [{ bearer: [] }];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const id = z.object({ id: z.uuid() });
const created = { 201: z.object({ id: z.uuid() }), ...errors };

export const commentsRoutes: FastifyPluginAsyncZod<{ comments: CommentsService }> = async (app, { comments }) => {
  const tags = ['comments'];
  app.get(
    '/api/versions/:id/comments',
    { schema: { tags, summary: 'Comments on a version, newest first, with replies', security, params: id, response: { 200: commentsResponse, ...errors } } },
    async (request) => ({
      comments: await comments.list(requireActor(request), request.params.id),
    }),
  );
  app.post(
    '/api/versions/:id/comments',
    { schema: { tags, summary: 'Comment at a time or over a range', security, params: id, body: createCommentBody, response: created } },
    async (request, reply) => reply.status(201).send(await comments.create(requireActor(request), request.params.id, request.body)),
  );
  app.post(
    '/api/comments/:id/replies',
    { schema: { tags, summary: 'Reply to a comment', security, params: id, body: replyBody, response: created } },
    async (request, reply) => reply.status(201).send(await comments.reply(requireActor(request), request.params.id, request.body.text)),
  );
  app.patch(
    '/api/comments/:id',
    { schema: { tags, summary: 'Edit your comment or reply', security, params: id, body: editCommentBody, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await comments.edit(requireActor(request), request.params.id, request.body.text);
      return reply.status(204).send(null);
    },
  );
  app.delete(
    '/api/comments/:id',
    { schema: { tags, summary: 'Delete your comment (with its replies) or reply', security, params: id, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await comments.delete(requireActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
