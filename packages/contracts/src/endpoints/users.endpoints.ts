import { z } from 'zod';
import { errorResponse } from '../common';
import { endpoint } from '../endpoint';
import { healthResponse } from '../health';
import { meResponse } from '../users';

export const userEndpoints = {
  me: endpoint({
    tags: ['users'],
    auth: true,
    method: 'GET',
    path: '/api/me',
    summary: 'The signed-in user, with plan limits and capabilities',
    responses: { 200: meResponse, 401: errorResponse },
  }),
};

export const healthEndpoints = {
  health: endpoint({
    tags: ['system'],
    auth: false,
    method: 'GET',
    path: '/api/health',
    summary: 'Health of the database, storage and job queue',
    responses: { 200: healthResponse, 503: healthResponse },
  }),
};

const subscription = z.object({
  endpoint: z.url({ protocol: /^https?$/ }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(20).max(200), auth: z.string().min(8).max(100) }),
});
const device = z.object({ deviceId: z.string().regex(/^[\w-]{8,64}$/) });

/** This device's Web Push subscription (one record per device and user). */
export const pushEndpoints = {
  publicKey: endpoint({
    tags: ['push'],
    auth: false,
    method: 'GET',
    path: '/api/push/public-key',
    summary: 'The VAPID public key browsers subscribe with',
    responses: { 200: z.object({ publicKey: z.string() }) },
  }),
  saveDevice: endpoint({
    tags: ['push'],
    auth: true,
    method: 'PUT',
    path: '/api/push/devices/:deviceId',
    summary: 'Save this device’s push subscription',
    params: device,
    body: z.object({ subscription }),
    responses: { 204: z.null(), 400: errorResponse, 401: errorResponse },
  }),
  removeDevice: endpoint({
    tags: ['push'],
    auth: true,
    method: 'DELETE',
    path: '/api/push/devices/:deviceId',
    summary: 'Forget this device',
    params: device,
    responses: { 204: z.null(), 401: errorResponse },
  }),
};
