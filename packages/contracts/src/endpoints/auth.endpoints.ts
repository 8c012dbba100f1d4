import { z } from 'zod';
import {
  authConfigResponse,
  interactionDetails,
  messageResponse,
  passwordResetConfirmBody,
  passwordResetRequestBody,
  redirectResponse,
  signInBody,
  signUpBody,
} from '../auth';
import { errorResponse } from '../common';
import { endpoint } from '../endpoint';

export const authEndpoints = {
  config: endpoint({
    tags: ['auth'],
    auth: false,
    method: 'GET',
    path: '/api/auth/config',
    summary: 'Identity settings for the web client',
    responses: { 200: authConfigResponse },
  }),
  passwordReset: endpoint({
    tags: ['auth'],
    auth: false,
    method: 'POST',
    path: '/api/auth/password-reset',
    summary: 'Send a password-reset link by e-mail',
    body: passwordResetRequestBody,
    responses: { 202: messageResponse, 400: errorResponse },
  }),
  passwordResetConfirm: endpoint({
    tags: ['auth'],
    auth: false,
    method: 'POST',
    path: '/api/auth/password-reset/confirm',
    summary: 'Choose a new password with a reset token',
    body: passwordResetConfirmBody,
    responses: { 200: messageResponse, 400: errorResponse },
  }),
};

const interaction = {
  tags: ['auth'],
  auth: false,
  hidden: true,
  params: z.object({ uid: z.string().min(1).max(100) }),
} as const;

/**
 * The embedded identity provider's sign-in interaction. It lives under /oidc/interaction/{uid}
 * because the provider's interaction cookie is scoped to that path; only the embedded provider serves it.
 */
export const interactionEndpoints = {
  page: endpoint({
    ...interaction,
    method: 'GET',
    path: '/oidc/interaction/:uid',
    summary: 'The sign-in screen (the web app), or consent granted without a screen',
    raw: 'file',
    responses: {},
  }),
  details: endpoint({
    ...interaction,
    method: 'GET',
    path: '/oidc/interaction/:uid/details',
    summary: 'What the sign-in screen shows',
    responses: { 200: interactionDetails, 410: errorResponse },
  }),
  login: endpoint({
    ...interaction,
    method: 'POST',
    path: '/oidc/interaction/:uid/login',
    summary: 'Sign in with e-mail and password',
    body: signInBody,
    responses: {
      200: redirectResponse,
      400: errorResponse,
      401: errorResponse,
      /** The account was disabled by an administrator. */
      403: errorResponse,
      410: errorResponse,
      429: errorResponse,
    },
  }),
  signup: endpoint({
    ...interaction,
    method: 'POST',
    path: '/oidc/interaction/:uid/signup',
    summary: 'Create an account and sign in (or, for a taken address, say to check the mailbox)',
    body: signUpBody,
    responses: {
      200: z.union([redirectResponse, messageResponse]),
      400: errorResponse,
      403: errorResponse,
      410: errorResponse,
      429: errorResponse,
    },
  }),
  abort: endpoint({
    ...interaction,
    method: 'POST',
    path: '/oidc/interaction/:uid/abort',
    summary: 'Cancel the sign-in',
    responses: { 200: redirectResponse, 410: errorResponse },
  }),
};

/**
 * The disk blob driver's stand-in for S3: signed URLs whose query carries the only credential,
 * bodies streamed both ways. Declared for the route table only (the browser gets these URLs from the API).
 */
export const blobEndpoints = {
  get: endpoint({
    tags: ['blob'],
    auth: false,
    hidden: true,
    method: 'GET',
    path: '/api/blob/get',
    summary: 'Read a blob (Range)',
    raw: 'file',
    responses: {},
  }),
  put: endpoint({
    tags: ['blob'],
    auth: false,
    hidden: true,
    method: 'PUT',
    path: '/api/blob/put',
    summary: 'Write a blob',
    raw: 'file',
    responses: {},
  }),
  part: endpoint({
    tags: ['blob'],
    auth: false,
    hidden: true,
    method: 'PUT',
    path: '/api/blob/part',
    summary: 'Write one upload part',
    raw: 'file',
    responses: {},
  }),
};
