import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Me } from '@mixroom/contracts';
import { call } from './helpers/api';
import { signInThroughOidc, type Tokens } from './helpers/oidc-flow';
import { startTestServer, type TestServer } from './helpers/test-server';

/**
 * `/api/me` reads what it can once per request and remembers what only grows (a month's credits
 * given): nothing it remembers may keep a refused account in, or show a plan that changed.
 */
let server: TestServer;
const tokens: Record<'admin' | 'ana' | 'ben', Tokens> = {} as never;
const subjectOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
const me = (who: keyof typeof tokens) => call(server.url, '/api/me', { token: tokens[who].access_token });

beforeAll(async () => {
  server = await startTestServer();
  // The first account of a new server is its administrator.
  for (const who of ['admin', 'ana', 'ben'] as const)
    tokens[who] = await signInThroughOidc(server.url, { email: `${who}@fresh.test`, password: `${who}-password-long` });
});
afterAll(() => server.close());

describe('/api/me between changes', () => {
  it('shows a plan granted, then revoked, on the very next call', async () => {
    for (let i = 0; i < 3; i++) expect((await me('ana')).status).toBe(200);
    const ana = subjectOf(tokens.ana.access_token);
    const granted = await call(server.url, `/api/admin/users/${ana}/plans`, {
      method: 'POST',
      token: tokens.admin.access_token,
      body: { sku: 'STUDIO', endsAt: null },
    });
    expect(granted.status).toBe(201);
    const withPlan = (await me('ana')).body as unknown as Me;
    expect(withPlan.plans.map((p) => p.sku)).toContain('STUDIO');
    // The month's credits follow the bigger plan at once (the top-up), whatever was remembered.
    const credits = withPlan.entitlements.credits;
    expect(credits.balance).toBe(credits.perMonth);

    const grantId = (granted.body as { id: string }).id;
    const revoked = await call(server.url, `/api/admin/users/${ana}/plans/${grantId}`, {
      method: 'DELETE',
      token: tokens.admin.access_token,
    });
    expect(revoked.status).toBe(204);
    const after = (await me('ana')).body as unknown as Me;
    expect(after.limits).toEqual(((await me('ben')).body as unknown as Me).limits);
  });

  it('refuses a disabled account on the very next call, after calls that succeeded', async () => {
    for (let i = 0; i < 3; i++) expect((await me('ben')).status).toBe(200);
    const disabled = await call(server.url, `/api/admin/users/${subjectOf(tokens.ben.access_token)}/status`, {
      method: 'PUT',
      token: tokens.admin.access_token,
      body: { disabled: true },
    });
    expect(disabled.status).toBe(200);
    expect(await me('ben')).toMatchObject({ status: 401, body: { error: { code: 'ACCOUNT_DISABLED' } } });
  });

  it('refuses an account whose deletion was asked for on the very next call', async () => {
    expect((await me('ana')).status).toBe(200);
    const asked = await call(server.url, '/api/me/deletion', {
      method: 'POST',
      token: tokens.ana.access_token,
      body: { email: 'ana@fresh.test' },
    });
    expect(asked.status).toBeLessThan(300);
    expect(await me('ana')).toMatchObject({ status: 401, body: { error: { code: 'INVALID_TOKEN' } } });
  });
});
