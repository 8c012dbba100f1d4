import { createHash } from 'node:crypto';
import type { Clock } from '../clock/clock';
import { DomainError } from '../errors/domain-error';
import type { AttemptLimitsRepository } from './attempt-limits.repository';

export const TOO_MANY_SIGN_IN_ATTEMPTS = 'Too many sign-in attempts. Please wait a few minutes and try again.';

/** How many failures a key may have in its window, and how long it is refused after that. */
export interface LimitRule {
  name: string;
  allowance: number;
  windowMs: number;
  /** The first refusal lasts this long; each further failure after a refusal doubles it. */
  baseBlockMs: number;
  maxBlockMs: number;
}

const MINUTE = 60_000;

/**
 * Sign-in limits. The tight one is per account *and* address, so an attacker guessing one account
 * cannot lock its owner out from the owner's own address; the looser one is per address, so one
 * address cannot walk through many accounts.
 */
export const SIGN_IN_RULES = {
  accountAddress: {
    name: 'signin:account-address',
    allowance: 5,
    windowMs: 60 * MINUTE,
    baseBlockMs: 30_000,
    maxBlockMs: 15 * MINUTE,
  },
  address: {
    name: 'signin:address',
    allowance: 30,
    windowMs: 60 * MINUTE,
    baseBlockMs: MINUTE,
    maxBlockMs: 60 * MINUTE,
  },
} satisfies Record<string, LimitRule>;

export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'RATE_LIMITED', message);
  }
}

/** Block length after `failures`: nothing within the allowance, then doubling up to the cap. */
export function blockMsFor(rule: LimitRule, failures: number): number {
  if (failures < rule.allowance) return 0;
  return Math.min(rule.maxBlockMs, rule.baseBlockMs * 2 ** Math.min(failures - rule.allowance, 20));
}

export const limiterKey = (rule: LimitRule, ...parts: string[]) =>
  `${rule.name}:${createHash('sha256').update(parts.join('\n').toLowerCase()).digest('base64url').slice(0, 32)}`;

/** Counts failures per key in the database and refuses attempts while a key is blocked. */
export class AttemptLimiter {
  constructor(
    private readonly repository: AttemptLimitsRepository,
    private readonly clock: Clock,
  ) {}

  /** Throws RateLimitedError when any of the keys is refused now. */
  async assertAllowed(keys: string[], message: string): Promise<void> {
    const now = this.clock.now().getTime();
    const rows = await this.repository.find(keys);
    const until = Math.max(0, ...rows.map((r) => r.blockedUntil?.getTime() ?? 0));
    if (until > now) throw new RateLimitedError(message, Math.ceil((until - now) / 1000));
  }

  async recordFailure(rule: LimitRule, key: string): Promise<void> {
    const now = this.clock.now();
    const failures = await this.repository.recordFailure(key, now, new Date(now.getTime() - rule.windowMs));
    const blockMs = blockMsFor(rule, failures);
    if (blockMs > 0) await this.repository.block(key, new Date(now.getTime() + blockMs));
  }

  /** Counts one use of a budget (e.g. notice mails); false once the window's allowance is spent. */
  async consume(rule: LimitRule, key: string): Promise<boolean> {
    const now = this.clock.now();
    const uses = await this.repository.recordFailure(key, now, new Date(now.getTime() - rule.windowMs));
    return uses <= rule.allowance;
  }

  async reset(key: string): Promise<void> {
    await this.repository.clear(key);
  }
}
