import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JWTPayload } from 'jose';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { sessionRevocations } from '../src/db/schema';
import { TTL } from '../src/platform/identity/embedded-provider';
import { purgeEndedSessions, SessionRevocations } from '../src/platform/identity/session-revocations';
import { REFRESH_REUSE_GRACE_MS } from '../src/platform/identity/oidc.repository';
import { call } from './helpers/api';
import { startClockedServer } from './helpers/clocked-server';
import { WEB_CLIENT_ID, type Tokens } from './helpers/oidc-flow';
import {
  Cookies,
  finish,
  nextRefreshToken,
  revokeRefreshToken,
  startInteraction,
  submit,
  tryRefresh,
} from './helpers/oidc-interaction';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

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

  it('ends the grant: the refresh token and the access token are refused at once', async () => {
    // Used first, so whatever a call keeps warm is warm.
    for (let i = 0; i < 3; i += 1) expect((await me(tokens.access_token)).status).toBe(200);
    const { xsrf } = await logoutPage(cookies);
    const confirmed = await confirmLogout(cookies, xsrf);
    expect(confirmed.status).toBe(303);

    expect(await tryRefresh(server.url, tokens.refresh_token!)).toEqual({ status: 400, error: 'invalid_grant' });
    // Well within its lifetime, the last access token no longer works, for the API and the socket alike.
    const next = await me(tokens.access_token);
    expect([next.status, next.body.error?.code]).toEqual([401, 'INVALID_TOKEN']);
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
    expect(await revokeRefreshToken(server.url, web.refresh_token!)).toBe(200);
    expect(await tryRefresh(server.url, web.refresh_token!)).toEqual({ status: 400, error: 'invalid_grant' });
    // The access token of that session is refused on the very next call.
    expect((await me(web.access_token)).status).toBe(401);
  });

  it('a node that starts after a session ended refuses its token too (from the table), until no token can hold it', async () => {
    const { tokens: web } = await signIn({ email: 'ana@sessions.test', password: 'ana-sessions-tango-1' }, 'login');
    const claims = JSON.parse(Buffer.from(web.access_token.split('.')[1]!, 'base64url').toString()) as JWTPayload;
    const verified = { subject: claims.sub!, claims };
    expect(await revokeRefreshToken(server.url, web.refresh_token!)).toBe(200);
    // Started once the ending is in the table, the bus's news long gone: only the table can tell it.
    await waitFor(
      async () =>
        (
          await server.context.database.db
            .select()
            .from(sessionRevocations)
            .where(eq(sessionRevocations.grantId, String(claims.gid)))
        ).length > 0,
      { what: 'the ended session in the table' },
    );
    const later = new SessionRevocations({
      db: server.context.database.db,
      bus: server.context.bus,
      clock: server.clock,
      log: pino({ level: 'silent' }),
      tokenLifetimeSeconds: TTL.AccessToken,
    });
    const stop = await later.start();
    stop();
    expect(later.refuses(verified)).toBe(true);
    // Past every token's lifetime (and the leeway) there is nothing left to refuse.
    server.clock.advance((TTL.AccessToken + 61) * 1000);
    try {
      expect(later.refuses(verified)).toBe(false);
      expect(await purgeEndedSessions(server.context.database.db, server.clock.now())).toBeGreaterThan(0);
    } finally {
      server.clock.advance(-(TTL.AccessToken + 61) * 1000);
    }
  });

  it('closes the realtime sockets of a session that ended, and only those', async () => {
    const { tokens: ended } = await signIn({ email: 'ana@sessions.test', password: 'ana-sessions-tango-1' }, 'login');
    const { tokens: other } = await signIn({ email: 'ana@sessions.test', password: 'ana-sessions-tango-1' }, 'login');
    const [endedSocket, otherSocket] = await Promise.all([connectRealtime(server.url), connectRealtime(server.url)]);
    await endedSocket.auth(ended.access_token);
    await otherSocket.auth(other.access_token);
    expect(await revokeRefreshToken(server.url, ended.refresh_token!)).toBe(200);
    // Closed as an expired token is (4401): the tab tries to renew, is refused, and signs out.
    await waitFor(() => endedSocket.closeCode() === 4401, { what: 'the ended session’s socket to close' });
    // The other session's socket is still open and answers.
    expect(otherSocket.closeCode()).toBeNull();
    expect(await otherSocket.subscribe(`user:${subjectOf(other.access_token)}`)).toMatchObject({ type: 'subscribed' });
    otherSocket.close();
  });

  it('names the grant in every access token, and a new sign-in is a new grant that works', async () => {
    const { tokens: first } = await signIn({ email: 'ana@sessions.test', password: 'ana-sessions-tango-1' }, 'login');
    const { tokens: second } = await signIn({ email: 'ana@sessions.test', password: 'ana-sessions-tango-1' }, 'login');
    const grantOf = (token: string) =>
      (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { gid?: string }).gid;
    expect(grantOf(first.access_token)).toEqual(expect.any(String));
    expect(grantOf(second.access_token)).not.toBe(grantOf(first.access_token));
    expect(await revokeRefreshToken(server.url, first.refresh_token!)).toBe(200);
    // One session ended; the other goes on.
    expect((await me(first.access_token)).status).toBe(401);
    expect((await me(second.access_token)).status).toBe(200);
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
    // The access tokens handed out before the reset are refused too.
    expect((await me(phone.access_token)).status).toBe(401);
    expect((await me(laptop.access_token)).status).toBe(401);
  });

  it('lets other services end all of a user’s sessions (an administrator disabling the account)', async () => {
    const { tokens } = await signIn({ email: 'cy@sessions.test', password: 'cy-sessions-tango-1' }, 'signup');
    expect((await me(tokens.access_token)).status).toBe(200);
    await server.context.services.signIn!.revokeAllGrants(subjectOf(tokens.access_token));
    expect(await tryRefresh(server.url, tokens.refresh_token!)).toEqual({ status: 400, error: 'invalid_grant' });
    expect((await me(tokens.access_token)).status).toBe(401);
  });
});
