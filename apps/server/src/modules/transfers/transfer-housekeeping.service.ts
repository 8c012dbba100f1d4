import { createHash } from 'node:crypto';
import { DAY_MS, TRANSFER_GRACE_DAYS } from '@mixroom/shared';
import { sendMailJob } from '../../platform/mail/mail.jobs';
import { reminderMail } from './transfer-mail';
import { transferChanged, type TransfersDeps } from './transfers.deps';
import { transferLink } from './transfers.presenter';
import type { TransfersService } from './transfers.service';

/** An upload nobody finished within a day is abandoned: its transfer is removed. */
export const ABANDONED_AFTER_MS = DAY_MS;
/**
 * A start through a file request that nothing moved for an hour is dropped sooner: a stranger's upload
 * holds its owner's storage (what arrived) only while it goes on.
 */
export const REQUEST_STALE_AFTER_MS = 3_600_000;
/** Reminders go out this long before expiry. */
export const REMINDER_BEFORE_MS = DAY_MS;

/** The transfer jobs' work: checksums after upload, reminders before expiry, purges after the grace period. */
export class TransferHousekeepingService {
  constructor(
    private readonly deps: TransfersDeps,
    private readonly transfers: TransfersService,
  ) {}

  /** Streams the file from the store through SHA-256 and keeps the hex digest. */
  async checksum(versionId: string): Promise<void> {
    const record = await this.deps.repository.fileByVersion(versionId);
    if (!record || record.file.sha256 || record.version.status === 'uploading') return;
    const hash = createHash('sha256');
    for await (const chunk of await this.deps.blobs.get(record.version.blobKey)) hash.update(chunk as Buffer);
    await this.deps.repository.setChecksum(versionId, hash.digest('hex'));
    const transfer = await this.deps.repository.find(record.file.transferId);
    if (transfer) await this.deps.bus.publishOrLog(transferChanged(transfer.publisherId, transfer.id, 'file'));
  }

  /**
   * Files of transfers expired more than the grace period ago leave the store (the tile stays, with
   * no reload); transfers whose upload was abandoned go entirely. Returns how many were handled.
   */
  async purge(): Promise<{ purged: number; abandoned: number }> {
    const now = this.deps.clock.now();
    let purged = 0;
    for (const transfer of await this.deps.repository.purgeable(
      new Date(now.getTime() - TRANSFER_GRACE_DAYS * DAY_MS),
    )) {
      await this.transfers.dropFiles(transfer);
      await this.deps.repository.update(transfer.id, { purgedAt: now });
      await this.deps.bus.publishOrLog(transferChanged(transfer.publisherId, transfer.id, 'updated'));
      purged++;
    }
    const abandoned = await this.deps.repository.abandoned(new Date(now.getTime() - ABANDONED_AFTER_MS));
    for (const transfer of abandoned) await this.transfers.erase(transfer);
    const stale = await this.deps.repository.staleRequestUploads(new Date(now.getTime() - REQUEST_STALE_AFTER_MS));
    for (const transfer of stale) await this.transfers.erase(transfer);
    return { purged, abandoned: abandoned.length + stale.length };
  }

  /** Once per transfer, a day before it expires: a reminder to each recipient who has not downloaded. */
  async remind(): Promise<number> {
    const now = this.deps.clock.now();
    let mails = 0;
    for (const transfer of await this.deps.repository.reminderDue(now, new Date(now.getTime() + REMINDER_BEFORE_MS))) {
      const [recipients, sender] = await Promise.all([
        this.deps.repository.recipients([transfer.id]).then((m) => m.get(transfer.id) ?? []),
        this.deps.userOf(transfer.publisherId),
      ]);
      const waiting = recipients.filter((r) => r.downloadCount === 0);
      await this.deps.unitOfWork(async (tx) => {
        await this.deps.repository.update(transfer.id, { reminderSentAt: now }, tx);
        for (const recipient of waiting)
          await this.deps.outbox.job(tx, sendMailJob, {
            to: recipient.email,
            ...reminderMail({
              ...transfer,
              sender: sender?.displayName ?? 'Someone',
              link: transferLink(this.deps.publicUrl, recipient.token),
            }),
          });
      });
      mails += waiting.length;
    }
    if (mails > 0) this.deps.outbox.kick();
    return mails;
  }
}
