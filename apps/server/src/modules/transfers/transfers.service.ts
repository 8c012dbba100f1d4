import type { TransferDetail, TransferSummary, TransferUploadTicket, Version } from '@mixroom/contracts';
import { DAY_MS, TRANSFER_MESSAGES } from '@mixroom/shared';
import { transferUnavailable } from '../../access/transfer.policy';
import { AppError } from '../../http/app-error';
import type { Actor } from '../../platform/identity/actor';
import { TransferCreationService, type TransferForm } from './transfer-creation.service';
import { transferChanged, type TransfersDeps } from './transfers.deps';
import { expiryBounds, presentDetail, presentSummary, purgeAt, transferStatus } from './transfers.presenter';
import { hashTransferPassword } from './transfer-password';
import type { TransferRow } from './transfers.repository';
import { projectBlobPrefix } from '../../platform/blob/blob-keys';

const dateOnly = (date: Date) => date.toISOString().slice(0, 10);

/** The owner's side of transfers: create and upload, history, edit, reload, delete, download log. */
export class TransfersService {
  readonly creation: TransferCreationService;

  constructor(private readonly deps: TransfersDeps) {
    this.creation = new TransferCreationService(deps, (transfer) => this.detail(transfer));
  }

  async detail(transfer: TransferRow): Promise<TransferDetail> {
    const [recipients, folders, files, limits] = await Promise.all([
      this.deps.repository.recipients([transfer.id]),
      this.deps.repository.folders(transfer.groupId),
      this.deps.repository.files(transfer.id),
      this.deps.limitsFor(transfer.publisherId),
    ]);
    return presentDetail(transfer, recipients.get(transfer.id) ?? [], folders, files, {
      now: this.deps.clock.now(),
      publicUrl: this.deps.publicUrl,
      limits,
    });
  }

  create(actor: Actor, form: TransferForm): Promise<TransferDetail> {
    return this.creation.create({ ownerId: actor.userId }, form);
  }

  async list(actor: Actor, q: string | undefined): Promise<{ items: TransferSummary[] }> {
    const rows = await this.deps.repository.listSent(actor.userId, q);
    const [recipients, limits, failures] = await Promise.all([
      this.deps.repository.recipients(rows.map((r) => r.id)),
      this.deps.limitsFor(actor.userId),
      this.deps.repository.failures(rows.filter((r) => r.flag === 'FAILED').map((r) => r.id)),
    ]);
    const context = { now: this.deps.clock.now(), publicUrl: this.deps.publicUrl, limits };
    return {
      items: rows.map((row) =>
        presentSummary(row, recipients.get(row.id) ?? [], { ...context, failure: failures.get(row.id) ?? null }),
      ),
    };
  }

  async get(actor: Actor, id: string): Promise<TransferDetail> {
    return this.detail(await this.deps.policy.owned(actor, id));
  }

  async uploadTicket(actor: Actor, id: string, fileId: string): Promise<TransferUploadTicket> {
    const transfer = await this.deps.policy.owned(actor, id);
    return this.creation.uploadTicket(actor.userId, transfer, fileId);
  }

  async completeFile(actor: Actor, id: string, fileId: string): Promise<Version> {
    const transfer = await this.deps.policy.owned(actor, id);
    return this.creation.completeFile(actor.displayName, actor.userId, transfer, fileId);
  }

  async cancelFile(actor: Actor, id: string, fileId: string): Promise<void> {
    const transfer = await this.deps.policy.owned(actor, id);
    await this.creation.cancelFile(actor.displayName, actor.userId, transfer, fileId);
  }

  async complete(actor: Actor, id: string): Promise<TransferDetail> {
    const transfer = await this.deps.policy.owned(actor, id);
    const missing = await this.creation.sendWhenComplete(actor.displayName, transfer.id);
    if (missing > 0)
      throw AppError.conflict(`${missing} file(s) of this transfer are still uploading.`, 'TRANSFER_INCOMPLETE');
    return this.get(actor, id);
  }

  /**
   * Moves the expiry within its bounds, sets or removes the password (grants handed out before stop
   * working). A date outside the bounds is refused as it is, never moved to the nearest bound: the
   * owner sees what was kept. One in the past is refused with its own text.
   */
  async update(
    actor: Actor,
    id: string,
    body: { expiresAt?: string; password?: string | null },
  ): Promise<TransferDetail> {
    const transfer = await this.deps.policy.owned(actor, id);
    const now = this.deps.clock.now();
    if (transferStatus(transfer, now) !== 'available') throw transferUnavailable();
    const limits = await this.deps.limitsFor(actor.userId);
    const changes: Partial<TransferRow> = { updatedAt: now };
    if (body.expiresAt !== undefined) {
      const expiresAt = new Date(body.expiresAt);
      if (expiresAt.getTime() <= now.getTime())
        throw AppError.badRequest(TRANSFER_MESSAGES.expiryPast, 'TRANSFER_EXPIRY_PAST');
      const bounds = expiryBounds(transfer, limits, now);
      if (Number.isNaN(expiresAt.getTime()) || expiresAt < bounds.min || expiresAt > bounds.max)
        throw AppError.badRequest(
          TRANSFER_MESSAGES.expiryOutOfRange(dateOnly(bounds.min), dateOnly(bounds.max)),
          'TRANSFER_EXPIRY_OUT_OF_RANGE',
        );
      changes.expiresAt = expiresAt;
      // A new expiry earns a new reminder.
      changes.reminderSentAt = null;
    }
    if (body.password !== undefined) {
      if (body.password !== null && !limits.transferPassword)
        throw new AppError(403, 'TRANSFER_PASSWORD_PLAN', TRANSFER_MESSAGES.passwordLocked);
      changes.passwordHash = body.password === null ? null : await hashTransferPassword(body.password);
      changes.accessEpoch = transfer.accessEpoch + 1;
    }
    const updated = await this.deps.repository.update(transfer.id, changes);
    await this.deps.bus.publishOrLog(transferChanged(actor.userId, transfer.id, 'updated'));
    return this.detail(updated);
  }

  /**
   * Ends a live transfer now: its link, grants and files stop answering for every recipient. The
   * owner confirms this in the web app; moving the expiry never does it.
   */
  async expireNow(actor: Actor, id: string): Promise<TransferDetail> {
    const transfer = await this.deps.policy.owned(actor, id);
    const now = this.deps.clock.now();
    if (transferStatus(transfer, now) !== 'available') throw transferUnavailable();
    const updated = await this.deps.repository.update(transfer.id, { expiresAt: now, updatedAt: now });
    await this.deps.bus.publishOrLog(transferChanged(actor.userId, transfer.id, 'updated'));
    return this.detail(updated);
  }

  /** An expired transfer made available again, on plans with reload, while its files are still kept. */
  async reload(actor: Actor, id: string, durationDays: number): Promise<TransferDetail> {
    const transfer = await this.deps.policy.owned(actor, id);
    const now = this.deps.clock.now();
    if (transferStatus(transfer, now) !== 'expired')
      throw AppError.conflict('Only an expired transfer can be reloaded.', 'TRANSFER_NOT_EXPIRED');
    const limits = await this.deps.limitsFor(actor.userId);
    if (!limits.transferReload) throw new AppError(403, 'TRANSFER_RELOAD_PLAN', TRANSFER_MESSAGES.reloadLocked);
    if (transfer.purgedAt || now >= purgeAt(transfer))
      throw AppError.conflict(TRANSFER_MESSAGES.reloadTooLate, 'TRANSFER_PURGED');
    if (!limits.transferDurationDays.includes(durationDays))
      throw new AppError(403, 'TRANSFER_DURATION_PLAN', TRANSFER_MESSAGES.durationLocked);
    const updated = await this.deps.repository.update(transfer.id, {
      sentAt: now,
      expiresAt: new Date(now.getTime() + durationDays * DAY_MS),
      durationDays,
      reminderSentAt: null,
      updatedAt: now,
    });
    await this.deps.bus.publishOrLog(transferChanged(actor.userId, transfer.id, 'updated'));
    return this.detail(updated);
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const transfer = await this.deps.policy.owned(actor, id);
    await this.erase(transfer);
    await this.deps.bus.publishOrLog(transferChanged(actor.userId, transfer.id, 'deleted'));
  }

  /**
   * Removes a transfer's uploads, blobs and rows. Flagged first, so the link stops answering at once
   * and a crash part-way leaves a row the purge finishes.
   */
  async erase(transfer: TransferRow): Promise<void> {
    await this.deps.repository.update(transfer.id, { flag: 'DELETE', updatedAt: this.deps.clock.now() });
    await this.dropFiles(transfer);
    // Its links keep answering 410 "no longer available", as an expired transfer's do.
    await this.deps.links.retire(transfer.id, this.deps.clock.now());
    await this.deps.repository.delete(transfer);
  }

  /** Aborts open uploads and deletes every blob of the transfer's files. */
  async dropFiles(transfer: TransferRow): Promise<void> {
    for (const { version, project } of await this.deps.repository.files(transfer.id)) {
      if (version.uploadId && version.status === 'uploading')
        await this.deps.uploads.abortSession(version.uploadId).catch(() => undefined);
      await this.deps.blobs.deletePrefix(projectBlobPrefix(project.id));
    }
  }

  async downloads(actor: Actor, id: string) {
    const transfer = await this.deps.policy.owned(actor, id);
    const rows = await this.deps.downloads.log(transfer.id);
    return {
      items: rows.map((r) => ({
        id: r.id,
        email: r.email,
        fileId: r.fileId,
        fileName: r.fileName,
        startedAt: r.startedAt.toISOString(),
        completed: r.completedAt !== null,
        bytes: r.bytes,
      })),
    };
  }

  /** The owner browses and downloads through the recipients' endpoints, uncounted. */
  async ownerGrant(actor: Actor, id: string): Promise<{ grant: string; expiresAt: string }> {
    const transfer = await this.deps.policy.owned(actor, id);
    if (!this.deps.policy.isAvailable(transfer)) throw transferUnavailable();
    return this.deps.policy.issue(transfer, null, true);
  }
}
