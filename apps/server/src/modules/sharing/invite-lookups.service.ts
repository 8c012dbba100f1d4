import { AppError } from '../../http/app-error';
import { limiterKey, type AttemptLimiter, type LimitRule } from '../../platform/security/attempt-limiter';

export const TOO_MANY_INVITE_LOOKUPS =
  'Too many invitation links that do not exist. Please wait a while and try again.';

/**
 * Wrong invitation codes per address: someone who opens their links rarely mistypes more than a
 * few, while guessing codes takes millions. After 20 misses in an hour the address is refused for a
 * minute, doubling with each further miss up to an hour. In the database, so every node counts.
 */
export const INVITE_LOOKUP_RULE: LimitRule = {
  name: 'invite:address',
  allowance: 20,
  windowMs: 3_600_000,
  baseBlockMs: 60_000,
  maxBlockMs: 3_600_000,
};

/** Counts the invitation lookups that find nothing, per address, and refuses a guessing address. */
export class InviteLookupsService {
  constructor(private readonly limiter: AttemptLimiter) {}

  /**
   * Runs a lookup by code for `address`: refused while the address is blocked; a miss (a 404, or
   * no answer) counts against it.
   */
  async lookup<T>(address: string, find: () => Promise<T>): Promise<T> {
    const key = limiterKey(INVITE_LOOKUP_RULE, address);
    await this.limiter.assertAllowed([key], TOO_MANY_INVITE_LOOKUPS);
    try {
      const found = await find();
      if (found === null) await this.limiter.recordFailure(INVITE_LOOKUP_RULE, key);
      return found;
    } catch (error) {
      if (error instanceof AppError && error.status === 404) await this.limiter.recordFailure(INVITE_LOOKUP_RULE, key);
      throw error;
    }
  }
}
