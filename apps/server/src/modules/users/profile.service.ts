import { createHash, randomBytes } from 'node:crypto';
import { LIMITS } from '@mixroom/shared';
import type { NotificationPreferences } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import type { BlobStore } from '../../platform/blob/blob-store';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { MediaTools } from '../../platform/media/ffmpeg';
import { ImageError, sniffImageType, squareJpeg } from '../../platform/media/image';
import type { EventBus } from '../../platform/realtime/event-bus';
import { limiterKey, type AttemptLimiter, type LimitRule } from '../../platform/security/attempt-limiter';
import { sendMailJob } from '../../platform/mail/mail.jobs';
import { confirmEmailMail, emailChangedMail } from './account.mails';
import type { AccountRepository } from './account.repository';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const PROFILE_MESSAGES = {
  pictureType: 'Please choose a PNG, JPEG or WebP picture.',
  pictureTooLarge: 'The picture is too large (at most 5 MB).',
  emailSame: 'This is already your e-mail address.',
  emailTaken: 'Another account already uses this e-mail address.',
  emailExternal: 'Your e-mail address is managed by your sign-in provider.',
  emailLinkInvalid: 'This confirmation link is invalid or has expired. Please ask for a new one in Settings.',
  emailSent: 'We have sent a confirmation link to your new address. Your e-mail changes once you open it.',
  emailChanged: 'Your e-mail address has been changed.',
} as const;

export interface ProfileDeps {
  repository: AccountRepository;
  blobs: BlobStore;
  clock: Clock;
  jobs: JobQueue;
  bus: EventBus;
  media: MediaTools;
  publicUrl: string;
  /** Whether accounts are local (the embedded provider): an external issuer owns the e-mail otherwise. */
  localAccounts: boolean;
  /** Signs a blob URL that browsers may cache (the same URL for a day). */
  signStable: (key: string) => Promise<string>;
  /** Throws unless `password` is the user's own (wrong answers count against the sign-in limits). */
  verifyPassword: (userId: string, password: string, address: string) => Promise<void>;
  limiter: AttemptLimiter;
}

/**
 * E-mail change requests per account: each sends a mail to an address the user typed, so a few an
 * hour (a typo, a second try), then an hour's wait, doubling up to a day.
 */
export const EMAIL_CHANGE_RULE: LimitRule = {
  name: 'email-change:user',
  allowance: 5,
  windowMs: 3_600_000,
  baseBlockMs: 3_600_000,
  maxBlockMs: 24 * 3_600_000,
};
export const TOO_MANY_EMAIL_CHANGES =
  'You have asked to change your e-mail address too many times. Please wait an hour and try again.';

/** The signed-in user's own profile: name, picture, e-mail address and notification channels. */
export class ProfileService {
  constructor(private readonly deps: ProfileDeps) {}

  async setDisplayName(actor: Actor, displayName: string): Promise<void> {
    await this.deps.repository.setDisplayName(actor.userId, displayName, this.deps.clock.now());
    await this.changed(actor.userId);
  }

  /**
   * Takes the picture the browser cropped, checks what it really is from its bytes, and stores a
   * 256×256 JPEG under a new id: the URL changes with the picture, so caches never show an old one.
   */
  async setPhoto(actor: Actor, base64: string): Promise<void> {
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.length > LIMITS.avatarMaxBytes)
      throw new AppError(413, 'PICTURE_TOO_LARGE', PROFILE_MESSAGES.pictureTooLarge);
    const type = sniffImageType(bytes);
    if (!type) throw AppError.badRequest(PROFILE_MESSAGES.pictureType, 'PICTURE_TYPE');
    let jpeg: Buffer;
    try {
      jpeg = await squareJpeg(this.deps.media, bytes, type, LIMITS.avatarSizePx);
    } catch (error) {
      if (error instanceof ImageError) throw AppError.badRequest(error.message, 'PICTURE_UNREADABLE');
      throw error;
    }
    const photoId = randomBytes(16).toString('base64url');
    const key = `avatars/${photoId}.jpg`;
    await this.deps.blobs.put(key, jpeg, 'image/jpeg');
    const replaced = await this.deps.repository.setPhoto(
      actor.userId,
      { key, url: `/api/avatars/${photoId}` },
      this.deps.clock.now(),
    );
    if (replaced) await this.deps.blobs.delete(replaced).catch(() => undefined);
    await this.changed(actor.userId);
  }

  async removePhoto(actor: Actor): Promise<void> {
    const replaced = await this.deps.repository.setPhoto(actor.userId, null, this.deps.clock.now());
    if (replaced) await this.deps.blobs.delete(replaced).catch(() => undefined);
    await this.changed(actor.userId);
  }

  /** Where a picture's bytes are: a signed URL, the same for a day so browsers keep the image. */
  async photoUrl(photoId: string): Promise<string> {
    const key = await this.deps.repository.photoKeyOf(photoId);
    if (!key) throw AppError.notFound('This picture does not exist.');
    return this.deps.signStable(key);
  }

  /**
   * Sends a link to the new address; the account keeps its address until the link is opened
   * (within a day, by the clock), so a typo can't lock anyone out. Asks for the current password
   * and is limited per account. An address another account has gets the same answer but no mail
   * (its link could never be used), so the form can't tell which addresses have accounts.
   */
  async requestEmailChange(
    actor: Actor,
    request: { email: string; currentPassword: string },
    address: string,
  ): Promise<{ message: string; pendingEmail: string }> {
    const { email } = request;
    if (!this.deps.localAccounts) throw AppError.badRequest(PROFILE_MESSAGES.emailExternal, 'EMAIL_EXTERNAL');
    const budget = limiterKey(EMAIL_CHANGE_RULE, actor.userId);
    await this.deps.limiter.assertAllowed([budget], TOO_MANY_EMAIL_CHANGES);
    await this.deps.verifyPassword(actor.userId, request.currentPassword, address);
    if (email.toLowerCase() === actor.email.toLowerCase())
      throw AppError.badRequest(PROFILE_MESSAGES.emailSame, 'EMAIL_SAME');
    await this.deps.limiter.recordFailure(EMAIL_CHANGE_RULE, budget);
    const taken = await this.deps.repository.emailTaken(email, actor.userId);
    const now = this.deps.clock.now();
    const token = randomBytes(32).toString('base64url');
    await this.deps.repository.createEmailChange({
      tokenHash: sha256(token),
      userId: actor.userId,
      newEmail: email,
      expiresAt: new Date(now.getTime() + LIMITS.emailChangeTtlMinutes * 60_000),
      now,
    });
    const link = `${this.deps.publicUrl}/public/confirm-email?token=${encodeURIComponent(token)}`;
    if (!taken) await this.deps.jobs.send(sendMailJob, { to: email, ...confirmEmailMail(actor.displayName, link) });
    await this.changed(actor.userId);
    return { message: PROFILE_MESSAGES.emailSent, pendingEmail: email };
  }

  /** The click in the mail: the address changes now, and the old address is told. */
  async confirmEmailChange(token: string): Promise<{ message: string; email: string }> {
    let changed: Awaited<ReturnType<AccountRepository['confirmEmailChange']>>;
    try {
      changed = await this.deps.repository.confirmEmailChange(sha256(token), this.deps.clock.now());
    } catch (error) {
      if ((error as { cause?: { code?: string } }).cause?.code === '23505')
        throw AppError.conflict(PROFILE_MESSAGES.emailTaken, 'EMAIL_TAKEN');
      throw error;
    }
    if (!changed) throw AppError.badRequest(PROFILE_MESSAGES.emailLinkInvalid, 'EMAIL_LINK_INVALID');
    await this.deps.jobs.send(sendMailJob, {
      to: changed.oldEmail,
      ...emailChangedMail(changed.displayName, changed.newEmail),
    });
    await this.changed(changed.userId);
    return { message: PROFILE_MESSAGES.emailChanged, email: changed.newEmail };
  }

  pendingEmail(userId: string): Promise<string | null> {
    return this.deps.repository.pendingEmail(userId, this.deps.clock.now());
  }

  preferences(actor: Actor): Promise<NotificationPreferences> {
    return this.deps.repository.preferences(actor.userId);
  }

  async setPreferences(actor: Actor, preferences: NotificationPreferences): Promise<NotificationPreferences> {
    await this.deps.repository.setPreferences(actor.userId, preferences, this.deps.clock.now());
    await this.changed(actor.userId);
    return preferences;
  }

  /** Other tabs of the user (and the admin grid) refresh what they show of the account. */
  private async changed(userId: string): Promise<void> {
    await this.deps.bus.publish({ topic: `user:${userId}`, type: 'user.updated', data: { userId } });
  }
}
