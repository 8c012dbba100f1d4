import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { UsersService } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  route(app, endpoints.me, (request) => users.me(requireActor(request), { asAuthenticated: true }));
};
