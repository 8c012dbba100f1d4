import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUser, AdminUserList, AuditPage, CreditsResponse, ServerOverview } from '@mixroom/contracts';
import { DAY_MS, MESSAGES, PLANS } from '@mixroom/shared';
import { sql } from 'drizzle-orm';
import { call } from './helpers/api';
import { startClockedServer } from './helpers/clocked-server';
import { refreshTokens, signInThroughOidc, type Tokens } from './helpers/oidc-flow';
import { createTestDatabase, type TestServer } from './helpers/test-server';
import type { TestClock } from '../src/platform/clock/clock';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

/**
 * The operator's admin area against a real server: the last administrator stays one (also when two
 * demotions race), every action leaves an audit row with before and after (and a refused one
 * leaves none), disabling ends every session and socket at once, and a plan granted until a date
 * ends on that date. On PostgreSQL when TEST_DATABASE_URL is set, so the race runs on a real pool.
 */
let server: TestServer & { clock: TestClock };
let dropDatabase: (() => Promise<void>) | null = null;
const tokens: Record<'admin' | 'bob' | 'carl' | 'dana', Tokens> = {} as never;
const ids: Record<keyof typeof tokens, string> = {} as never;
const subjectOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
const as = (who: keyof typeof tokens) => tokens[who].access_token;

async function row(email: string): Promise<AdminUser> {
  const list = (await call(server.url, `/api/admin/users?search=${encodeURIComponent(email)}`, { token: as('admin') }))
    .body as unknown as AdminUserList;
  return list.users.find((u) => u.email === email)!;
}
const audit = async (query = '', token = as('admin')) =>
  (await call(server.url, `/api/admin/audit${query}`, { token })).body as unknown as AuditPage;
const setAdmin = (who: keyof typeof tokens, target: string, isAdmin: boolean) =>
  call(server.url, `/api/admin/users/${target}/flags`, { method: 'PATCH', token: as(who), body: { isAdmin } });

beforeAll(async () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const database = adminUrl ? await createTestDatabase(adminUrl) : null;
  dropDatabase = database?.drop ?? null;
  server = await startClockedServer(database ? { DATABASE_URL: database.url } : {});
  for (const who of ['admin', 'bob', 'carl', 'dana'] as const) {
    tokens[who] = await signInThroughOidc(server.url, { email: `${who}@admin.test`, password: `${who}-password-long` });
    ids[who] = subjectOf(tokens[who].access_token);
  }
});
afterAll(async () => {
  await server?.close();
  await dropDatabase?.();
});

describe('the last administrator', () => {
  it('is never removed, and the grid says so before anyone tries', async () => {
    expect((await row('admin@admin.test')).capabilities).toEqual({
      canMakeAdmin: false,
      canRemoveAdmin: false,
      canDisable: false,
      canEnable: false,
    });
    const refused = await setAdmin('admin', ids.admin, false);
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'LAST_ADMIN' } } });
    expect((await row('bob@admin.test')).capabilities).toMatchObject({ canMakeAdmin: true, canDisable: true });
    // A search counts its matches, also past its last page.
    const past = await call(server.url, '/api/admin/users?search=admin.test&page=2', { token: as('admin') });
    expect(past.body).toMatchObject({ total: 4, users: [] });
  });

  it('survives two demotions at once: exactly one of them happens', async () => {
    expect((await setAdmin('admin', ids.bob, true)).status).toBe(200);
    expect((await row('admin@admin.test')).capabilities.canRemoveAdmin).toBe(true);
    const before = (await audit()).total;
    const results = await Promise.all([setAdmin('admin', ids.bob, false), setAdmin('admin', ids.admin, false)]);
    // One of them happens. The other is refused as the last administrator's demotion (409) or, when
    // the administrator's own demotion went first, because its sender is no administrator any more (403).
    const [ofBob, ofSelf] = results.map((r) => r.status);
    if (ofBob === 200) expect(ofSelf).toBe(409);
    else expect([ofBob, ofSelf]).toEqual([ofBob === 403 ? 403 : 409, 200]);
    const admins = await server.context.database.db.execute(
      sql`select count(*)::int as n from users where is_admin and disabled_at is null`,
    );
    expect((admins as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    // Whoever is left reads the log (the first administrator may have lost the right to) and puts
    // the first administrator back for the rest of the file.
    const remaining = results[0].status === 200 ? 'admin' : 'bob';
    // The refused demotion wrote nothing: its audit row went with its transaction.
    expect((await audit('', as(remaining))).total).toBe(before + 1);
    if (remaining === 'bob') expect((await setAdmin('bob', ids.admin, true)).status).toBe(200);
    if ((await row('bob@admin.test')).isAdmin) expect((await setAdmin('admin', ids.bob, false)).status).toBe(200);
    expect((await row('admin@admin.test')).isAdmin).toBe(true);
  });

  it('a non-administrator reaches no admin endpoint', async () => {
    for (const path of ['/api/admin/users', `/api/admin/users/${ids.admin}`, '/api/admin/audit', '/api/admin/overview'])
      expect((await call(server.url, path, { token: as('dana') })).status).toBe(403);
    expect((await setAdmin('dana', ids.dana, true)).status).toBe(403);
  });
});

describe('the audit log', () => {
  it('records who did what to whom and when, with the state before and after', async () => {
    const granted = await call(server.url, `/api/admin/users/${ids.dana}/plans`, {
      method: 'POST',
      token: as('admin'),
      body: { sku: 'ESSENTIAL', endsAt: null },
    });
    expect(granted.status).toBe(201);
    await call(server.url, `/api/admin/users/${ids.dana}/plans/${String(granted.body.id)}`, {
      method: 'DELETE',
      token: as('admin'),
    });
    await call(server.url, `/api/admin/users/${ids.dana}/flags`, {
      method: 'PATCH',
      token: as('admin'),
      body: { canBroadcast: true },
    });
    const adjusted = await call(server.url, `/api/admin/users/${ids.dana}/credits`, {
      method: 'POST',
      token: as('admin'),
      body: { amount: 15, reason: 'Beta tester' },
    });
    expect(adjusted.status).toBe(201);
    const refused = await call(server.url, `/api/admin/users/${ids.dana}/credits`, {
      method: 'POST',
      token: as('admin'),
      body: { amount: -1000, reason: 'Too much' },
    });
    expect(refused.status).toBe(409);

    const log = await audit(`?target=${ids.dana}`);
    expect(log.entries.map((e) => e.action)).toEqual([
      'credits.adjusted',
      'flags.changed',
      'plan.revoked',
      'plan.granted',
    ]);
    const [credits, flags, revoked, grant] = log.entries;
    expect(credits).toMatchObject({
      actor: { id: ids.admin, label: 'admin@admin.test' },
      target: { id: ids.dana, label: 'dana@admin.test' },
      before: { balance: 20 },
      after: { balance: 35, amount: 15, reason: 'Beta tester' },
    });
    expect(flags).toMatchObject({ before: { canBroadcast: false }, after: { canBroadcast: true } });
    expect(revoked).toMatchObject({ before: { plans: ['Essential'] }, after: { plans: [], revoked: 'Essential' } });
    expect(grant).toMatchObject({ before: { plans: ['Free'] }, after: { plans: ['Essential'], granted: 'Essential' } });
    expect(Date.parse(grant!.at)).toBeLessThanOrEqual(Date.parse(credits!.at));
    // The revoked grant ended now and stays in the history.
    expect((await row('dana@admin.test')).plans).toMatchObject([{ sku: 'ESSENTIAL', active: false }]);

    // Filters: by the acting administrator's uid or e-mail, by the target's e-mail.
    expect((await audit(`?actor=admin@admin&target=dana`)).total).toBe(4);
    expect((await audit(`?actor=${ids.dana}`)).total).toBe(0);
    expect((await audit('?pageSize=25&page=2')).entries.length).toBe(0);
  });
});

describe('disabling an account', () => {
  it('ends every session at once: tokens, refresh tokens, grants and open sockets', async () => {
    const socket = await connectRealtime(server.url);
    await socket.auth(as('carl'));
    expect((await socket.subscribe(`user:${ids.carl}`)).type).toBe('subscribed');
    expect((await row('carl@admin.test')).capabilities.canDisable).toBe(true);

    const disabled = await call(server.url, `/api/admin/users/${ids.carl}/status`, {
      method: 'PUT',
      token: as('admin'),
      body: { disabled: true },
    });
    expect(disabled).toMatchObject({ status: 200, body: { disabled: true, capabilities: { canEnable: true } } });

    await waitFor(() => socket.closeCode() === 4403, { what: "carl's socket closed as disabled" });
    const me = await call(server.url, '/api/credits', { token: as('carl') });
    expect(me).toMatchObject({ status: 401, body: { error: { code: 'ACCOUNT_DISABLED' } } });
    await expect(refreshTokens(server.url, tokens.carl.refresh_token!)).rejects.toThrow(/refresh failed: 400/);
    const oidcRows = await server.context.database.db.execute(
      sql`select count(*)::int as n from oidc_models where payload->>'accountId' = ${ids.carl}`,
    );
    expect((oidcRows as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    await expect(
      signInThroughOidc(server.url, { email: 'carl@admin.test', password: 'carl-password-long' }, 'signin'),
    ).rejects.toThrow(MESSAGES.accountDisabled);
    // Administrators can't disable themselves.
    expect(
      await call(server.url, `/api/admin/users/${ids.admin}/status`, {
        method: 'PUT',
        token: as('admin'),
        body: { disabled: true },
      }),
    ).toMatchObject({ status: 409, body: { error: { code: 'NOT_YOURSELF' } } });

    const enabled = await call(server.url, `/api/admin/users/${ids.carl}/status`, {
      method: 'PUT',
      token: as('admin'),
      body: { disabled: false },
    });
    expect(enabled.body).toMatchObject({ disabled: false });
    tokens.carl = await signInThroughOidc(
      server.url,
      { email: 'carl@admin.test', password: 'carl-password-long' },
      'signin',
    );
    expect((await call(server.url, '/api/credits', { token: as('carl') })).status).toBe(200);
    expect((await audit(`?target=carl@admin`)).entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ['account.enabled', { disabled: true }, { disabled: false }],
      ['account.disabled', { disabled: false }, { disabled: true }],
    ]);
  });
});

describe('the server overview and a user in full', () => {
  it('shows version, drivers, queue, storage and accounts; and one user with private data and usage', async () => {
    const overview = (await call(server.url, '/api/admin/overview', { token: as('admin') }))
      .body as unknown as ServerOverview;
    expect(overview).toMatchObject({
      database: { driver: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' },
      storage: { driver: 'disk', usedBytes: 0 },
      users: { total: 4, admins: 1, disabled: 0 },
    });
    expect(overview.queue.failed).toBeGreaterThanOrEqual(0);
    const detail = await call(server.url, `/api/admin/users/${ids.dana}`, { token: as('admin') });
    expect(detail.body).toMatchObject({
      user: { email: 'dana@admin.test', canBroadcast: true },
      privateData: {
        storeAccount: null,
        liveRoom: null,
        liveStreamingRoom: null,
        userExtraInfo: { canBroadcast: true, isAdmin: false },
        liveTrial: null,
      },
      usage: { credits: { balance: 35 }, storage: { usedBytes: 0 } },
    });
  });
});

// Last: it moves the clock past every token's lifetime.
describe('a plan granted until a date', () => {
  it('lifts the limits until then, and ends on its own when the clock passes it', async () => {
    const endsAt = new Date(server.clock.now().getTime() + DAY_MS).toISOString();
    const granted = await call(server.url, `/api/admin/users/${ids.bob}/plans`, {
      method: 'POST',
      token: as('admin'),
      body: { sku: 'STUDIO', endsAt },
    });
    expect(granted.body).toMatchObject({ sku: 'STUDIO', endsAt, active: true });
    const credits = (await call(server.url, '/api/credits', { token: as('bob') })).body as unknown as CreditsResponse;
    expect(credits.perMonth).toBe(PLANS.STUDIO.limits.creditsPerMonth);
    const { entitlements, admin } = server.context.services;
    expect((await entitlements.limits(ids.bob)).storageMb).toBe(PLANS.STUDIO.limits.storageMb);
    expect((await entitlements.of(ids.bob)).skus).toEqual(['STUDIO']);

    const socket = await connectRealtime(server.url);
    await socket.auth(as('bob'));
    expect((await socket.subscribe(`user:${ids.bob}`)).type).toBe('subscribed');
    const { planEndings } = server.context.services;
    const updates = () => socket.events().filter((e) => e.type === 'user.updated').length;
    expect(await planEndings.announce()).toBe(0);

    server.clock.advance(DAY_MS + 60_000);
    expect((await entitlements.of(ids.bob)).skus).toEqual([]);
    // Bob's open screens are told once, by the scheduled job, that the plan has ended.
    expect(await planEndings.announce()).toBe(1);
    await waitFor(() => updates() === 1, { what: 'the plan end told to the open tab' });
    expect(await planEndings.announce()).toBe(0);
    socket.close();
    expect((await entitlements.limits(ids.bob)).storageMb).toBe(PLANS.FREE.limits.storageMb);
    const actor = { userId: ids.admin, isAdmin: true, email: 'admin@admin.test', displayName: 'admin' };
    const list = await admin.listUsers(actor, { search: 'bob@admin.test', page: 1, pageSize: 25 });
    expect(list.users[0]!.plans).toMatchObject([{ sku: 'STUDIO', active: false }]);
  });
});
