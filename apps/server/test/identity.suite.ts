import { eq } from 'drizzle-orm';
import { SignJWT, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSecrets } from '../src/db/schema';
import { SIGN_UP_CHECK_MAIL } from '../src/modules/sign-in/sign-in.service';
import { call } from './helpers/api';
import { refreshTokens, signInThroughOidc, type Tokens } from './helpers/oidc-flow';
import { startInteraction, submit } from './helpers/oidc-interaction';
import { startTestServer, type TestServer } from './helpers/test-server';

/**
 * Accounts, tokens, admin and API surface against one database. identity.test.ts runs it on PGlite,
 * identity.postgres.test.ts on PostgreSQL.
 */
export function identitySuite(
  database: () => Promise<{ env: Record<string, string>; drop: () => Promise<void> }>,
): void {
  let server: TestServer;
  let admin: Tokens;
  let member: Tokens;
  let drop: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const target = await database();
    drop = target.drop;
    server = await startTestServer(target.env);
    admin = await signInThroughOidc(server.url, {
      email: 'first@studio.test',
      password: 'first-password',
      displayName: 'First',
    });
    member = await signInThroughOidc(server.url, {
      email: 'second@studio.test',
      password: 'second-password',
      displayName: 'Second',
    });
  });
  afterAll(async () => {
    await server.close();
    await drop();
  });

  async function signingKey() {
    const [row] = await server.context.database.db.select().from(appSecrets).where(eq(appSecrets.key, 'oidc.jwks'));
    const jwk = (row?.value as { keys: JWK[] }).keys[0]!;
    return { key: await importJWK(jwk, 'RS256'), kid: jwk.kid! };
  }

  async function forge(claims: { sub: string; aud: string; iss: string; exp: number }) {
    const { key, kid } = await signingKey();
    return new SignJWT({ scope: 'api' })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setSubject(claims.sub)
      .setAudience(claims.aud)
      .setIssuer(claims.iss)
      .setIssuedAt()
      .setExpirationTime(claims.exp)
      .sign(key);
  }

  const subjectOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;

  describe('accounts through the embedded OIDC provider', () => {
    it('issues JWT access tokens for the API audience with a refresh token', async () => {
      expect(admin.refresh_token).toBeTruthy();
      const payload = JSON.parse(Buffer.from(admin.access_token.split('.')[1]!, 'base64url').toString());
      expect(payload.aud).toBe('urn:mixroom:api');
      expect(payload.iss).toBe(`${server.url}/oidc`);
    });

    it('makes the first account administrator and the second not', async () => {
      const first = await call(server.url, '/api/me', { token: admin.access_token });
      const second = await call(server.url, '/api/me', { token: member.access_token });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        email: 'first@studio.test',
        displayName: 'First',
        isAdmin: true,
        capabilities: { admin: true },
      });
      expect(second.body).toMatchObject({
        email: 'second@studio.test',
        isAdmin: false,
        capabilities: { admin: false },
      });
      expect((second.body as { limits: { storageMb: number } }).limits.storageMb).toBe(15_000);
    });

    it('renews the session with the refresh token', async () => {
      const renewed = await refreshTokens(server.url, member.refresh_token!);
      expect(renewed.access_token).not.toBe(member.access_token);
      expect((await call(server.url, '/api/me', { token: renewed.access_token })).status).toBe(200);
    });

    it('signs in an existing account and refuses a wrong password', async () => {
      const again = await signInThroughOidc(
        server.url,
        { email: 'SECOND@studio.test', password: 'second-password' },
        'signin',
      );
      expect(subjectOf(again.access_token)).toBe(subjectOf(member.access_token));
      await expect(
        signInThroughOidc(server.url, { email: 'second@studio.test', password: 'wrong-password' }, 'signin'),
      ).rejects.toThrow(/401.*not correct/);
    });

    it('makes no second account for an e-mail in any case, and never says the e-mail is taken', async () => {
      const interaction = await startInteraction(server.url);
      const answer = await submit(interaction, 'signup', {
        displayName: 'Other',
        email: 'First@Studio.test',
        password: 'another-password',
      });
      expect(answer.status).toBe(200);
      expect(answer.message).toBe(SIGN_UP_CHECK_MAIL);
      expect(answer.redirectTo).toBeUndefined();
      const found = await call(server.url, '/api/admin/users?search=studio.test', { token: admin.access_token });
      expect(
        (found.body.users as { email: string }[]).filter((u) => u.email.toLowerCase() === 'first@studio.test'),
      ).toHaveLength(1);
    });

    it('validates sign-up input with clear messages', async () => {
      await expect(signInThroughOidc(server.url, { email: 'not-an-email', password: 'long-enough' })).rejects.toThrow(
        /valid e-mail/,
      );
      await expect(signInThroughOidc(server.url, { email: 'short@studio.test', password: 'short' })).rejects.toThrow(
        /at least 8 characters/,
      );
    });
  });

  describe('access token verification', () => {
    it('accepts a valid token', async () => {
      expect((await call(server.url, '/api/me', { token: admin.access_token })).status).toBe(200);
    });

    it('answers 401 to an expired token', async () => {
      const token = await forge({
        sub: subjectOf(admin.access_token),
        aud: 'urn:mixroom:api',
        iss: `${server.url}/oidc`,
        exp: Math.floor(Date.now() / 1000) - 60,
      });
      const result = await call(server.url, '/api/me', { token });
      expect(result.status).toBe(401);
      expect(result.body.error?.code).toBe('INVALID_TOKEN');
    });

    it('answers 401 to a token for another audience', async () => {
      const token = await forge({
        sub: subjectOf(admin.access_token),
        aud: 'urn:other:api',
        iss: `${server.url}/oidc`,
        exp: Math.floor(Date.now() / 1000) + 600,
      });
      expect((await call(server.url, '/api/me', { token })).status).toBe(401);
    });

    it('answers 401 to a token from another issuer', async () => {
      const token = await forge({
        sub: subjectOf(admin.access_token),
        aud: 'urn:mixroom:api',
        iss: 'https://evil.example/oidc',
        exp: Math.floor(Date.now() / 1000) + 600,
      });
      expect((await call(server.url, '/api/me', { token })).status).toBe(401);
    });

    it('answers 401 to a tampered token (payload changed, signature kept)', async () => {
      const [header, payload, signature] = member.access_token.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      claims.sub = subjectOf(admin.access_token);
      const tampered = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
      expect((await call(server.url, '/api/me', { token: tampered })).status).toBe(401);
    });

    it('answers 401 to garbage and to a malformed header', async () => {
      expect((await call(server.url, '/api/me', { token: 'not.a.jwt' })).status).toBe(401);
      const response = await fetch(`${server.url}/api/me`, { headers: { authorization: 'Basic abc' } });
      expect(response.status).toBe(401);
    });
  });

  describe('admin area', () => {
    it('lets only administrators list users (anonymous 401, member 403, admin 200)', async () => {
      expect((await call(server.url, '/api/admin/users')).status).toBe(401);
      expect((await call(server.url, '/api/admin/users', { token: member.access_token })).status).toBe(403);
      const list = await call(server.url, '/api/admin/users', { token: admin.access_token });
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(2);
    });

    it('searches and pages with the spec page sizes', async () => {
      const found = await call(server.url, '/api/admin/users?search=second', { token: admin.access_token });
      expect((found.body.users as { email: string }[]).map((u) => u.email)).toEqual(['second@studio.test']);
      const bad = await call(server.url, '/api/admin/users?pageSize=30', { token: admin.access_token });
      expect(bad.status).toBe(400);
      expect(bad.body.error?.message).toBe('Page size must be 25, 50 or 100.');
    });

    it('grants a plan that lifts the merged limits, and only an admin may', async () => {
      const memberId = subjectOf(member.access_token);
      const denied = await call(server.url, `/api/admin/users/${memberId}/plans`, {
        method: 'POST',
        token: member.access_token,
        body: { sku: 'STUDIO' },
      });
      expect(denied.status).toBe(403);
      const granted = await call(server.url, `/api/admin/users/${memberId}/plans`, {
        method: 'POST',
        token: admin.access_token,
        body: { sku: 'STUDIO' },
      });
      expect(granted.status).toBe(201);
      const me = await call(server.url, '/api/me', { token: member.access_token });
      expect(me.body).toMatchObject({ limits: { storageMb: 5_000_000, liveRecording: true } });
      const revoked = await call(server.url, `/api/admin/users/${memberId}/plans/${String(granted.body.id)}`, {
        method: 'DELETE',
        token: admin.access_token,
      });
      expect(revoked.status).toBe(204);
      expect((await call(server.url, '/api/me', { token: member.access_token })).body).toMatchObject({
        limits: { storageMb: 15_000 },
      });
    });
  });

  describe('API surface', () => {
    it('serves the health of database, storage and queue', async () => {
      const health = await call(server.url, '/api/health');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({
        status: 'ok',
        checks: { database: { ok: true }, storage: { ok: true }, queue: { ok: true } },
      });
    });

    it('serves OpenAPI generated from the contract schemas at /api/docs', async () => {
      const spec = await call(server.url, '/api/docs/json');
      expect(spec.status).toBe(200);
      const paths = spec.body.paths as Record<string, unknown>;
      expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/api/health', '/api/me', '/api/admin/users']));
      expect((await fetch(`${server.url}/api/docs`)).status).toBe(200);
    });

    it('answers unknown API routes with the one error shape', async () => {
      const missing = await call(server.url, '/api/nope');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No route GET /api/nope' } });
    });

    it('serves the web app for client-side routes', async () => {
      const page = await fetch(`${server.url}/groups/some-folder`);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('<div id="root">');
    });
  });
}
