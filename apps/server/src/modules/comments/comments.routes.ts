import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { commentEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import { contentDisposition } from '../../platform/blob/content-disposition';
import type { CommentsService } from './comments.service';

export const commentsRoutes: FastifyPluginAsyncZod<{ comments: CommentsService }> = async (app, { comments }) => {
  route(app, endpoints.list, async (request) => ({
    comments: await comments.list(requireActor(request), request.params.id),
  }));
  route(app, endpoints.create, (request) => comments.create(requireActor(request), request.params.id, request.body));
  route(app, endpoints.markers, async (request, reply) => {
    const file = await comments.markers(requireActor(request), request.params.id, request.query);
    return reply
      .header('Content-Type', file.contentType)
      .header('Content-Disposition', contentDisposition(file.fileName))
      .send(file.body);
  });
  route(app, endpoints.resolve, (request) =>
    comments.resolve(requireActor(request), request.params.id, request.body.resolved),
  );
  route(app, endpoints.reply, (request) => comments.reply(requireActor(request), request.params.id, request.body.text));
  route(app, endpoints.edit, (request) => comments.edit(requireActor(request), request.params.id, request.body.text));
  route(app, endpoints.delete, (request) => comments.delete(requireActor(request), request.params.id));
};
