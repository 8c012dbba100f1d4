import type { Tx } from '../../db/database';
import type { Outbox } from '../../platform/jobs/outbox';
import { sendMailJob } from '../../platform/mail/mail.jobs';
import { sendPushJob } from '../push';
import { noticeMail } from './account.mails';
import { DEFAULT_PREFERENCES, type AccountRepository } from './account.repository';

export interface Notice {
  title: string;
  body: string;
  /** Where the notice leads, inside the app (e.g. /groups). */
  url: string;
}

/**
 * Tells users something on the channels each of them chose (e-mail, push, in-app), recorded in the
 * caller's transaction so it goes out only if the change it reports commits.
 */
export class Notifier {
  constructor(private readonly deps: { repository: AccountRepository; outbox: Outbox; publicUrl: string }) {}

  async notify(tx: Tx, userIds: string[], notice: Notice): Promise<void> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return;
    const chosen = await this.deps.repository.preferencesOf(ids, tx);
    const people = await this.deps.repository.contactsOf(ids, tx);
    for (const person of people) {
      const wants = chosen.get(person.id) ?? DEFAULT_PREFERENCES;
      if (wants.inApp) await this.deps.outbox.event(tx, { topic: `user:${person.id}`, type: 'notice', data: notice });
      if (wants.push) await this.deps.outbox.job(tx, sendPushJob, { userId: person.id, ...notice });
      if (wants.email)
        await this.deps.outbox.job(tx, sendMailJob, {
          to: person.email,
          notice: true,
          ...noticeMail(person.displayName, notice.title, notice.body, `${this.deps.publicUrl}${notice.url}`),
        });
    }
  }
}
