import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TTL } from '../src/platform/identity/embedded-provider';
import { REFRESH_REUSE_GRACE_MS } from '../src/platform/identity/oidc.repository';
import { call } from './helpers/api';
import { startClockedServer } from './helpers/clocked-server';
import { WEB_CLIENT_ID, type Tokens } from './helpers/oidc-flow';
import { Cookies, finish, nextRefreshToken, startInteraction, submit, tryRefresh } from './helpers/oidc-interaction';
import { waitFor } from './helpers/wait-for';

let server: Awaited<ReturnType<typeof startClockedServer>>;

beforeAll(async () => {
  server = await startClockedServer();
});
afterAll(async () => {
  await server.close();
});

/** Signs up (first time) or in through the browser flow; the cookies hold the provider session. */
async function signIn(account: { email: string; password: string }, form: 'signup' | 'login', cookies = new Cookies()) {
  const interaction = await startInteraction(server.url, cookies);
  const body = form === 'signup' ? { displayName: 'Sam', ...account } : account;
  const answer = await submit(interaction, form, body);
  if (!answer.redirectTo) throw new Error(`${form} failed: ${answer.status} ${JSON.stringify(answer)}`);
  return { tokens: await finish(interaction, answer.redirectTo), cookies };
}

const me = (token: string) => call(server.url, '/api/me', { token });
const subjectOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;

/** The sign-out page of the provider and its form's hidden xsrf value. */
async function logoutPage(cookies: Cookies, query: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/oidc/session/end?${new URLSearchParams(query).toString()}`, {
    headers: { cookie: cookies.header() },
  });
  cookies.store(response);
  const html = await response.text();
  return { response, html, xsrf: /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '' };
}

async function confirmLogout(cookies: Cookies, xsrf: string) {
  const response = await fetch(`${server.url}/oidc/session/end/confirm`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookies.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xsrf, logout: 'yes' }),
  });
  cookies.store(response);
  return response;
}

describe('access tokens', () => {
  it('live five minutes', async () => {
    const { tokens } = await signIn({ email: 'short@sessions.test', password: 'short-lived-1' }, 'signup');
    expect(tokens.expires_in).toBeLessThanOrEqual(TTL.AccessToken);
    expect(TTL.AccessToken).toBeLessThanOrEqual(10 * 60);
  });
});

describe('sign-out', () => {
  let tokens: Tokens;
  let cookies: Cookies;

  beforeAll(async () => {
    ({ tokens, cookies } = await signIn({ email: 'ana@sessions.test', password: 'ana-sessions-tango-1' }, 'signup'));
  });

  it('asks before signing out when the request does not come from the app', async () => {
    const { response, html, xsrf } = await logoutPage(cookies);
    expect(response.status).toBe(200);
    expect(html).toContain('Sign out?');
    expect(html).toContain('<button type="submit"');
    expect(html).not.toContain('<script');
    expect(xsrf).not.toBe('');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    // Only showing the page signs nobody out.
    const renewal = await tryRefresh(server.url, tokens.refresh_token!);
    expect(renewal.status).toBe(200);
    tokens = { ...renewal.tokens!, refresh_token: nextRefreshToken(renewal, tokens.refresh_token!) };
  });

  it('signs out at once with the app’s id_token_hint (the app asked), with a nonce-only script', async () => {
    const { html, response } = await logoutPage(cookies, { id_token_hint: tokens.id_token, client_id: WEB_CLIENT_ID });
    const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toBeTruthy();
    expect(response.headers.get('content-security-policy')).toContain(`script-src 'nonce-${nonce}'`);
  });

  it('ends the grant: the refresh token is refused at once, the access token after its short life', async () => {
    const { xsrf } = await logoutPage(cookies);
    const confirmed = await confirmLogout(cookies, xsrf);
    expect(confirmed.status).toBe(303);

    expect(await tryRefresh(server.url, tokens.refresh_token!)).toEqual({ status: 400, error: 'invalid_grant' });
    // Still within its lifetime, the last access token works; past it, it is refused.
    expect((await me(tokens.access_token)).status).toBe(200);
    // The test clock stands still: move it from now to just past the token's lifetime.
    server.clock.set(new Date(Date.now() + (TTL.AccessToken + 10) * 1000));
    try {
      const late = await me(tokens.access_token);
      expect(late.status).toBe(401);
      expect(late.body.error?.code).toBe('INVALID_TOKEN');
    } finally {
      server.clock.set(new Date());
    }
  });

  it('asks for the password again after signing out (the provider session is gone)', async () => {
    const interaction = await startInteraction(server.url, cookies);
    const details = await fetch(`${server.url}/oidc/interaction/${interaction.uid}/details`, {
      headers: { cookie: cookies.header() },
    });
    expect(((await details.json()) as { prompt: string }).prompt).toBe('login');
  });

  it('revokes through the revocation endpoint as the web app does on sign-out', async () => {
    const { tokens: web } = await signIn({ email: 'ana@sessions.test', password: 'ana-sessions-tango-1' }, 'login');
    const revoked = await fetch(`${server.url}/oidc/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: web.refresh_token!,
        token_type_hint: 'refresh_token',
        client_id: WEB_CLIENT_ID,
      }),
    });
    expect(revoked.status).toBe(200);
    expect(await tryRefresh(server.url, web.refresh_token!)).toEqual({ status: 400, error: 'invalid_grant' });
  });
});

describe('refresh token rotation', () => {
  it('renews again with a token whose answer was lost, within the grace; a later reuse ends the grant', async () => {
    const { tokens } = await signIn({ email: 'lost@sessions.test', password: 'lost-answer-tango-1' }, 'signup');
    const first = await tryRefresh(server.url, tokens.refresh_token!);
    expect(first.status).toBe(200);
    // The public client's refresh token rotates: the first renewal handed out a new one.
    const lost = nextRefreshToken(first, tokens.refresh_token!);
    expect(lost).not.toBe(tokens.refresh_token);

    // That answer never reached the tab (its node died): it tries again with the token it holds.
    const retried = await tryRefresh(server.url, tokens.refresh_token!);
    expect(retried.status).toBe(200);
    const kept = nextRefreshToken(retried, tokens.refresh_token!);
    expect((await me(retried.tokens!.access_token)).status).toBe(200);

    // Past the grace, counted from the first use (the retry did not stretch it), a reuse reads as
    // a stolen token: the grant ends, and with it every token issued under it.
    const start = server.clock.now().getTime();
    server.clock.set(new Date(start + REFRESH_REUSE_GRACE_MS + 1000));
    try {
      expect(await tryRefresh(server.url, tokens.refresh_token!)).toEqual({ status: 400, error: 'invalid_grant' });
      expect(await tryRefresh(server.url, kept)).toEqual({ status: 400, error: 'invalid_grant' });
      expect(await tryRefresh(server.url, lost)).toEqual({ status: 400, error: 'invalid_grant' });
    } finally {
      server.clock.set(new Date());
    }
  });
});

describe('password reset and revokeAllGrants', () => {
  /** The reset link from the newest outbox mail to `to`. */
  const resetTokenFor = (to: string, after: Set<string>) => {
    const outbox = join(server.dataDir, 'outbox');
    if (!existsSync(outbox)) return undefined;
    for (const name of readdirSync(outbox).filter((n) => n.endsWith('.eml') && !after.has(n))) {
      const raw = readFileSync(join(outbox, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(raw)?.[1];
      if (raw.includes(`To: ${to}`) && token) return token;
    }
    return undefined;
  };
  const outboxNames = () =>
    new Set(existsSync(join(server.dataDir, 'outbox')) ? readdirSync(join(server.dataDir, 'outbox')) : []);

  it('refuses every old refresh token after a password reset', async () => {
    const account = { email: 'bob@sessions.test', password: 'bob-sessions-tango-1' };
    const laptop = (await signIn(account, 'signup')).tokens;
    const phone = (await signIn(account, 'login')).tokens;
    const renewal = await tryRefresh(server.url, laptop.refresh_token!);
    expect(renewal.status).toBe(200);
    const laptopRefresh = nextRefreshToken(renewal, laptop.refresh_token!);

    const before = outboxNames();
    expect(
      (await call(server.url, '/api/auth/password-reset', { method: 'POST', body: { email: account.email } })).status,
    ).toBe(202);
    const token = await waitFor(() => resetTokenFor(account.email, before), { what: 'the reset mail' });
    const reset = await call(server.url, '/api/auth/password-reset/confirm', {
      method: 'POST',
      body: { token, password: 'bob-sessions-tango-2' },
    });
    expect(reset.status).toBe(200);

    expect(await tryRefresh(server.url, phone.refresh_token!)).toEqual({ status: 400, error: 'invalid_grant' });
    expect(await tryRefresh(server.url, laptopRefresh)).toEqual({ status: 400, error: 'invalid_grant' });
    const next = await signIn({ email: account.email, password: 'bob-sessions-tango-2' }, 'login');
    expect((await me(next.tokens.access_token)).status).toBe(200);
  });

  it('lets other services end all of a user’s sessions (an administrator disabling the account)', async () => {
    const { tokens } = await signIn({ email: 'cy@sessions.test', password: 'cy-sessions-tango-1' }, 'signup');
    await server.context.services.signIn!.revokeAllGrants(subjectOf(tokens.access_token));
    expect(await tryRefresh(server.url, tokens.refresh_token!)).toEqual({ status: 400, error: 'invalid_grant' });
  });
});
