import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api';
import { signInThroughOidc, type Tokens } from './helpers/oidc-flow';
import { startTestServer, type TestServer } from './helpers/test-server';

/**
 * OIDC_ISSUER + OIDC_CLIENT_ID switch Mixroom to an external issuer. The external issuer here is a
 * second Mixroom's embedded provider: a real OIDC server with discovery, JWKS and JWT access tokens.
 */
let issuer: TestServer;
let app: TestServer;
let tokens: Tokens;

beforeAll(async () => {
  issuer = await startTestServer();
  app = await startTestServer({
    OIDC_ISSUER: `${issuer.url}/oidc`,
    OIDC_CLIENT_ID: 'mixroom-web',
    OIDC_AUDIENCE: 'urn:mixroom:api',
  });
  tokens = await signInThroughOidc(issuer.url, {
    email: 'keycloak-user@corp.test',
    password: 'corp-password',
    displayName: 'Corp User',
  });
});
afterAll(async () => {
  await app.close();
  await issuer.close();
});

describe('an external OIDC issuer', () => {
  it('turns the embedded provider off and tells the web client where to sign in', async () => {
    const config = await call(app.url, '/api/auth/config');
    expect(config.body).toMatchObject({ issuer: `${issuer.url}/oidc`, clientId: 'mixroom-web', embedded: false });
    expect((await fetch(`${app.url}/oidc/.well-known/openid-configuration`)).status).toBe(404);
    expect(
      (await call(app.url, '/api/auth/password-reset', { method: 'POST', body: { email: 'a@b.co' } })).status,
    ).toBe(404);
  });

  it('accepts the issuer’s access tokens and creates the account on first use', async () => {
    const first = await call(app.url, '/api/me', { token: tokens.access_token });
    expect(first.status).toBe(200);
    const second = await call(app.url, '/api/me', { token: tokens.access_token });
    expect(second.body.id).toBe(first.body.id);
    expect(first.body.isAdmin).toBe(true);
    const admin = await call(app.url, '/api/admin/users', { token: tokens.access_token });
    expect((admin.body.users as { providerId: string }[])[0]?.providerId).toBe(`${issuer.url}/oidc`);
  });

  it('refuses tokens the app’s own keys would have signed: only the issuer’s keys count', async () => {
    const local = await startTestServer();
    try {
      const foreign = await signInThroughOidc(local.url, { email: 'x@y.test', password: 'xy-password' });
      expect((await call(app.url, '/api/me', { token: foreign.access_token })).status).toBe(401);
    } finally {
      await local.close();
    }
  });
});
