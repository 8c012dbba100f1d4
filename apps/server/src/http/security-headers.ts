import { LIVE_SOURCES } from '@mixroom/shared';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/config';

/**
 * Response headers that keep pages from being framed (clickjacking), sniffed into another type, or
 * leaking their URL, and a Content-Security-Policy for each kind of response:
 * - the web app: its own scripts only; media and images from itself and the blob store; the API,
 *   WebSocket, blob store and identity issuer as connection targets;
 * - the API documentation (Swagger UI), which needs inline styles and scripts;
 * - the API's JSON and the blob files: nothing may run, and a file opened directly is sandboxed.
 * The OIDC provider answers outside Fastify's hooks; its headers come from `providerHeaders`.
 */
export interface SecurityHeaderOptions {
  /** Origins the browser reaches directly besides this one: the S3 store, an external issuer. */
  blobOrigins: string[];
  issuerOrigin: string | null;
  /** Origins allowed as sign-in and sign-out redirect targets besides this one (Vite dev server). */
  extraOrigins: string[];
}

type Headers = Record<string, string>;

const policy = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, values]) => (values.length ? `${name} ${values.join(' ')}` : name))
    .join('; ');

const COMMON: Headers = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** The sign-in screen is the web app, served under the provider's interaction path. */
const SIGN_IN_SCREEN = /^\/oidc\/interaction\/[^/]+$/;

/**
 * Pages whose URL carries a secret never send it onward: public share and transfer links
 * (`?shared_group=`, `?transferId=`), file requests (`?requestId=`), password reset and e-mail
 * confirmation links (`?token=`), live room codes, invitations (`/j/{code}`, `/join?invite=`,
 * `/bootstrap`), the sign-in screen (`/oidc/interaction/{uid}`) and the sign-in callback (`?code=`).
 */
const TOKEN_PAGES = new RegExp(
  `^/(${[
    'public/share',
    'public/transfer',
    'public/request',
    'public/reset-password',
    'public/confirm-email',
    'public/live',
    'j',
    'join',
    'bootstrap',
    'oidc/interaction',
    'auth/callback',
  ].join('|')})(/|$)`,
);

/** ws and wss on loopback, for each of the bridge's sockets (CSP has no port ranges). */
const BRIDGE_ORIGINS = LIVE_SOURCES.flatMap((source) =>
  [source.messagePort, source.audioPort].flatMap((port) =>
    ['ws', 'wss'].flatMap((scheme) => [`${scheme}://localhost:${port}`, `${scheme}://127.0.0.1:${port}`]),
  ),
);

export function securityHeaderSets(options: SecurityHeaderOptions) {
  const { blobOrigins, issuerOrigin, extraOrigins } = options;
  const issuer = issuerOrigin ? [issuerOrigin] : [];
  const app: Headers = {
    ...COMMON,
    'Content-Security-Policy': policy({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      // Mantine sets style attributes and injects its CSS variables in a <style> element.
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:', ...blobOrigins],
      'media-src': ["'self'", 'blob:', ...blobOrigins],
      'font-src': ["'self'", 'data:'],
      // The Mixroom bridge serves a live room's plugin and system-wide sources on the user's own machine.
      'connect-src': ["'self'", ...blobOrigins, ...issuer, ...BRIDGE_ORIGINS],
      'worker-src': ["'self'"],
      // Downloads may run in a hidden frame, straight from the blob store.
      'frame-src': ["'self'", 'blob:', ...blobOrigins],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'", ...issuer, ...extraOrigins],
      'frame-ancestors': ["'none'"],
    }),
  };
  const docs: Headers = {
    ...COMMON,
    'Content-Security-Policy': policy({
      'default-src': ["'self'"],
      'script-src': ["'self'", "'unsafe-inline'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'frame-ancestors': ["'none'"],
    }),
  };
  const api: Headers = {
    ...COMMON,
    'Content-Security-Policy': policy({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] }),
  };
  const file: Headers = {
    ...COMMON,
    'Referrer-Policy': 'no-referrer',
    // Played and shown by the app from another document; opened on its own, a file runs nothing.
    'Content-Security-Policy': policy({
      'default-src': ["'none'"],
      'img-src': ["'self'"],
      'media-src': ["'self'"],
      'style-src': ["'unsafe-inline'"],
      sandbox: [],
      'frame-ancestors': ["'none'"],
    }),
    // Lets the app's <audio>/<img> load files across origins when they come from the API origin.
    'Cross-Origin-Resource-Policy': 'same-site',
  };
  return { app, docs, api, file };
}

/** Headers for the embedded OIDC provider's own pages (error, logout, form-post redirects). */
export function providerHeaders(extraOrigins: string[]): Headers {
  return {
    ...COMMON,
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': policy({
      'default-src': ["'none'"],
      // The provider's form-post pages submit themselves with an inline script.
      'script-src': ["'unsafe-inline'"],
      'style-src': ["'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
      'form-action': ["'self'", ...extraOrigins],
      'base-uri': ["'none'"],
      'frame-ancestors': ["'none'"],
    }),
  };
}

/** The origins the browser talks to for files: the S3 endpoint (path and virtual-host style). */
export function blobOriginsOf(config: AppConfig): string[] {
  const blob = config.blob;
  if (blob.driver !== 's3') return [];
  if (!blob.endpoint) return ['https://*.amazonaws.com'];
  const endpoint = new URL(blob.endpoint);
  const origins = [endpoint.origin];
  if (!blob.forcePathStyle) origins.push(`${endpoint.protocol}//${blob.bucket}.${endpoint.host}`);
  return origins;
}

export function securityHeaderOptions(config: AppConfig): SecurityHeaderOptions {
  return {
    blobOrigins: blobOriginsOf(config),
    issuerOrigin: config.identity.mode === 'external' ? new URL(config.identity.issuer).origin : null,
    extraOrigins: config.devOrigins,
  };
}

/** Adds the headers to every response Fastify sends (the provider's hijacked replies set their own). */
export function registerSecurityHeaders(app: FastifyInstance, config: AppConfig): void {
  const sets = securityHeaderSets(securityHeaderOptions(config));
  app.addHook('onSend', async (request, reply, payload) => {
    const path = request.url.split('?')[0] ?? '';
    const set = path.startsWith('/api/blob/')
      ? sets.file
      : path === '/api/docs' || path.startsWith('/api/docs/')
        ? sets.docs
        : path.startsWith('/api/') || (path.startsWith('/oidc/') && !SIGN_IN_SCREEN.test(path))
          ? sets.api
          : sets.app;
    for (const [name, value] of Object.entries(set)) if (!reply.hasHeader(name)) void reply.header(name, value);
    if (TOKEN_PAGES.test(path)) void reply.header('Referrer-Policy', 'no-referrer');
    return payload;
  });
}
