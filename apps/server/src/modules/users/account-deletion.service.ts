import { z } from 'zod';
import { AppError } from '../../http/app-error';
import type { BlobStore } from '../../platform/blob/blob-store';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { JobType } from '../../platform/jobs/job-definition';
import type { Outbox } from '../../platform/jobs/outbox';
import type { FaultPoints } from '../../platform/faults/fault-points';
import { sendMailJob } from '../../platform/mail/mail.jobs';
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
  planGranted: (plans: string) =>
    `An administrator gave you the ${plans} plan. It ends with your account and cannot be given back to a deleted account. Delete your account anyway?`,
  started:
    'Your account has been deleted and you have been signed out. We are removing your files and will confirm by e-mail.',
} as const;

/** A plan an administrator gave the user, running now. */
export interface GrantedPlan {
  name: string;
  endsAt: Date | null;
}

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
  /** Paid plans given by an administrator that run now (the user has nothing to cancel). */
  grantedPlans: (userId: string) => Promise<GrantedPlan[]>;
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

  /**
   * A paid subscription blocks deletion (the user must cancel it with the shop, or it would go on
   * charging). A plan an administrator gave costs the user nothing and they can't end it themselves,
   * so it does not block: the first request is answered 409 PLAN_GRANTED with what would be lost,
   * and deletion goes ahead once the user confirms that again (`endGrantedPlans`).
   */
  async request(
    actor: Actor,
    confirmation: { email: string; endGrantedPlans?: boolean | undefined },
  ): Promise<{ message: string }> {
    if (confirmation.email.trim().toLowerCase() !== actor.email.toLowerCase())
      throw AppError.badRequest(DELETION_MESSAGES.emailMismatch, 'EMAIL_MISMATCH');
    if (await this.deps.hasRunningPaidSubscription(actor.userId))
      throw AppError.conflict(DELETION_MESSAGES.subscriptionActive, 'SUBSCRIPTION_ACTIVE');
    const granted = await this.deps.grantedPlans(actor.userId);
    if (granted.length > 0 && !confirmation.endGrantedPlans) {
      const names = [...new Set(granted.map((g) => g.name))].join(' and ');
      throw AppError.conflict(DELETION_MESSAGES.planGranted(names), 'PLAN_GRANTED');
    }
    await this.deps.repository.transaction(async (tx) => {
      const now = this.deps.clock.now();
      if (!(await this.deps.repository.markForDeletion(tx, actor.userId, now))) return;
      await this.deps.repository.recordDeletionAudit(tx, actor.userId, now, {
        note: 'Deleted by its owner',
        ...(granted.length ? { endedGrantedPlans: granted.map((g) => g.name) } : {}),
      });
      await this.deps.outbox.job(tx, accountErasureJob, { userId: actor.userId });
    });
    await this.deps.revokeSessions(actor.userId);
    await this.deps.signOutSockets(actor.userId);
    this.deps.outbox.kick();
    return { message: DELETION_MESSAGES.started };
  }

  async erase(userId: string): Promise<void> {
    const user = await this.deps.repository.userForErasure(userId);
    if (!user) return; // already erased (a second run after the last step) or never asked for
    await this.deps.revokeSessions(userId);
    const contributions = this.deps.contributions();
    for (const contribution of contributions) await contribution.release?.(userId);
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
      await this.deps.repository.pseudonymizeAudit(tx, userId);
      await this.deps.repository.deleteUser(tx, userId);
      await this.deps.outbox.job(tx, sendMailJob, { to: user.email, ...accountDeletedMail(user.displayName) });
    });
    // A job that was still writing a derived file (a preview) may have added one since the first pass.
    for (const prefix of prefixes) await this.deps.blobs.deletePrefix(prefix);
    this.deps.outbox.kick();
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
