import { z } from 'zod';
import { billingWebhookResponse } from '../billing';
import { errorResponse } from '../common';
import { endpoint } from '../endpoint';

export const billingEndpoints = {
  webhook: endpoint({
    tags: ['billing'],
    // No session: the shop proves itself with the signature header over the raw body.
    auth: false,
    method: 'POST',
    path: '/api/billing/webhook',
    summary: 'Subscription events from the shop, signed (Mixroom-Signature: t=…,v1=…); see docs/BILLING.md',
    body: z.unknown(),
    responses: { 200: billingWebhookResponse, 400: errorResponse, 401: errorResponse, 404: errorResponse },
  }),
};
