import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminEndpoints as endpoints } from '@mixroom/contracts';
import { route } from '../../http/endpoint';
import type { AdminService } from './admin.service';

export const adminRoutes: FastifyPluginAsyncZod<{ admin: AdminService }> = async (app, { admin }) => {
  route(app, endpoints.users, (request) => admin.listUsers(request.actor, request.query));
  route(app, endpoints.grantPlan, (request) => admin.grantPlan(request.actor, request.params.id, request.body));
  route(app, endpoints.revokePlan, (request) =>
    admin.revokePlan(request.actor, request.params.id, request.params.grantId),
  );
};
