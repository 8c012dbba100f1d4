import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '@mixroom/shared';
import { eq } from 'drizzle-orm';
import { billingEvents, billingSubscriptions, planGrants, users } from '../src/db/schema';
import { signatureHeader } from '../src/modules/billing/webhook-signature';
import { startClockedServer } from './helpers/clocked-server';
import type { TestServer } from './helpers/test-server';
import type { TestClock } from '../src/platform/clock/clock';

/**
 * The shop provider: events signed like Stripe's (`t=…,v1=…` over `${t}.${body}`), refused outside a
 * five-minute window or with another secret, applied once per event id, mapped onto plan grants.
 */
const SECRET = 'whsec_test_0123456789abcdef';
let server: TestServer & { clock: TestClock };
let eventNumber = 0;

const now = () => server.clock.now();
const unix = (at: Date = now()) => Math.floor(at.getTime() / 1000);

async function send(
  body: unknown,
  options: { secret?: string; timestamp?: number; header?: string | null; token?: string } = {},
) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const header =
    options.header === undefined
      ? signatureHeader(options.secret ?? SECRET, options.timestamp ?? unix(), raw)
      : options.header;
  const response = await fetch(`${server.url}/api/billing/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(header ? { 'mixroom-signature': header } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: raw,
  });
  return {
    status: response.status,
    body: (await response.json()) as { outcome?: string; error?: { message: string } },
  };
}

const event = (type: string, data: Record<string, unknown>, id = `evt_${++eventNumber}`) => ({ id, type, data });

async function newUser(email: string): Promise<string> {
  const [row] = await server.context.database.db
    .insert(users)
    .values({ email, displayName: email.split('@')[0]! })
    .returning();
  return row!.id;
}
const entitlementsOf = (userId: string) => server.context.services.entitlements.of(userId);
async function subscription(externalId: string) {
  const [row] = await server.context.database.db
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.externalId, externalId));
  return row!;
}
async function grantsOf(userId: string) {
  return server.context.database.db.select().from(planGrants).where(eq(planGrants.userId, userId));
}

beforeAll(async () => {
  server = await startClockedServer({
    BILLING_WEBHOOK_SECRET: SECRET,
    BILLING_SHOP_URL: 'https://shop.example.com/mixroom',
  });
});
afterAll(() => server?.close());

describe('signatures', () => {
  it('accepts a valid signature without any session, and tells the settings screen where the shop is', async () => {
    const userId = await newUser('valid@billing.test');
    const answer = await send(event('subscription.created', { subscriptionId: 'sub_valid', userId, sku: 'ESSENTIAL' }));
    expect(answer).toEqual({ status: 200, body: { received: true, outcome: 'created' } });
    expect((await entitlementsOf(userId)).skus).toEqual(['ESSENTIAL']);
    expect((await server.context.services.entitlements.summary(userId)).billing).toEqual({
      provider: 'shop',
      shopUrl: 'https://shop.example.com/mixroom',
    });
  });

  it('refuses a body signed with another secret, a missing or malformed signature, and a body changed after signing', async () => {
    const userId = await newUser('wrong@billing.test');
    const body = event('subscription.created', { subscriptionId: 'sub_wrong', userId, sku: 'STUDIO' });
    const wrong = await send(body, { secret: 'whsec_not_the_right_one_0000' });
    expect(wrong).toMatchObject({ status: 401, body: { error: { message: 'The signature does not match.' } } });
    expect(await send(body, { header: null })).toMatchObject({
      status: 401,
      body: { error: { message: 'The request is not signed.' } },
    });
    expect(await send(body, { header: 'v1=abc' })).toMatchObject({
      status: 401,
      body: { error: { message: 'The signature header is malformed.' } },
    });
    const signed = signatureHeader(SECRET, unix(), JSON.stringify(body));
    const tampered = await send({ ...body, data: { ...body.data, sku: 'LIVE_PREMIUM' } }, { header: signed });
    expect(tampered.status).toBe(401);
    expect((await entitlementsOf(userId)).skus).toEqual([]);
    // The event id was not used up by the refused attempts.
    expect((await send(body)).body.outcome).toBe('created');
  });

  it('a session is no substitute for a signature', async () => {
    const body = event('subscription.created', {
      subscriptionId: 'sub_session',
      email: 'valid@billing.test',
      sku: 'STUDIO',
    });
    expect((await send(body, { header: null, token: 'not-a-signature' })).status).toBe(401);
  });

  it('refuses timestamps outside the 5-minute window, either way', async () => {
    const userId = await newUser('window@billing.test');
    const body = event('subscription.created', { subscriptionId: 'sub_window', userId, sku: 'STUDIO' });
    const message = 'The signature timestamp is outside the 5-minute window.';
    expect(await send(body, { timestamp: unix() - 301 })).toMatchObject({ status: 401, body: { error: { message } } });
    expect(await send(body, { timestamp: unix() + 301 })).toMatchObject({ status: 401, body: { error: { message } } });
    expect((await send(body, { timestamp: unix() - 299 })).status).toBe(200);
  });

  it('a replayed request (same event, same signature, within the window) changes nothing', async () => {
    const userId = await newUser('replay@billing.test');
    const body = JSON.stringify(event('subscription.created', { subscriptionId: 'sub_replay', userId, sku: 'STUDIO' }));
    const header = signatureHeader(SECRET, unix(), body);
    expect((await send(body, { header })).body.outcome).toBe('created');
    server.clock.advance(60_000);
    expect(await send(body, { header })).toEqual({ status: 200, body: { received: true, outcome: 'duplicate' } });
    expect(await grantsOf(userId)).toHaveLength(1);
    // Past the window the same request is refused outright.
    server.clock.advance(5 * 60_000);
    expect((await send(body, { header })).status).toBe(401);
  });

  it('a different event reusing an applied event id is not applied', async () => {
    const userId = await newUser('duplicate@billing.test');
    expect(
      (await send(event('subscription.created', { subscriptionId: 'sub_dup', userId, sku: 'STUDIO' }, 'evt_dup'))).body
        .outcome,
    ).toBe('created');
    const again = await send(
      event('subscription.expired', { subscriptionId: 'sub_dup', userId, sku: 'STUDIO' }, 'evt_dup'),
    );
    expect(again.body.outcome).toBe('duplicate');
    expect((await entitlementsOf(userId)).skus).toEqual(['STUDIO']);
    const [recorded] = await server.context.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, 'evt_dup'));
    expect(recorded).toMatchObject({ type: 'subscription.created', outcome: 'created' });
  });

  it('refuses a signed event with NUL in a string or an impossible date with a 400, and applies nothing', async () => {
    const userId = await newUser('hostile@billing.test');
    const data = { subscriptionId: 'sub_hostile', userId, sku: 'STUDIO' };
    const refused = [
      event('subscription.created', data, 'evt_\u0000nul'),
      event('subscription.created', { ...data, subscriptionId: 'sub\u0000' }),
      event('subscription.created', { ...data, sku: 'STUDIO\uD800' }),
      event('subscription.created', { ...data, endsAt: 'not-a-date' }),
      event('subscription.created', { ...data, endsAt: '+275760-09-13T00:00:00Z' }),
      event('subscription.created', { ...data, startsAt: '1900-01-01T00:00:00Z' }),
    ];
    for (const hostile of refused) {
      const answer = await send(hostile);
      expect(answer.status, JSON.stringify(hostile)).toBe(400);
      expect(answer.body.error?.message).toMatch(/^The event is not one Mixroom understands: /);
    }
    expect(await grantsOf(userId)).toEqual([]);
  });
});

describe('mapping events onto plan grants', () => {
  it('created (monthly, by e-mail) → renewed → cancelled (kept until the period ends) → expired', async () => {
    const userId = await newUser('Life.Cycle@billing.test');
    const start = now();
    const created = await send(
      event('subscription.created', {
        subscriptionId: 'sub_life',
        email: 'life.cycle@billing.test',
        sku: 'STUDIO',
        manageUrl: 'https://shop.example.com/account',
      }),
    );
    expect(created.body.outcome).toBe('created');
    const first = await subscription('sub_life');
    expect(first).toMatchObject({
      userId,
      sku: 'STUDIO',
      interval: 'month',
      status: 'active',
      trial: false,
      manageUrl: 'https://shop.example.com/account',
    });
    const month = new Date(start);
    month.setUTCMonth(month.getUTCMonth() + 1);
    expect(first.endsAt?.toISOString()).toBe(month.toISOString());
    expect((await entitlementsOf(userId)).limits.storageMb).toBe(5_000_000);

    expect(
      (await send(event('subscription.renewed', { subscriptionId: 'sub_life', sku: 'STUDIO' }))).body.outcome,
    ).toBe('renewed');
    const renewed = await subscription('sub_life');
    const twoMonths = new Date(month);
    twoMonths.setUTCMonth(twoMonths.getUTCMonth() + 1);
    expect(renewed.endsAt?.toISOString()).toBe(twoMonths.toISOString());
    const [grant] = await grantsOf(userId);
    expect(grant!.endsAt?.toISOString()).toBe(twoMonths.toISOString());
    expect(renewed.grantId).toBe(grant!.id);

    expect(
      (await send(event('subscription.cancelled', { subscriptionId: 'sub_life', sku: 'STUDIO' }))).body.outcome,
    ).toBe('cancelled');
    expect((await subscription('sub_life')).status).toBe('cancelled');
    expect((await entitlementsOf(userId)).skus).toEqual(['STUDIO']);
    expect(await server.context.services.entitlements.hasRunningPaidSubscription(userId)).toBe(false);

    expect(
      (await send(event('subscription.expired', { subscriptionId: 'sub_life', sku: 'STUDIO' }))).body.outcome,
    ).toBe('expired');
    expect((await subscription('sub_life')).status).toBe('expired');
    expect((await entitlementsOf(userId)).skus).toEqual([]);
    expect((await entitlementsOf(userId)).limits.storageMb).toBe(15_000);
  });

  it('an annual subscription runs a year; while it renews, it counts as paid', async () => {
    const userId = await newUser('annual@billing.test');
    await send(
      event('subscription.created', {
        subscriptionId: 'sub_annual',
        userId,
        sku: 'ESSENTIAL',
        interval: 'year',
        startsAt: '2026-01-10T00:00:00.000Z',
      }),
    );
    const row = await subscription('sub_annual');
    expect(row.endsAt?.toISOString()).toBe('2027-01-10T00:00:00.000Z');
    expect(await server.context.services.entitlements.hasRunningPaidSubscription(userId)).toBe(true);
  });

  it('a free trial without dates gets 30 days from now', async () => {
    const userId = await newUser('trial@billing.test');
    await send(event('subscription.created', { subscriptionId: 'sub_trial', userId, sku: 'STUDIO', trial: true }));
    const row = await subscription('sub_trial');
    expect(row.startsAt.toISOString()).toBe(now().toISOString());
    expect(row.endsAt!.getTime() - row.startsAt.getTime()).toBe(30 * DAY_MS);
    const entitlement = await entitlementsOf(userId);
    expect(entitlement.trial).toMatchObject({ sku: 'STUDIO' });
    expect(await server.context.services.entitlements.hasRunningPaidSubscription(userId)).toBe(false);
  });

  it('a subscription longer than 30 days is a trial within its first 7 days only', async () => {
    const userId = await newUser('long@billing.test');
    const start = now();
    await send(
      event('subscription.created', {
        subscriptionId: 'sub_long',
        userId,
        sku: 'LIVE_PREMIUM',
        startsAt: start.toISOString(),
        endsAt: new Date(start.getTime() + 90 * DAY_MS).toISOString(),
      }),
    );
    expect((await entitlementsOf(userId)).trial).toMatchObject({ sku: 'LIVE_PREMIUM' });
    server.clock.advance(7 * DAY_MS);
    expect((await entitlementsOf(userId)).trial).toBeNull();
    expect((await entitlementsOf(userId)).skus).toEqual(['LIVE_PREMIUM']);
    // A month-long subscription is never a trial.
    const monthly = await newUser('monthly@billing.test');
    await send(
      event('subscription.created', {
        subscriptionId: 'sub_monthly',
        userId: monthly,
        sku: 'LIVE_PREMIUM',
        startsAt: now().toISOString(),
        endsAt: new Date(now().getTime() + 30 * DAY_MS).toISOString(),
      }),
    );
    expect((await entitlementsOf(monthly)).trial).toBeNull();
  });

  it('ALPHA and BETA grant Studio only before their expiry dates, and never past them', async () => {
    const userId = await newUser('alpha@billing.test');
    server.clock.set(new Date('2024-05-01T12:00:00Z'));
    expect(
      (
        await send(
          event('subscription.created', { subscriptionId: 'sub_alpha', userId, sku: 'ALPHA', interval: 'year' }),
        )
      ).body.outcome,
    ).toBe('created');
    const alpha = await subscription('sub_alpha');
    expect(alpha).toMatchObject({ shopSku: 'ALPHA', sku: 'STUDIO' });
    expect(alpha.endsAt?.toISOString()).toBe('2024-11-09T00:00:00.000Z');
    expect((await entitlementsOf(userId)).skus).toEqual(['STUDIO']);

    server.clock.set(new Date('2024-05-09T00:00:00Z'));
    const beta = await send(event('subscription.created', { subscriptionId: 'sub_beta', userId, sku: 'BETA' }));
    expect(beta.body.outcome).toBe('ignored: BETA was valid until 2024-05-09');

    server.clock.set(new Date('2024-11-09T00:00:00Z'));
    expect((await entitlementsOf(userId)).skus).toEqual([]);
    expect(
      (await send(event('subscription.created', { subscriptionId: 'sub_alpha_late', userId, sku: 'ALPHA' }))).body
        .outcome,
    ).toBe('ignored: ALPHA was valid until 2024-11-09');
    server.clock.set(new Date());
  });

  it('ignores (and records) events it can not map: unknown user, unknown sku, the free plan', async () => {
    expect(
      (
        await send(
          event('subscription.created', { subscriptionId: 'sub_nobody', email: 'nobody@billing.test', sku: 'STUDIO' }),
        )
      ).body.outcome,
    ).toBe('ignored: no such user');
    const userId = await newUser('sku@billing.test');
    expect(
      (await send(event('subscription.created', { subscriptionId: 'sub_sku', userId, sku: 'PLATINUM' }))).body.outcome,
    ).toBe('ignored: unknown sku PLATINUM');
    expect(
      (await send(event('subscription.created', { subscriptionId: 'sub_free', userId, sku: 'FREE' }))).body.outcome,
    ).toBe('ignored: unknown sku FREE');
    expect(
      (await send(event('subscription.cancelled', { subscriptionId: 'sub_unknown', userId, sku: 'STUDIO' }))).body
        .outcome,
    ).toBe('ignored: no such subscription');
    expect(await send('{not json')).toMatchObject({
      status: 400,
      body: { error: { message: 'The event is not valid JSON.' } },
    });
  });
});
