import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminEndpoints as endpoints } from '@mixroom/contracts';
import { route } from '../../http/endpoint';
import type { AdminOverviewService } from './admin-overview.service';
import type { AdminService } from './admin.service';

export const adminRoutes: FastifyPluginAsyncZod<{ admin: AdminService; overview: AdminOverviewService }> = async (
  app,
  { admin, overview },
) => {
  route(app, endpoints.users, (request) => admin.listUsers(request.actor, request.query));
  route(app, endpoints.user, (request) => admin.userDetail(request.actor, request.params.id));
  route(app, endpoints.grantPlan, (request) => admin.grantPlan(request.actor, request.params.id, request.body));
  route(app, endpoints.revokePlan, (request) =>
    admin.revokePlan(request.actor, request.params.id, request.params.grantId),
  );
  route(app, endpoints.setFlags, (request) => admin.setFlags(request.actor, request.params.id, request.body));
  route(app, endpoints.setStatus, (request) => admin.setStatus(request.actor, request.params.id, request.body));
  route(app, endpoints.credits, (request) => admin.userCredits(request.actor, request.params.id, request.query));
  route(app, endpoints.adjustCredits, (request) => admin.adjustCredits(request.actor, request.params.id, request.body));
  route(app, endpoints.audit, (request) => admin.auditLog(request.actor, request.query));
  route(app, endpoints.overview, (request) => overview.overview(request.actor));
};
