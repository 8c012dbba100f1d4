import { z } from 'zod';
import { errorResponse } from '../common';
import { endpoint } from '../endpoint';
import { healthResponse } from '../health';
import {
  avatarParam,
  dataExport,
  dataExportsResponse,
  deleteAccountBody,
  emailChangeBody,
  emailChangeConfirmBody,
  emailChangeConfirmResponse,
  emailChangeResponse,
  exportDownloadQuery,
  exportIdParam,
  meResponse,
  notificationPreferences,
  profilePhotoBody,
  updateProfileBody,
} from '../users';

export const userEndpoints = {
  me: endpoint({
    tags: ['users'],
    auth: true,
    method: 'GET',
    path: '/api/me',
    summary: 'The signed-in user, with plan limits and capabilities',
    responses: { 200: meResponse, 401: errorResponse },
  }),
  updateProfile: endpoint({
    tags: ['users'],
    auth: true,
    method: 'PATCH',
    path: '/api/me',
    summary: 'Change my display name',
    body: updateProfileBody,
    responses: { 200: meResponse, 400: errorResponse, 401: errorResponse },
  }),
  setPhoto: endpoint({
    tags: ['users'],
    auth: true,
    method: 'PUT',
    path: '/api/me/photo',
    summary: 'Set my profile picture (PNG, JPEG or WebP, cropped square; stored at 256×256)',
    body: profilePhotoBody,
    responses: { 200: meResponse, 400: errorResponse, 401: errorResponse, 413: errorResponse },
  }),
  removePhoto: endpoint({
    tags: ['users'],
    auth: true,
    method: 'DELETE',
    path: '/api/me/photo',
    summary: 'Go back to the default avatar',
    responses: { 200: meResponse, 401: errorResponse },
  }),
  avatar: endpoint({
    tags: ['users'],
    auth: false,
    method: 'GET',
    path: '/api/avatars/:photoId',
    summary: 'A profile picture (redirects to a signed, cacheable URL of the image)',
    params: avatarParam,
    raw: 'redirect',
    responses: { 302: z.null(), 404: errorResponse },
  }),
  changeEmail: endpoint({
    tags: ['users'],
    auth: true,
    method: 'POST',
    path: '/api/me/email',
    summary: 'Ask to change my e-mail: a confirmation link goes to the new address',
    body: emailChangeBody,
    responses: { 202: emailChangeResponse, 400: errorResponse, 401: errorResponse, 429: errorResponse },
  }),
  confirmEmail: endpoint({
    tags: ['users'],
    auth: false,
    method: 'POST',
    path: '/api/email-change/confirm',
    summary: 'Confirm a new e-mail address with the token from its mail',
    body: emailChangeConfirmBody,
    responses: { 200: emailChangeConfirmResponse, 400: errorResponse, 409: errorResponse },
  }),
  notifications: endpoint({
    tags: ['users'],
    auth: true,
    method: 'GET',
    path: '/api/me/notifications',
    summary: 'My notification preferences',
    responses: { 200: notificationPreferences, 401: errorResponse },
  }),
  setNotifications: endpoint({
    tags: ['users'],
    auth: true,
    method: 'PUT',
    path: '/api/me/notifications',
    summary: 'Choose the channels I hear notifications on',
    body: notificationPreferences,
    responses: { 200: notificationPreferences, 400: errorResponse, 401: errorResponse },
  }),
  exports: endpoint({
    tags: ['users'],
    auth: true,
    method: 'GET',
    path: '/api/me/exports',
    summary: 'My "download my data" archives, newest first',
    responses: { 200: dataExportsResponse, 401: errorResponse },
  }),
  startExport: endpoint({
    tags: ['users'],
    auth: true,
    method: 'POST',
    path: '/api/me/exports',
    summary: 'Start an archive of my data (a job; the link also comes by e-mail)',
    responses: { 202: dataExport, 401: errorResponse, 409: errorResponse },
  }),
  downloadExport: endpoint({
    tags: ['users'],
    auth: false,
    method: 'GET',
    path: '/api/exports/:id/download',
    summary: 'Download an archive of my data with its signed link',
    params: exportIdParam,
    query: exportDownloadQuery,
    raw: 'redirect',
    responses: { 302: z.null(), 404: errorResponse, 410: errorResponse },
  }),
  deleteAccount: endpoint({
    tags: ['users'],
    auth: true,
    method: 'POST',
    path: '/api/me/deletion',
    summary: 'Delete my account and everything I own (type my e-mail to confirm)',
    body: deleteAccountBody,
    responses: { 202: z.object({ message: z.string() }), 400: errorResponse, 401: errorResponse, 409: errorResponse },
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
