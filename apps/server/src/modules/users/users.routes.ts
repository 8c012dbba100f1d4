import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, meResponse } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import type { UsersService } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  app.get(
    '/api/me',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in user, with plan limits and capabilities',
        security: [{ bearer: [] }],
        response: { 200: meResponse, 401: errorResponse },
      },
    },
    (request) => users.me(requireActor(request)),
  );
};
