import { z } from 'zod';
import { AppError } from '../../http/app-error';
import type { BlobStore } from '../../platform/blob/blob-store';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { JobType } from '../../platform/jobs/job-definition';
import type { Outbox } from '../../platform/jobs/outbox';
import type { FaultPoints } from '../../platform/faults/fault-points';
import { sendMailJob } from '../accounts/mail.jobs';
import type { ErasureEffects, UserDataContribution } from '../user-data';
import { accountDeletedMail } from './account.mails';
import type { AccountRepository } from './account.repository';
import type { Notifier } from './notifier';

export const accountErasureJob = {
  name: 'account.erase',
  schema: z.object({ userId: z.uuid() }),
  retryLimit: 10,
  expireInSeconds: 3600,
} satisfies JobType;

export const DELETION_MESSAGES = {
  emailMismatch: 'The e-mail address you typed is not the one of your account.',
  subscriptionActive:
    'You have an active paid subscription. Cancel it in your subscription management (or wait until it ends) before deleting your account.',
  started: 'Your account is being deleted. You have been signed out.',
} as const;

/** A job gave up on an erasure (or its node died): after this long the hourly sweep queues it again. */
const RESUME_AFTER_MS = 3_600_000;

export interface AccountDeletionDeps {
  repository: AccountRepository;
  blobs: BlobStore;
  clock: Clock;
  outbox: Outbox;
  faults: FaultPoints;
  notifier: Notifier;
  hasRunningPaidSubscription: (userId: string) => Promise<boolean>;
  /** Ends every session and refresh token of the account at the identity provider. */
  revokeSessions: (userId: string) => Promise<unknown>;
  /** Closes the account's open sockets' topics at once. */
  signOutSockets: (userId: string) => Promise<void>;
  /** Ends the open uploads of the account and into its items (their parts are not blobs yet). */
  abortUploads: (userId: string, prefixes: string[]) => Promise<unknown>;
  contributions: () => UserDataContribution[];
}

/**
 * Deleting an account: the request marks it (every later request and socket of it is refused) and
 * records the erasure job in the same transaction; the job removes blobs, then every module's rows
 * and finally the user, and may run again from the start after a crash at any point.
 */
export class AccountDeletionService {
  constructor(private readonly deps: AccountDeletionDeps) {}

  async request(actor: Actor, typedEmail: string): Promise<{ message: string }> {
    if (typedEmail.trim().toLowerCase() !== actor.email.toLowerCase())
      throw AppError.badRequest(DELETION_MESSAGES.emailMismatch, 'EMAIL_MISMATCH');
    if (await this.deps.hasRunningPaidSubscription(actor.userId))
      throw AppError.conflict(DELETION_MESSAGES.subscriptionActive, 'SUBSCRIPTION_ACTIVE');
    await this.deps.repository.transaction(async (tx) => {
      if (!(await this.deps.repository.markForDeletion(tx, actor.userId, this.deps.clock.now()))) return;
      await this.deps.outbox.job(tx, accountErasureJob, { userId: actor.userId });
    });
    await this.deps.revokeSessions(actor.userId);
    await this.deps.signOutSockets(actor.userId);
    void this.deps.outbox.flush().catch(() => undefined);
    return { message: DELETION_MESSAGES.started };
  }

  async erase(userId: string): Promise<void> {
    const user = await this.deps.repository.userForErasure(userId);
    if (!user) return; // already erased (a second run after the last step) or never asked for
    await this.deps.revokeSessions(userId);
    const contributions = this.deps.contributions();
    const prefixes: string[] = [];
    for (const contribution of contributions) prefixes.push(...((await contribution.blobPrefixes?.(userId)) ?? []));
    await this.deps.abortUploads(userId, prefixes);
    for (const prefix of prefixes) await this.deps.blobs.deletePrefix(prefix);
    if (user.photoKey) await this.deps.blobs.delete(user.photoKey).catch(() => undefined);
    this.deps.faults.crashIf('account.erase.after-blobs');
    await this.deps.repository.transaction(async (tx) => {
      const effects: ErasureEffects = {
        user,
        notify: (userIds, message) =>
          this.deps.notifier.notify(
            tx,
            userIds.filter((id) => id !== userId),
            message,
          ),
      };
      for (const contribution of contributions) await contribution.erase?.(userId, tx, effects);
      await this.deps.repository.deleteUser(tx, userId);
      await this.deps.outbox.job(tx, sendMailJob, { to: user.email, ...accountDeletedMail(user.displayName) });
    });
    // A job that was still writing a derived file (a preview) may have added one since the first pass.
    for (const prefix of prefixes) await this.deps.blobs.deletePrefix(prefix);
    void this.deps.outbox.flush().catch(() => undefined);
  }

  /**
   * Queues again the erasures asked for more than `olderThanMs` ago that have not finished (a job that
   * gave up, or whose node died). Erasure runs again from the start, so a second run is harmless.
   */
  async resumeUnfinished(olderThanMs = RESUME_AFTER_MS): Promise<number> {
    const stuck = await this.deps.repository.unfinishedDeletions(
      new Date(this.deps.clock.now().getTime() - olderThanMs),
    );
    for (const userId of stuck)
      await this.deps.repository.transaction((tx) => this.deps.outbox.job(tx, accountErasureJob, { userId }));
    return stuck.length;
  }
}
