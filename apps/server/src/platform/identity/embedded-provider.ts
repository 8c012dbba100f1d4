import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { randomBytes } from 'node:crypto';
import { MESSAGES } from '@mixroom/shared';
import type { Db } from '../../db/database';
import { isDatabaseUnreachable } from '../errors/database-unreachable';
import { providerHeaders } from '../../http/security-headers';
import type { Clock } from '../clock/clock';
import type { IdentitySecrets } from './signing-keys';
import { createOidcAdapterClass, revokeOidcGrant } from './oidc.repository';
import { logoutPage } from './logout-page';
import { GRANT_CLAIM } from './session-revocations';

export interface AccountLookup {
  findAccountClaims(id: string): Promise<{ email: string; name: string } | null>;
}

export interface EmbeddedProviderOptions {
  issuer: string;
  publicUrl: string;
  clientId: string;
  audience: string;
  /** Extra origins allowed to receive codes (the Vite dev server). */
  extraOrigins: string[];
  /** The app's clock: times the refresh tokens' reuse grace. */
  clock: Clock;
  /**
   * Grants that ended (a sign-out, a revoked or reused refresh token): their access tokens are
   * refused from now on. Called before the answer that ended them is sent where the provider lets
   * it wait (sign-out), else as soon as the provider tells. Must not reject: it logs its failures.
   */
  onGrantsEnded: (userId: string | null, grantIds: string[]) => Promise<void>;
}

/**
 * Seconds each artefact lives. Access tokens are short; the web client renews them silently with
 * the refresh token. One of a session that ended is refused at once (`onGrantsEnded`).
 */
export const TTL = {
  AccessToken: 5 * 60,
  AuthorizationCode: 60,
  IdToken: 60 * 60,
  Interaction: 60 * 60,
  Session: 14 * 86400,
  Grant: 30 * 86400,
  RefreshToken: 30 * 86400,
};

/**
 * The embedded OpenID Connect provider mounted under /oidc: authorization code + PKCE for the web
 * client, refresh tokens (offline_access), and JWT access tokens for the API audience.
 */
export function createEmbeddedProvider(
  db: Db,
  secrets: IdentitySecrets,
  accounts: AccountLookup,
  options: EmbeddedProviderOptions,
): Provider {
  const redirectOrigins = [options.publicUrl, ...options.extraOrigins];
  const configuration: Configuration = {
    adapter: createOidcAdapterClass(db, options.clock),
    clients: [
      {
        client_id: options.clientId,
        client_name: 'Mixroom',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: redirectOrigins.map((o) => `${o}/auth/callback`),
        post_logout_redirect_uris: redirectOrigins.flatMap((o) => [`${o}/`, `${o}/public/landing`]),
      },
    ],
    clientBasedCORS: (_ctx, origin) => redirectOrigins.includes(origin),
    cookies: { keys: secrets.cookieKeys, long: { sameSite: 'lax' }, short: { sameSite: 'lax' } },
    jwks: secrets.jwks,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'api'],
    conformIdTokenClaims: false,
    extraParams: ['screen'],
    pkce: { required: () => true },
    ttl: TTL,
    interactions: { url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // Signing out needs the user's click on this page, or an id_token_hint only the app holds:
        // a foreign page can't sign anyone out (logout CSRF).
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
          const nonce = randomBytes(16).toString('base64');
          const hinted = Boolean(ctx.oidc.entities.IdTokenHint);
          ctx.set('Content-Security-Policy', logoutPolicy(nonce, options.extraOrigins));
          ctx.body = logoutPage(form, { autoSubmit: hinted, nonce });
        },
        postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => {
          ctx.redirect(`${options.publicUrl}/public/landing`);
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== options.audience) throw new errors.InvalidTarget();
          return {
            scope: 'api',
            audience: options.audience,
            accessTokenTTL: TTL.AccessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    // Each access token names its grant, so ending the session refuses the token at once.
    extraTokenClaims: (_ctx, token) =>
      'grantId' in token && typeof token.grantId === 'string' ? { [GRANT_CLAIM]: token.grantId } : undefined,
    findAccount: async (_ctx, id) => {
      const account = await accounts.findAccountClaims(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({ sub: id, email: account.email, email_verified: false, name: account.name }),
      };
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html><head><meta charset="utf-8"><title>Sign-in error</title></head>
<body style="font-family:system-ui;background:#0f0d1a;color:#eee;display:grid;place-items:center;height:100vh;text-align:center">
<div><h1>Sign-in could not continue</h1><p>${escapeHtml(String(out.error_description ?? out.error))}</p><p><a style="color:#b197fc" href="/">Back to Mixroom</a></p></div></body></html>`;
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.proxy = true;
  // The revocation endpoint, a reused refresh token or authorization code, the provider's own sign-out.
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
    const accountId = ctx.oidc?.entities.Grant?.accountId ?? ctx.oidc?.session?.accountId ?? null;
    // It logs its own failures and never rejects (see SessionRevocations.revoke).
    void options.onGrantsEnded(accountId ?? null, [grantId]);
  });
  // The provider answers every failure of its own storage 500 `server_error`; a database out of reach
  // is the installation's failure, not the request's, and nothing was written: 503, retry in 5 s,
  // as the API answers (a client renewing its token then tries again instead of signing out).
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: unknown) => {
    if (isDatabaseUnreachable(error)) ctx.state.databaseUnreachable = true;
  });
  const headers = providerHeaders(options.extraOrigins);
  provider.use(async (ctx, next) => {
    ctx.set(headers);
    await next();
    if (ctx.state.databaseUnreachable === true && ctx.status === 500) {
      ctx.status = 503;
      ctx.set('Retry-After', '5');
      if (ctx.type !== 'text/html')
        ctx.body = { error: 'temporarily_unavailable', error_description: MESSAGES.serviceUnavailable };
    }
    // The provider keeps grants with offline access past a sign-out; Mixroom's sign-out ends them,
    // so the refresh tokens of this browser's session stop working too.
    const { oidc } = ctx as Partial<KoaContextWithOIDC>;
    if (oidc?.route === 'end_session_confirm' && ctx.status === 303) {
      const ended: string[] = [];
      for (const { grantId } of Object.values(oidc.session?.authorizations ?? {}))
        if (grantId) {
          await revokeOidcGrant(db, grantId);
          ended.push(grantId);
        }
      await options.onGrantsEnded(oidc.session?.accountId ?? null, ended);
    }
  });
  return provider;
}

function logoutPolicy(nonce: string, extraOrigins: string[]): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'unsafe-inline'",
    `form-action 'self' ${extraOrigins.join(' ')}`.trim(),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Mounts the provider's Koa app under /oidc. Bodies are left unparsed for it, and the original URL is
 * kept so it can build absolute links. Fastify routes declared elsewhere under /oidc/interaction win
 * over this wildcard.
 */
export async function mountProvider(app: FastifyInstance, provider: Provider): Promise<void> {
  const callback = provider.callback();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const raw = request.raw as typeof request.raw & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = (raw.url ?? '').slice('/oidc'.length) || '/';
    void callback(raw, reply.raw);
  };
  app.all('/oidc', { schema: { hide: true } }, handler);
  app.all('/oidc/*', { schema: { hide: true } }, handler);
}
