import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminUsersQuery, adminUsersResponse, errorResponse, grantPlanBody, planGrant } from '@mixroom/contracts';
import type { AdminService } from './admin.service';

const security = [{ bearer: [] }];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export const adminRoutes: FastifyPluginAsyncZod<{ admin: AdminService }> = async (app, { admin }) => {
  app.get(
    '/api/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'All users (administrators only)',
        security,
        querystring: adminUsersQuery,
        response: { 200: adminUsersResponse, ...errors },
      },
    },
    (request) => admin.listUsers(request.actor, request.query),
  );

  app.post(
    '/api/admin/users/:id/plans',
    {
      schema: {
        tags: ['admin'],
        summary: 'Grant a plan to a user',
        security,
        params: z.object({ id: z.uuid() }),
        body: grantPlanBody,
        response: { 201: planGrant, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await admin.grantPlan(request.actor, request.params.id, request.body)),
  );

  app.delete(
    '/api/admin/users/:id/plans/:grantId',
    {
      schema: {
        tags: ['admin'],
        summary: 'Revoke a plan grant',
        security,
        params: z.object({ id: z.uuid(), grantId: z.uuid() }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await admin.revokePlan(request.actor, request.params.id, request.params.grantId);
      return reply.status(204).send(null);
    },
  );
};
