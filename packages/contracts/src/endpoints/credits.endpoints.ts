import { z } from 'zod';
import { errorResponse } from '../common';
import { creditAdjustmentBody, creditEntry, creditsQuery, creditsResponse } from '../credits';
import { endpoint } from '../endpoint';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export const creditEndpoints = {
  mine: endpoint({
    tags: ['credits'],
    auth: true,
    method: 'GET',
    path: '/api/credits',
    summary: 'My AI credits: balance and ledger, newest first',
    query: creditsQuery,
    responses: { 200: creditsResponse, ...errors },
  }),
  ofUser: endpoint({
    tags: ['admin'],
    auth: true,
    method: 'GET',
    path: '/api/admin/users/:id/credits',
    summary: "A user's AI credits and ledger (administrators only)",
    params: z.object({ id: z.uuid() }),
    query: creditsQuery,
    responses: { 200: creditsResponse, ...errors },
  }),
  adjust: endpoint({
    tags: ['admin'],
    auth: true,
    method: 'POST',
    path: '/api/admin/users/:id/credits',
    summary: "Add to or take from a user's AI credits, with a reason (administrators only)",
    params: z.object({ id: z.uuid() }),
    body: creditAdjustmentBody,
    responses: { 201: creditEntry, 409: errorResponse, ...errors },
  }),
};
