// The plan table and the merged-plan rule. Where two readings of a limit exist we take the more
// generous one: Free transfers up to 15 GB, Essential live rooms of 30 guests.
// Storage is in MB (1 MB = 1,000,000 bytes). -1 means unlimited.

export const UNLIMITED = -1;
export const DAY_MS = 86_400_000;

/** Transfer durations the product offers, in days. */
export const TRANSFER_DURATION_DAYS = [3, 7, 15, 30, 90, 180, 360] as const;
const FREE_DURATIONS = [3, 7, 15, 30];

export const PLAN_SKUS = ['FREE', 'ESSENTIAL', 'STUDIO', 'LIVE_BASIC', 'LIVE_PREMIUM'] as const;
export type PlanSku = (typeof PLAN_SKUS)[number];

export interface PlanLimits {
  /** Storage quota in MB (×1,000,000 bytes). */
  storageMb: number;
  /** Largest transfer in bytes; -1 unlimited. */
  transferMaxBytes: number;
  /** Transfers per calendar month; -1 unlimited. */
  transfersPerMonth: number;
  /** Expiry choices in days that the plan unlocks. */
  transferDurationDays: number[];
  transferPassword: boolean;
  transferReload: boolean;
  /** Guests in one live room. */
  liveGuests: number;
  /** Longest live session in ms; -1 unlimited. */
  liveMaxDurationMs: number;
  liveRecording: boolean;
  liveBroadcast: boolean;
  /** Bi-directional audio: a guest may be promoted to co-host. */
  liveCoHost: boolean;
  creditsPerMonth: number;
}

export interface Plan {
  sku: PlanSku;
  name: string;
  /** Monthly price in euro cents; annual subscriptions save 30 %. */
  priceCents: number;
  /** Price of a year paid at once, in euro cents: twelve months less the annual saving. */
  annualPriceCents: number;
  description: string;
  /** Plan-card lines; a line starting with '$' is a highlighted heading, the others get a check mark. */
  features: string[];
  limits: PlanLimits;
}

const GB = 1_000_000_000;
const MINUTE = 60_000;

const freeLimits: PlanLimits = {
  storageMb: 15_000,
  transferMaxBytes: 15 * GB,
  transfersPerMonth: 15,
  transferDurationDays: FREE_DURATIONS,
  transferPassword: false,
  transferReload: false,
  liveGuests: 5,
  liveMaxDurationMs: 30 * MINUTE,
  liveRecording: false,
  liveBroadcast: false,
  liveCoHost: false,
  creditsPerMonth: 20,
};

const paidTransfers = {
  transferMaxBytes: UNLIMITED,
  transfersPerMonth: UNLIMITED,
  transferDurationDays: [...TRANSFER_DURATION_DAYS],
  transferPassword: true,
  transferReload: true,
} satisfies Partial<PlanLimits>;

const liveLimits: PlanLimits = {
  ...freeLimits,
  transferMaxBytes: 5 * GB,
  liveGuests: 150,
  liveMaxDurationMs: UNLIMITED,
  liveRecording: true,
  liveBroadcast: true,
  liveCoHost: true,
};

/** Annual subscriptions save 30 % on twelve monthly payments. */
export const ANNUAL_SAVING = 0.3;

/** Twelve months of `monthlyCents` less the annual saving, rounded to the cent. */
export function annualPrice(monthlyCents: number): number {
  return Math.round(monthlyCents * 12 * (1 - ANNUAL_SAVING));
}

const liveFeatures = [
  '$Live only',
  '150 guests, unlimited sessions',
  'Recording and broadcast',
  'Bi-directional audio (co-host)',
  '$Storage',
  '15 GB storage',
  '$Transfers',
  'Up to 5 GB per transfer, 15 per month',
  '$AI tools',
  '20 credits per month',
];

export const PLANS: Record<PlanSku, Plan> = {
  FREE: {
    sku: 'FREE',
    name: 'Free',
    priceCents: 0,
    description: 'Everything you need to start collaborating.',
    annualPriceCents: 0,
    features: [
      '$Storage',
      '15 GB storage',
      '$Transfers',
      'Up to 15 GB per transfer, 15 per month',
      'Expiry choices of 3, 7, 15 or 30 days',
      '$Live',
      '5 guests, 30 min per session',
      '$AI tools',
      '20 credits per month',
    ],
    limits: freeLimits,
  },
  ESSENTIAL: {
    sku: 'ESSENTIAL',
    name: 'Essential',
    priceCents: 1990,
    description: 'For working engineers and producers.',
    annualPriceCents: annualPrice(1990),
    features: [
      '$Storage',
      '1 TB storage',
      '$Transfers',
      'Unlimited transfers, up to 1 year expiry',
      'Password protection',
      'Expired transfer reload',
      '$Live',
      '30 guests, unlimited sessions',
      '$AI tools',
      '200 credits per month',
    ],
    limits: {
      ...freeLimits,
      ...paidTransfers,
      storageMb: 1_000_000,
      liveGuests: 30,
      liveMaxDurationMs: UNLIMITED,
      creditsPerMonth: 200,
    },
  },
  STUDIO: {
    sku: 'STUDIO',
    name: 'Studio',
    priceCents: 3990,
    description: 'For studios and teams.',
    annualPriceCents: annualPrice(3990),
    features: [
      '$Storage',
      '5 TB storage',
      '$Transfers',
      'Unlimited transfers, up to 1 year expiry',
      'Password protection',
      'Expired transfer reload',
      '$Live',
      '150 guests, unlimited sessions',
      'Recording and broadcast',
      'Bi-directional audio (co-host)',
      '$AI tools',
      '400 credits per month',
    ],
    limits: {
      ...liveLimits,
      ...paidTransfers,
      storageMb: 5_000_000,
      creditsPerMonth: 400,
    },
  },
  LIVE_BASIC: {
    sku: 'LIVE_BASIC',
    name: 'Live Basic',
    priceCents: 790,
    description: 'Live streaming only.',
    annualPriceCents: annualPrice(790),
    features: liveFeatures,
    limits: liveLimits,
  },
  LIVE_PREMIUM: {
    sku: 'LIVE_PREMIUM',
    name: 'Live Premium',
    priceCents: 790,
    description: 'Live streaming only, with broadcast.',
    annualPriceCents: annualPrice(790),
    features: liveFeatures,
    limits: liveLimits,
  },
};

const DEFAULT_LIVE_DURATION_MS = 30 * MINUTE;

/** The larger of two numeric limits where -1 means unlimited. */
function maxLimit(a: number, b: number): number {
  if (a === UNLIMITED || b === UNLIMITED) return UNLIMITED;
  return Math.max(a, b);
}

/**
 * The merged-plan rule: a user holding several plans gets the maximum of each limit
 * (-1 = unlimited wins), flags OR-ed, the union of allowed durations. Free is always part of the
 * merge, so a user's limits never drop below Free. A live length of 0 counts as unset and falls
 * back to 30 minutes.
 */
export function mergePlans(skus: readonly PlanSku[]): PlanLimits {
  const merged = skus
    .map((sku) => PLANS[sku].limits)
    .reduce<PlanLimits>(
      (acc, next) => ({
        storageMb: maxLimit(acc.storageMb, next.storageMb),
        transferMaxBytes: maxLimit(acc.transferMaxBytes, next.transferMaxBytes),
        transfersPerMonth: maxLimit(acc.transfersPerMonth, next.transfersPerMonth),
        transferDurationDays: [...new Set([...acc.transferDurationDays, ...next.transferDurationDays])].sort(
          (x, y) => x - y,
        ),
        transferPassword: acc.transferPassword || next.transferPassword,
        transferReload: acc.transferReload || next.transferReload,
        liveGuests: maxLimit(acc.liveGuests, next.liveGuests),
        liveMaxDurationMs: maxLimit(acc.liveMaxDurationMs, next.liveMaxDurationMs),
        liveRecording: acc.liveRecording || next.liveRecording,
        liveBroadcast: acc.liveBroadcast || next.liveBroadcast,
        liveCoHost: acc.liveCoHost || next.liveCoHost,
        creditsPerMonth: Math.max(acc.creditsPerMonth, next.creditsPerMonth),
      }),
      { ...PLANS.FREE.limits },
    );
  if (merged.liveMaxDurationMs === 0) merged.liveMaxDurationMs = DEFAULT_LIVE_DURATION_MS;
  return merged;
}

/** Bytes of storage a user may use, from the merged limit in MB. */
export function storageLimitBytes(limits: PlanLimits): number {
  return limits.storageMb === UNLIMITED ? Number.POSITIVE_INFINITY : limits.storageMb * 1_000_000;
}

/** Whether a plan grant is in force at `now` (an open end means no expiry). */
export function isGrantActive(
  grant: { startsAt: Date | string; endsAt: Date | string | null },
  now = new Date(),
): boolean {
  const starts = new Date(grant.startsAt).getTime();
  const ends = grant.endsAt === null ? Number.POSITIVE_INFINITY : new Date(grant.endsAt).getTime();
  return starts <= now.getTime() && now.getTime() < ends;
}

/** A free trial of a paid plan that comes without dates lasts this long from the moment it starts. */
export const TRIAL_DAYS = 30;
/** A subscription longer than this many days... */
const TRIAL_MIN_LENGTH_DAYS = 30;
/** ...counts as a trial during its first days. */
const TRIAL_FIRST_DAYS = 7;

/** Whether a subscription counts as a trial at `now`: longer than 30 days and within its first 7 days. */
export function isTrialSubscription(period: { startsAt: Date; endsAt: Date | null }, now: Date): boolean {
  if (!period.endsAt) return false;
  const length = period.endsAt.getTime() - period.startsAt.getTime();
  const age = now.getTime() - period.startsAt.getTime();
  return length > TRIAL_MIN_LENGTH_DAYS * DAY_MS && age >= 0 && age < TRIAL_FIRST_DAYS * DAY_MS;
}

/** The window of a free trial that arrived without dates: 30 days from now. */
export function freeTrialWindow(now: Date): { startsAt: Date; endsAt: Date } {
  return { startsAt: now, endsAt: new Date(now.getTime() + TRIAL_DAYS * DAY_MS) };
}

/**
 * Early-access skus a shop may still send: each grants a plan, and only before its expiry date
 * (the moment the date begins, UTC). After it, an event naming the sku grants nothing.
 */
export const EARLY_ACCESS_SKUS = {
  ALPHA: { grants: 'STUDIO', validUntil: '2024-11-09T00:00:00.000Z' },
  BETA: { grants: 'STUDIO', validUntil: '2024-05-09T00:00:00.000Z' },
} as const satisfies Record<string, { grants: PlanSku; validUntil: string }>;
export type EarlyAccessSku = keyof typeof EARLY_ACCESS_SKUS;

export function isEarlyAccessSku(sku: string): sku is EarlyAccessSku {
  return Object.hasOwn(EARLY_ACCESS_SKUS, sku);
}

/** Whether an early-access sku still grants its plan at `now`. */
export function isEarlyAccessValid(sku: EarlyAccessSku, now: Date): boolean {
  return now.getTime() < new Date(EARLY_ACCESS_SKUS[sku].validUntil).getTime();
}

/** The calendar month (UTC) that monthly credits are given for, as `YYYY-MM`. */
export function creditPeriod(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** AI credits one task costs. */
export const CREDITS_PER_TASK = 5;
