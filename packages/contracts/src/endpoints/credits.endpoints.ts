import { errorResponse } from '../common';
import { creditsQuery, creditsResponse } from '../credits';
import { endpoint } from '../endpoint';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** A user's own credits; administrators' views and adjustments are admin endpoints. */
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
};
