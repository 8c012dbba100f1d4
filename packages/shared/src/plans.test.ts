import { describe, expect, it } from 'vitest';
import { PLANS, UNLIMITED, isGrantActive, mergePlans, storageLimitBytes } from './plans';

describe('the plan table', () => {
  it('names every plan apart, as the product lists them (the two Live plans too)', () => {
    expect(Object.values(PLANS).map((plan) => plan.name)).toEqual([
      'Free',
      'Essential',
      'Studio',
      'Live Basic',
      'Live Premium',
    ]);
  });
});

describe('mergePlans', () => {
  it('gives Free limits to a user without plans', () => {
    expect(mergePlans([])).toEqual(PLANS.FREE.limits);
  });

  it('takes the maximum of each numeric limit', () => {
    const merged = mergePlans(['ESSENTIAL', 'LIVE_BASIC']);
    expect(merged.storageMb).toBe(1_000_000);
    expect(merged.liveGuests).toBe(150);
    expect(merged.creditsPerMonth).toBe(200);
  });

  it('lets unlimited (-1) win over any finite value', () => {
    const merged = mergePlans(['LIVE_BASIC', 'ESSENTIAL']);
    expect(merged.transferMaxBytes).toBe(UNLIMITED);
    expect(merged.transfersPerMonth).toBe(UNLIMITED);
    expect(merged.liveMaxDurationMs).toBe(UNLIMITED);
  });

  it('ORs the feature flags', () => {
    const essential = mergePlans(['ESSENTIAL']);
    expect(essential.liveRecording).toBe(false);
    expect(essential.transferPassword).toBe(true);
    const both = mergePlans(['ESSENTIAL', 'LIVE_PREMIUM']);
    expect(both.liveRecording).toBe(true);
    expect(both.liveCoHost).toBe(true);
    expect(both.transferPassword).toBe(true);
  });

  it('unions the allowed transfer durations', () => {
    expect(mergePlans([]).transferDurationDays).toEqual([3, 7, 15, 30]);
    expect(mergePlans(['STUDIO']).transferDurationDays).toEqual([3, 7, 15, 30, 90, 180, 360]);
  });

  it('is independent of order and of duplicates', () => {
    expect(mergePlans(['STUDIO', 'ESSENTIAL'])).toEqual(mergePlans(['ESSENTIAL', 'STUDIO', 'ESSENTIAL']));
  });

  it('keeps the 30-minute free live length when nothing lifts it', () => {
    expect(mergePlans(['FREE']).liveMaxDurationMs).toBe(30 * 60_000);
  });
});

describe('storage and grants', () => {
  it('converts MB with the spec unit of 1,000,000 bytes', () => {
    expect(storageLimitBytes(PLANS.FREE.limits)).toBe(15_000_000_000);
  });

  it('treats an open end as active and a past end as expired', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(isGrantActive({ startsAt: '2026-01-01T00:00:00Z', endsAt: null }, now)).toBe(true);
    expect(isGrantActive({ startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-05-31T23:59:59Z' }, now)).toBe(false);
    expect(isGrantActive({ startsAt: '2026-07-01T00:00:00Z', endsAt: null }, now)).toBe(false);
  });
});
