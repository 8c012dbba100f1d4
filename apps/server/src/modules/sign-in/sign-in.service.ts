import { hash, verify } from '@node-rs/argon2';
import { createHash, randomBytes } from 'node:crypto';
import { LIMITS, MESSAGES } from '@mixroom/shared';
import type { SignInBody, SignUpBody } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { JobQueue } from '../../platform/jobs/job-queue';
import {
  limiterKey,
  SIGN_IN_RULES,
  TOO_MANY_SIGN_IN_ATTEMPTS,
  type AttemptLimiter,
  type LimitRule,
} from '../../platform/security/attempt-limiter';
import { assertAcceptablePassword } from '../../platform/security/common-passwords';
import type { UsersRepository, UserRow } from '../users';
import type { PasswordResetsRepository } from './password-resets.repository';
import { accountExistsMail } from './account-exists.mail';
import { sendMailJob } from '../../platform/mail/mail.jobs';
import { passwordResetMail } from './password-reset.mail';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A hash to verify against when the e-mail is unknown, so timing does not reveal accounts. */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$1oQ3YbXc4E6r6FkN0f1wCz0ydvH0mUq0S3B9mMZb7pY';
const RESETS_PER_HOUR = 3;
/** At most one "you already have an account" mail per account an hour, so the form can't spam it. */
const EXISTING_ACCOUNT_NOTICE: LimitRule = {
  name: 'signup:notice',
  allowance: 1,
  windowMs: 3_600_000,
  baseBlockMs: 0,
  maxBlockMs: 0,
};

/**
 * New accounts per address: a studio behind one router signs up a handful in an hour; a script
 * making accounts (or probing which addresses are free) is refused for 15 minutes, doubling up to
 * a day. Refused with the sign-in text, the same as a probe of an address that has an account.
 */
export const SIGN_UP_RULE: LimitRule = {
  name: 'signup:address',
  allowance: 20,
  windowMs: 3_600_000,
  baseBlockMs: 15 * 60_000,
  maxBlockMs: 24 * 3_600_000,
};

export const WRONG_CURRENT_PASSWORD = 'Your current password is not correct.';

export const SIGN_UP_CHECK_MAIL = 'We have sent a message to this e-mail address. Please open it to continue.';

/** A sign-up either signs someone in, or (for an address that has an account) says to check the mail. */
export type SignUpOutcome = { kind: 'signed-in'; user: UserRow } | { kind: 'check-mail'; message: string };

export interface SignInDeps {
  /** The users module's repository, where the accounts themselves are kept. */
  users: UsersRepository;
  resets: PasswordResetsRepository;
  jobs: JobQueue;
  publicUrl: string;
  limiter: AttemptLimiter;
  clock: Clock;
  /** Ends every session and refresh token of a user at the identity provider. */
  revokeGrants: (userId: string) => Promise<unknown>;
}

/**
 * Local accounts of the embedded identity provider: sign up, sign in, password reset. The accounts
 * themselves are the users module's; this is the door people sign in through.
 */
export class SignInService {
  constructor(private readonly deps: SignInDeps) {}

  /**
   * Never answers "this e-mail is taken": an address with an account gets a mail instead (unless the
   * password is that account's, which is simply a sign-in), and the attempt counts against the
   * sign-in limits so the form can't be used to test many addresses.
   */
  async signUp(input: SignUpBody, address: string): Promise<SignUpOutcome> {
    assertAcceptablePassword(input.password, { email: input.email, displayName: input.displayName });
    // Both limits apply to every sign-up, so a blocked address can't tell taken addresses from free ones.
    const keys = this.signInKeys(input.email, address);
    const newAccounts = limiterKey(SIGN_UP_RULE, address);
    await this.deps.limiter.assertAllowed([newAccounts, keys.accountAddress, keys.address], TOO_MANY_SIGN_IN_ATTEMPTS);
    const existing = await this.deps.users.findByEmail(input.email);
    if (existing) return this.signUpExisting(existing, input, address);
    const passwordHash = await hash(input.password);
    try {
      const user = await this.deps.users.create({
        email: input.email,
        displayName: input.displayName,
        passwordHash,
        provider: 'password',
      });
      await this.deps.limiter.recordFailure(SIGN_UP_RULE, newAccounts);
      return { kind: 'signed-in', user };
    } catch (error) {
      // Two sign-ups with one e-mail at once: the unique index decides, the loser is an existing account.
      if ((error as { cause?: { code?: string } }).cause?.code !== '23505') throw error;
      const winner = await this.deps.users.findByEmail(input.email);
      if (!winner) throw error;
      return this.signUpExisting(winner, input, address);
    }
  }

  private async signUpExisting(user: UserRow, input: SignUpBody, address: string): Promise<SignUpOutcome> {
    const keys = this.signInKeys(input.email, address);
    await this.deps.limiter.assertAllowed([keys.accountAddress, keys.address], TOO_MANY_SIGN_IN_ATTEMPTS);
    const usable = user.passwordHash && !user.deletionRequestedAt;
    if (usable && (await verify(user.passwordHash!, input.password).catch(() => false))) {
      await this.deps.limiter.reset(keys.accountAddress);
      assertEnabled(user);
      return { kind: 'signed-in', user };
    }
    await this.recordSignInFailure(keys);
    if (await this.deps.limiter.consume(EXISTING_ACCOUNT_NOTICE, limiterKey(EXISTING_ACCOUNT_NOTICE, user.id))) {
      await this.deps.jobs.send(sendMailJob, {
        to: user.email,
        ...accountExistsMail(user.displayName, `${this.deps.publicUrl}/public/sign-in`),
      });
    }
    return { kind: 'check-mail', message: SIGN_UP_CHECK_MAIL };
  }

  /** Refused for a while after repeated failures from one address, per account and overall. */
  async signIn(input: SignInBody, address: string): Promise<UserRow> {
    const keys = this.signInKeys(input.email, address);
    await this.deps.limiter.assertAllowed([keys.accountAddress, keys.address], TOO_MANY_SIGN_IN_ATTEMPTS);
    const user = await this.deps.users.findByEmail(input.email);
    const ok = await verify(user?.passwordHash ?? DUMMY_HASH, input.password).catch(() => false);
    // An account being deleted can't sign in again (it answers like an unknown one).
    if (!user || !user.passwordHash || !ok || user.deletionRequestedAt) {
      await this.recordSignInFailure(keys);
      throw new AppError(401, 'INVALID_CREDENTIALS', MESSAGES.invalidCredentials);
    }
    await this.deps.limiter.reset(keys.accountAddress);
    // Said only to someone who knows the password, so it tells nobody else the account exists.
    assertEnabled(user);
    return user;
  }

  /**
   * The signed-in user's password, asked again before a change to the account (the e-mail
   * address). Wrong answers count against the sign-in limits, so a session left open can't be
   * used to guess it.
   */
  async verifyCurrentPassword(userId: string, password: string, address: string): Promise<void> {
    const user = await this.deps.users.findById(userId);
    if (!user?.passwordHash) throw AppError.badRequest(WRONG_CURRENT_PASSWORD, 'WRONG_PASSWORD');
    const keys = this.signInKeys(user.email, address);
    await this.deps.limiter.assertAllowed([keys.accountAddress, keys.address], TOO_MANY_SIGN_IN_ATTEMPTS);
    if (await verify(user.passwordHash, password).catch(() => false)) return;
    await this.recordSignInFailure(keys);
    throw AppError.badRequest(WRONG_CURRENT_PASSWORD, 'WRONG_PASSWORD');
  }

  /** Always answers the same, whether or not the account exists. */
  async requestPasswordReset(email: string): Promise<void> {
    const user = await this.deps.users.findByEmail(email);
    if (!user || !user.passwordHash) return;
    const now = this.deps.clock.now().getTime();
    const ttlMs = LIMITS.passwordResetTtlMinutes * 60_000;
    const recent = await this.deps.resets.countIssuedAfter(user.id, new Date(now + ttlMs - 3_600_000));
    if (recent >= RESETS_PER_HOUR) return;
    const token = randomBytes(32).toString('base64url');
    await this.deps.resets.create(sha256(token), user.id, new Date(now + ttlMs));
    const link = `${this.deps.publicUrl}/public/reset-password?token=${encodeURIComponent(token)}`;
    await this.deps.jobs.send(sendMailJob, { to: user.email, ...passwordResetMail(user.displayName, link) });
  }

  /** A new password signs the account out everywhere: whoever knew the old one loses their sessions. */
  async confirmPasswordReset(token: string, password: string): Promise<void> {
    // Checked before the token is used, so the same link still works for a better password.
    const pending = await this.deps.resets.userOf(sha256(token));
    const owner = pending ? await this.deps.users.findById(pending) : null;
    assertAcceptablePassword(password, { email: owner?.email, displayName: owner?.displayName });
    const userId = await this.deps.resets.consume(sha256(token));
    if (!userId) throw new AppError(400, 'RESET_INVALID', MESSAGES.passwordResetInvalid);
    await this.deps.users.setPassword(userId, await hash(password));
    await this.revokeAllGrants(userId);
  }

  /**
   * Ends every session and refresh token of a user (password reset, an administrator disabling the
   * account). Access tokens already issued expire within their short lifetime.
   */
  async revokeAllGrants(userId: string): Promise<void> {
    await this.deps.revokeGrants(userId);
  }

  private signInKeys(email: string, address: string) {
    return {
      accountAddress: limiterKey(SIGN_IN_RULES.accountAddress, email.trim(), address),
      address: limiterKey(SIGN_IN_RULES.address, address),
    };
  }

  private async recordSignInFailure(keys: { accountAddress: string; address: string }): Promise<void> {
    await this.deps.limiter.recordFailure(SIGN_IN_RULES.accountAddress, keys.accountAddress);
    await this.deps.limiter.recordFailure(SIGN_IN_RULES.address, keys.address);
  }
}

/** A disabled account can't sign in, and says why in plain words. */
function assertEnabled(user: UserRow): void {
  if (user.disabledAt) throw new AppError(403, 'ACCOUNT_DISABLED', MESSAGES.accountDisabled);
}
