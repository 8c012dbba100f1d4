import { hash, verify } from '@node-rs/argon2';
import { createHash, randomBytes } from 'node:crypto';
import { LIMITS, MESSAGES } from '@mixroom/shared';
import type { SignInBody, SignUpBody } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { UsersRepository, UserRow } from '../users/users.repository';
import type { PasswordResetsRepository } from './password-resets.repository';
import { sendMailJob } from './mail.jobs';
import { passwordResetMail } from './password-reset.mail';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A hash to verify against when the e-mail is unknown, so timing does not reveal accounts. */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$1oQ3YbXc4E6r6FkN0f1wCz0ydvH0mUq0S3B9mMZb7pY';
const RESETS_PER_HOUR = 3;

/** Local accounts of the embedded identity provider: sign up, sign in, password reset. */
export class AccountsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly resets: PasswordResetsRepository,
    private readonly jobs: JobQueue,
    private readonly publicUrl: string,
  ) {}

  async signUp(input: SignUpBody): Promise<UserRow> {
    if (await this.users.findByEmail(input.email)) throw AppError.conflict(MESSAGES.emailTaken, 'EMAIL_TAKEN');
    const passwordHash = await hash(input.password);
    try {
      return await this.users.create({ email: input.email, displayName: input.displayName, passwordHash, provider: 'password' });
    } catch (error) {
      // Two sign-ups with one e-mail at once: the unique index decides, the loser gets the same answer.
      if ((error as { cause?: { code?: string } }).cause?.code === '23505') throw AppError.conflict(MESSAGES.emailTaken, 'EMAIL_TAKEN');
      throw error;
    }
  }

  async signIn(input: SignInBody): Promise<UserRow> {
    const user = await this.users.findByEmail(input.email);
    const ok = await verify(user?.passwordHash ?? DUMMY_HASH, input.password).catch(() => false);
    if (!user || !user.passwordHash || !ok) throw new AppError(401, 'INVALID_CREDENTIALS', MESSAGES.invalidCredentials);
    return user;
  }

  /** Always answers the same, whether or not the account exists. */
  async requestPasswordReset(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user || !user.passwordHash) return;
    const ttlMs = LIMITS.passwordResetTtlMinutes * 60_000;
    const recent = await this.resets.countIssuedAfter(user.id, new Date(Date.now() + ttlMs - 3_600_000));
    if (recent >= RESETS_PER_HOUR) return;
    const token = randomBytes(32).toString('base64url');
    await this.resets.create(sha256(token), user.id, new Date(Date.now() + ttlMs));
    const link = `${this.publicUrl}/public/reset-password?token=${encodeURIComponent(token)}`;
    await this.jobs.send(sendMailJob, { to: user.email, ...passwordResetMail(user.displayName, link) });
  }

  async confirmPasswordReset(token: string, password: string): Promise<void> {
    const userId = await this.resets.consume(sha256(token));
    if (!userId) throw new AppError(400, 'RESET_INVALID', MESSAGES.passwordResetInvalid);
    await this.users.setPassword(userId, await hash(password));
  }
}
