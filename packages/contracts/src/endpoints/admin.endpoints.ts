import { z } from 'zod';
import {
  adminFlagsBody,
  adminGrantBody,
  adminStatusBody,
  adminUser,
  adminUserDetail,
  adminUserList,
  adminUserListQuery,
  auditPage,
  auditQuery,
  serverOverview,
} from '../admin';
import { errorResponse } from '../common';
import { creditAdjustmentBody, creditEntry, creditsQuery, creditsResponse } from '../credits';
import { endpoint } from '../endpoint';
import { planGrant } from '../users';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const base = { tags: ['admin'], auth: true } as const;
const userParams = z.object({ id: z.uuid() });

/** The admin area: every endpoint here answers administrators only. */
export const adminEndpoints = {
  users: endpoint({
    ...base,
    method: 'GET',
    path: '/api/admin/users',
    summary: 'All users, searched and paged (administrators only)',
    query: adminUserListQuery,
    responses: { 200: adminUserList, ...errors },
  }),
  user: endpoint({
    ...base,
    method: 'GET',
    path: '/api/admin/users/:id',
    summary: "A user's row, private data, limits and usage",
    params: userParams,
    responses: { 200: adminUserDetail, ...errors },
  }),
  grantPlan: endpoint({
    ...base,
    method: 'POST',
    path: '/api/admin/users/:id/plans',
    summary: 'Grant a plan to a user, with an optional end date',
    params: userParams,
    body: adminGrantBody,
    responses: { 201: planGrant, ...errors },
  }),
  revokePlan: endpoint({
    ...base,
    method: 'DELETE',
    path: '/api/admin/users/:id/plans/:grantId',
    summary: 'Revoke a plan grant: it ends now and stays in the history',
    params: z.object({ id: z.uuid(), grantId: z.uuid() }),
    responses: { 204: z.null(), ...errors },
  }),
  setFlags: endpoint({
    ...base,
    method: 'PATCH',
    path: '/api/admin/users/:id/flags',
    summary: 'Set canBroadcast and isAdmin (the last administrator stays one)',
    params: userParams,
    body: adminFlagsBody,
    responses: { 200: adminUser, 409: errorResponse, ...errors },
  }),
  setStatus: endpoint({
    ...base,
    method: 'PUT',
    path: '/api/admin/users/:id/status',
    summary: 'Disable an account (every session ends at once) or enable it again',
    params: userParams,
    body: adminStatusBody,
    responses: { 200: adminUser, 409: errorResponse, ...errors },
  }),
  credits: endpoint({
    ...base,
    method: 'GET',
    path: '/api/admin/users/:id/credits',
    summary: "A user's AI credits and ledger",
    params: userParams,
    query: creditsQuery,
    responses: { 200: creditsResponse, ...errors },
  }),
  adjustCredits: endpoint({
    ...base,
    method: 'POST',
    path: '/api/admin/users/:id/credits',
    summary: "Add to or take from a user's AI credits, with a reason",
    params: userParams,
    body: creditAdjustmentBody,
    responses: { 201: creditEntry, 409: errorResponse, ...errors },
  }),
  audit: endpoint({
    ...base,
    method: 'GET',
    path: '/api/admin/audit',
    summary: 'The audit log of administrator actions, newest first',
    query: auditQuery,
    responses: { 200: auditPage, ...errors },
  }),
  overview: endpoint({
    ...base,
    method: 'GET',
    path: '/api/admin/overview',
    summary: 'Version, drivers, queue, storage and users of this server',
    responses: { 200: serverOverview, ...errors },
  }),
};
