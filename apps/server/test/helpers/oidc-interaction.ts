import { createHash, randomBytes } from 'node:crypto';
import { CookieJar, WEB_CLIENT_ID, type Tokens } from './oidc-flow';

/** A browser's cookies for one origin: the provider's session and interaction cookies. */
export { CookieJar as Cookies };

export interface Interaction {
  uid: string;
  cookies: CookieJar;
  verifier: string;
  baseUrl: string;
}

const redirectUri = (baseUrl: string) => `${baseUrl}/auth/callback`;

/** Follows redirects by hand (keeping cookies) until the callback or a page that wants the user. */
async function follow(baseUrl: string, cookies: CookieJar, url: string): Promise<string> {
  let next = url;
  for (let hop = 0; hop < 10; hop++) {
    if (next.startsWith(redirectUri(baseUrl))) return next;
    const response = await fetch(next, { redirect: 'manual', headers: { cookie: cookies.header() } });
    cookies.store(response);
    const location = response.headers.get('location');
    if (!location) return next;
    next = new URL(location, baseUrl).toString();
    if (/\/oidc\/interaction\/[^/]+$/.test(new URL(next).pathname)) {
      const uid = new URL(next).pathname.split('/').pop() ?? '';
      const details = await fetch(`${baseUrl}/oidc/interaction/${uid}/details`, {
        headers: { cookie: cookies.header() },
      });
      if (((await details.json()) as { prompt: string }).prompt === 'login') return next;
    }
  }
  throw new Error(`Too many redirects from ${url}`);
}

/** Starts an authorization request as the web app does and stops at the sign-in screen. */
export async function startInteraction(baseUrl: string, cookies = new CookieJar()): Promise<Interaction> {
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${baseUrl}/oidc/auth`);
  authorize.search = new URLSearchParams({
    client_id: WEB_CLIENT_ID,
    redirect_uri: redirectUri(baseUrl),
    response_type: 'code',
    scope: 'openid profile email offline_access api',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    prompt: 'consent',
  }).toString();
  const page = await follow(baseUrl, cookies, authorize.toString());
  return { uid: new URL(page).pathname.split('/').pop() ?? '', cookies, verifier, baseUrl };
}

/** POSTs the sign-in or sign-up form, from `address` (as a proxy in front of Mixroom reports it). */
export async function submit(interaction: Interaction, form: 'login' | 'signup', body: object, address?: string) {
  const response = await fetch(`${interaction.baseUrl}/oidc/interaction/${interaction.uid}/${form}`, {
    method: 'POST',
    headers: {
      cookie: interaction.cookies.header(),
      'content-type': 'application/json',
      ...(address ? { 'x-forwarded-for': address } : {}),
    },
    body: JSON.stringify(body),
  });
  interaction.cookies.store(response);
  const json = (await response.json()) as {
    redirectTo?: string;
    message?: string;
    error?: { code: string; message: string };
  };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), ...json };
}

/** After a successful form: consent, callback, code exchange. */
export async function finish(interaction: Interaction, redirectTo: string): Promise<Tokens> {
  const callback = new URL(await follow(interaction.baseUrl, interaction.cookies, redirectTo));
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`No code in ${callback.toString()}`);
  const token = await fetch(`${interaction.baseUrl}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: interaction.verifier,
      redirect_uri: redirectUri(interaction.baseUrl),
      client_id: WEB_CLIENT_ID,
    }),
  });
  if (!token.ok) throw new Error(`token exchange failed: ${token.status} ${await token.text()}`);
  return (await token.json()) as Tokens;
}

/**
 * Tries to renew with a refresh token: the provider's status and error code, and on success the new
 * tokens (the provider rotates refresh tokens: the old one must not be used again).
 */
export async function tryRefresh(
  baseUrl: string,
  refreshToken: string,
): Promise<{ status: number; error?: string; tokens?: Tokens }> {
  const response = await fetch(`${baseUrl}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: WEB_CLIENT_ID }),
  });
  const body = (await response.json()) as Tokens & { error?: string };
  if (!response.ok) return { status: response.status, ...(body.error ? { error: body.error } : {}) };
  return { status: response.status, tokens: body };
}

/** The refresh token to use next after a renewal. */
export const nextRefreshToken = (renewal: { tokens?: Tokens }, previous: string): string =>
  renewal.tokens?.refresh_token ?? previous;

/** Revokes a refresh token at the provider's revocation endpoint, as the web app does on sign-out; the status. */
export async function revokeRefreshToken(baseUrl: string, refreshToken: string): Promise<number> {
  const response = await fetch(`${baseUrl}/oidc/token/revocation`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: refreshToken, token_type_hint: 'refresh_token', client_id: WEB_CLIENT_ID }),
  });
  await response.body?.cancel();
  return response.status;
}
