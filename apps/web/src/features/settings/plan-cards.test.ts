import { describe, expect, it } from 'vitest';
import type { Me } from '@mixroom/contracts';
import { PLANS } from '@mixroom/shared';
import { planCards, priceOf } from './plan-cards';

const grant = (sku: Me['plans'][number]['sku'], active = true, endsAt: string | null = null) => ({
  id: sku,
  sku,
  startsAt: '2026-01-01T00:00:00.000Z',
  endsAt,
  active,
});

function me(
  plans: Me['plans'],
  billing: Me['entitlements']['billing'] = { provider: 'admin', shopUrl: null },
  subscriptions: Me['entitlements']['subscriptions'] = [],
): Me {
  return {
    plans,
    entitlements: {
      billing,
      subscriptions,
      trial: null,
      storage: { usedBytes: 0, limitBytes: 1, breakdown: [] },
      transfersThisMonth: 0,
      liveMinutesThisMonth: 0,
      credits: { balance: 0, perMonth: 20, renewsAt: '' },
    },
  } as unknown as Me;
}

describe('plan cards', () => {
  it('shows Free active (buttons disabled) until a paid plan is held; nothing to buy on an administrator-run server', () => {
    const cards = planCards(me([]), 'month');
    expect(cards.map((c) => [c.plan.sku, c.active, c.buy, c.manage])).toEqual([
      ['FREE', true, null, null],
      ['ESSENTIAL', false, null, null],
      ['STUDIO', false, null, null],
      ['LIVE_PREMIUM', false, null, null],
    ]);
    const studio = planCards(
      me([grant('STUDIO', true, '2027-01-01T00:00:00.000Z'), grant('ESSENTIAL', false)]),
      'month',
    );
    expect(studio.map((c) => [c.plan.sku, c.active, c.activeUntil])).toEqual([
      ['FREE', false, null],
      ['ESSENTIAL', false, null],
      ['STUDIO', true, '2027-01-01T00:00:00.000Z'],
      ['LIVE_PREMIUM', false, null],
    ]);
  });

  it('shows Live Basic in place of Premium only when Basic is active without Premium', () => {
    expect(planCards(me([grant('LIVE_BASIC')]), 'month')[3]).toMatchObject({
      plan: { sku: 'LIVE_BASIC' },
      active: true,
    });
    expect(planCards(me([grant('LIVE_BASIC'), grant('LIVE_PREMIUM')]), 'month')[3]).toMatchObject({
      plan: { sku: 'LIVE_PREMIUM' },
      active: true,
    });
    expect(planCards(me([grant('LIVE_BASIC', false)]), 'month')[3]!.plan.sku).toBe('LIVE_PREMIUM');
  });

  it('with a shop: Buy links carry the sku and interval, Manage leads to the subscription', () => {
    const shop = { provider: 'shop' as const, shopUrl: 'https://shop.example.com/mixroom' };
    const subscription = {
      id: 'x',
      sku: 'STUDIO' as const,
      shopSku: 'STUDIO',
      interval: 'year' as const,
      status: 'active' as const,
      trial: false,
      startsAt: '',
      endsAt: null,
      manageUrl: 'https://shop.example.com/account',
    };
    const cards = planCards(me([grant('STUDIO')], shop, [subscription]), 'year');
    expect(cards[1]!.buy).toBe('https://shop.example.com/mixroom?sku=ESSENTIAL&interval=year');
    expect(cards[2]!.manage).toBe('https://shop.example.com/account');
    expect(cards[0]!.buy).toBeNull();
  });

  it('prices per month, or per year with the annual saving', () => {
    expect(priceOf(PLANS.STUDIO, 'month')).toEqual({ amount: '€39.90', per: '/ month' });
    expect(priceOf(PLANS.STUDIO, 'year')).toEqual({ amount: '€335.16', per: '/ year' });
    expect(priceOf(PLANS.FREE, 'year')).toEqual({ amount: '€0', per: 'free forever' });
  });
});
