import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  annualPrice,
  creditPeriod,
  freeTrialWindow,
  isEarlyAccessValid,
  isTrialSubscription,
  mergePlans,
  PLAN_SKUS,
  PLANS,
  UNLIMITED,
  DAY_MS,
  type PlanLimits,
} from '@mixroom/shared';
import type { CreditsResponse, Me } from '@mixroom/contracts';
import { call } from './helpers/api';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startTestServer, type TestServer } from './helpers/test-server';
import { connectRealtime } from './helpers/ws-client';
import { waitFor } from './helpers/wait-for';

const NUMERIC: (keyof PlanLimits)[] = [
  'storageMb',
  'transferMaxBytes',
  'transfersPerMonth',
  'liveGuests',
  'liveMaxDurationMs',
  'creditsPerMonth',
];
const FLAGS: (keyof PlanLimits)[] = [
  'transferPassword',
  'transferReload',
  'liveRecording',
  'liveBroadcast',
  'liveCoHost',
];
const larger = (a: number, b: number) => (a === UNLIMITED || b === UNLIMITED ? UNLIMITED : Math.max(a, b));

describe('the merged-plan rule over the plan table', () => {
  const pairs = PLAN_SKUS.flatMap((a) => PLAN_SKUS.map((b) => [a, b] as const));
  it.each(pairs)('%s + %s: the larger of each limit (unlimited wins), flags OR-ed, never below Free', (a, b) => {
    const merged = mergePlans([a, b]);
    const [la, lb, free] = [PLANS[a].limits, PLANS[b].limits, PLANS.FREE.limits];
    for (const key of NUMERIC)
      expect(merged[key], key).toBe(larger(larger(la[key] as number, lb[key] as number), free[key] as number));
    for (const key of FLAGS) expect(merged[key], key).toBe(Boolean(la[key]) || Boolean(lb[key]));
    expect(merged.transferDurationDays).toEqual(
      [...new Set([...la.transferDurationDays, ...lb.transferDurationDays])].sort((x, y) => x - y),
    );
    expect(mergePlans([b, a])).toEqual(merged);
  });

  it('credits per month follow the plan table: Free 20, Essential 200, Studio 400, Live 20', () => {
    expect(PLAN_SKUS.map((sku) => [sku, PLANS[sku].limits.creditsPerMonth])).toEqual([
      ['FREE', 20],
      ['ESSENTIAL', 200],
      ['STUDIO', 400],
      ['LIVE_BASIC', 20],
      ['LIVE_PREMIUM', 20],
    ]);
  });

  it('annual prices save 30% on twelve months', () => {
    expect(annualPrice(1990)).toBe(16716);
    expect(PLANS.ESSENTIAL.annualPriceCents).toBe(16716);
    expect(PLANS.STUDIO.annualPriceCents).toBe(33516);
    expect(PLANS.LIVE_PREMIUM.annualPriceCents).toBe(6636);
    expect(PLANS.FREE.annualPriceCents).toBe(0);
  });

  it('a trial is a subscription longer than 30 days within its first 7 days; a dateless free trial gets 30 days', () => {
    const start = new Date('2026-03-01T00:00:00Z');
    const at = (days: number) => new Date(start.getTime() + days * DAY_MS);
    expect(isTrialSubscription({ startsAt: start, endsAt: at(90) }, at(6.9))).toBe(true);
    expect(isTrialSubscription({ startsAt: start, endsAt: at(90) }, at(7))).toBe(false);
    expect(isTrialSubscription({ startsAt: start, endsAt: at(30) }, at(1))).toBe(false);
    expect(isTrialSubscription({ startsAt: start, endsAt: at(31) }, at(1))).toBe(true);
    expect(isTrialSubscription({ startsAt: start, endsAt: null }, at(1))).toBe(false);
    expect(freeTrialWindow(start)).toEqual({ startsAt: start, endsAt: at(30) });
  });

  it('ALPHA and BETA are valid only before 2024-11-09 and 2024-05-09', () => {
    expect(isEarlyAccessValid('ALPHA', new Date('2024-11-08T23:59:59Z'))).toBe(true);
    expect(isEarlyAccessValid('ALPHA', new Date('2024-11-09T00:00:00Z'))).toBe(false);
    expect(isEarlyAccessValid('BETA', new Date('2024-05-08T23:59:59Z'))).toBe(true);
    expect(isEarlyAccessValid('BETA', new Date('2024-05-09T00:00:00Z'))).toBe(false);
    expect(creditPeriod(new Date('2026-12-31T23:59:59Z'))).toBe('2026-12');
  });
});

describe('entitlements of a signed-in user', () => {
  let server: TestServer;
  let admin: string;
  let ana: string;
  let anaId: string;
  const me = async (token: string) => (await call(server.url, '/api/me', { token })).body as unknown as Me;

  beforeAll(async () => {
    server = await startTestServer();
    admin = (await signInThroughOidc(server.url, { email: 'admin@entitlements.test', password: 'admin-password-long' }))
      .access_token;
    ana = (await signInThroughOidc(server.url, { email: 'ana@entitlements.test', password: 'ana-password-long' }))
      .access_token;
    anaId = (await me(ana)).id;
  });
  afterAll(() => server?.close());

  it('/api/me carries usage, credits and how plans are obtained', async () => {
    const { entitlements, limits } = await me(ana);
    expect(limits).toEqual(PLANS.FREE.limits);
    expect(entitlements).toMatchObject({
      trial: null,
      storage: { usedBytes: 0, limitBytes: 15_000_000_000, breakdown: [] },
      transfersThisMonth: 0,
      liveMinutesThisMonth: 0,
      credits: { balance: 20, perMonth: 20 },
      subscriptions: [],
      billing: { provider: 'admin', shopUrl: null },
    });
    expect(new Date(entitlements.credits.renewsAt).getUTCDate()).toBe(1);
  });

  it('an admin grant reaches the user live: plan, credits topped up, storage limit', async () => {
    const socket = await connectRealtime(server.url);
    await socket.auth(ana);
    expect(await socket.subscribe(`user:${anaId}`)).toMatchObject({ type: 'subscribed' });
    try {
      const grant = await call(server.url, `/api/admin/users/${anaId}/plans`, {
        method: 'POST',
        token: admin,
        body: { sku: 'STUDIO' },
      });
      expect(grant.status).toBe(201);
      await waitFor(() => socket.events().some((e) => e.type === 'user.updated'), {
        what: 'user.updated on the user topic',
      });
    } finally {
      socket.close();
    }
    const { entitlements, limits } = await me(ana);
    expect(limits.storageMb).toBe(5_000_000);
    expect(entitlements.storage.limitBytes).toBe(5_000_000_000_000);
    expect(entitlements.credits).toMatchObject({ balance: 400, perMonth: 400 });
    const credits = (await call(server.url, '/api/credits', { token: ana })).body as unknown as CreditsResponse;
    expect(credits.entries.map((e) => [e.kind, e.amount, e.reason])).toEqual([
      ['grant', 380, 'Monthly credits topped up to 400 (Studio)'],
      ['grant', 20, 'Monthly credits (Free)'],
    ]);
    expect(credits.hasMore).toBe(false);
    const page = (await call(server.url, `/api/credits?limit=1`, { token: ana })).body as unknown as CreditsResponse;
    expect(page.hasMore).toBe(true);
    const next = (await call(server.url, `/api/credits?limit=1&before=${page.entries[0]!.seq}`, { token: ana }))
      .body as unknown as CreditsResponse;
    expect(next.entries.map((e) => e.amount)).toEqual([20]);
  });

  it('an administrator adjusts credits with a reason; the user sees it in the ledger', async () => {
    const adjusted = await call(server.url, `/api/admin/users/${anaId}/credits`, {
      method: 'POST',
      token: admin,
      body: { amount: -100, reason: 'Moved to the team account' },
    });
    expect(adjusted.status).toBe(201);
    expect((await me(ana)).entitlements.credits.balance).toBe(300);
    const refused = await call(server.url, `/api/admin/users/${anaId}/credits`, {
      method: 'POST',
      token: admin,
      body: { amount: -301, reason: 'Too much' },
    });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: { message: "Credits can't go below zero: this user has 300 credits." } },
    });
    expect(
      (
        await call(server.url, `/api/admin/users/${anaId}/credits`, {
          method: 'POST',
          token: admin,
          body: { amount: 5, reason: ' ' },
        })
      ).status,
    ).toBe(400);
    const ledger = (await call(server.url, `/api/admin/users/${anaId}/credits`, { token: admin }))
      .body as unknown as CreditsResponse;
    expect(ledger.entries[0]).toMatchObject({ kind: 'adjustment', amount: -100, reason: 'Moved to the team account' });
  });
});
