import { createHash, randomBytes } from 'node:crypto';

/** A minimal cookie jar: the provider's cookies across the redirects of one browser-less sign-in. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(header) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token: string;
  expires_in: number;
  scope: string;
}

export const WEB_CLIENT_ID = 'mixroom-web';

/**
 * Signs up (or in) through the embedded provider exactly as the browser does: authorization request
 * with PKCE and prompt=consent, the interaction endpoints, the automatic consent, the code exchange.
 */
export async function signInThroughOidc(
  baseUrl: string,
  account: { email: string; password: string; displayName?: string },
  mode: 'signup' | 'signin' = 'signup',
  /** The address a trusted balancer would name for this client (the load harness's many users). */
  forwardedFor?: string,
): Promise<Tokens> {
  const jar = new CookieJar();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirectUri = `${baseUrl}/auth/callback`;
  const authorize = new URL(`${baseUrl}/oidc/auth`);
  authorize.search = new URLSearchParams({
    client_id: WEB_CLIENT_ID,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile email offline_access api',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    prompt: 'consent',
  }).toString();

  const follow = async (url: string): Promise<string> => {
    let next = url;
    for (let hop = 0; hop < 10; hop++) {
      if (next.startsWith(redirectUri)) return next;
      const response = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
      jar.store(response);
      const location = response.headers.get('location');
      if (!location) return next;
      next = new URL(location, baseUrl).toString();
      if (/\/oidc\/interaction\/[^/]+$/.test(new URL(next).pathname)) {
        const uid = new URL(next).pathname.split('/').pop() ?? '';
        const details = await fetch(`${baseUrl}/oidc/interaction/${uid}/details`, {
          headers: { cookie: jar.header() },
        });
        const { prompt } = (await details.json()) as { prompt: string };
        if (prompt === 'login') return next;
      }
    }
    throw new Error(`Too many redirects from ${url}`);
  };

  const interaction = await follow(authorize.toString());
  const uid = new URL(interaction).pathname.split('/').pop() ?? '';
  const body =
    mode === 'signup'
      ? {
          displayName: account.displayName ?? account.email.split('@')[0],
          email: account.email,
          password: account.password,
        }
      : account;
  const result = await fetch(`${baseUrl}/oidc/interaction/${uid}/${mode === 'signup' ? 'signup' : 'login'}`, {
    method: 'POST',
    headers: {
      cookie: jar.header(),
      'content-type': 'application/json',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    body: JSON.stringify(body),
  });
  jar.store(result);
  if (!result.ok) throw new Error(`${mode} failed: ${result.status} ${await result.text()}`);
  const { redirectTo } = (await result.json()) as { redirectTo: string };
  const callback = new URL(await follow(redirectTo));
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`No code in ${callback.toString()}`);

  const token = await fetch(`${baseUrl}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: WEB_CLIENT_ID,
    }),
  });
  if (!token.ok) throw new Error(`token exchange failed: ${token.status} ${await token.text()}`);
  return (await token.json()) as Tokens;
}

export async function refreshTokens(baseUrl: string, refreshToken: string): Promise<Tokens> {
  const response = await fetch(`${baseUrl}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: WEB_CLIENT_ID }),
  });
  if (!response.ok) throw new Error(`refresh failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as Tokens;
}
