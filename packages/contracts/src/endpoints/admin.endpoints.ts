import { z } from 'zod';
import { errorResponse } from '../common';
import { endpoint } from '../endpoint';
import { adminUsersQuery, adminUsersResponse, grantPlanBody, planGrant } from '../users';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const base = { tags: ['admin'], auth: true } as const;

export const adminEndpoints = {
  users: endpoint({
    ...base,
    method: 'GET',
    path: '/api/admin/users',
    summary: 'All users (administrators only)',
    query: adminUsersQuery,
    responses: { 200: adminUsersResponse, ...errors },
  }),
  grantPlan: endpoint({
    ...base,
    method: 'POST',
    path: '/api/admin/users/:id/plans',
    summary: 'Grant a plan to a user',
    params: z.object({ id: z.uuid() }),
    body: grantPlanBody,
    responses: { 201: planGrant, ...errors },
  }),
  revokePlan: endpoint({
    ...base,
    method: 'DELETE',
    path: '/api/admin/users/:id/plans/:grantId',
    summary: 'Revoke a plan grant',
    params: z.object({ id: z.uuid(), grantId: z.uuid() }),
    responses: { 204: z.null(), ...errors },
  }),
};
