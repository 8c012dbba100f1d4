import { pipeline } from 'node:stream/promises';
import { copyCounter, copyFailureReason, copyRetryable } from '../../platform/drives/copy-guards';
import { fillFromDrive } from '../../platform/drives/drive-file-fill';
import { DomainError } from '../../platform/errors/domain-error';
import { defineStage, type StageContext } from '../../platform/jobs/staged-job';
import type { TransferCreationService } from './transfer-creation.service';
import {
  transferLinkedCopyOptions,
  transferLinkedCopyStage,
  type TransferLinkedCopyPayload,
} from './transfer-linked-copy.stage';
import { transferChanged, type TransfersDeps } from './transfers.deps';
import type { TransferFileRecord, TransferRow } from './transfers.repository';

type Context = Pick<StageContext, 'signal' | 'progress' | 'attempt' | 'log'>;

/** The copy's percent is written to the file's version at most this often (the sender's screen reads it). */
const RECORD_EVERY_MS = 1000;
export const LINKED_COPY_MESSAGES = {
  changed: 'The file changed on the storage provider while it was copied. Pick it again.',
  failed: 'The copy from the linked storage failed.',
  ownerGone: 'The account that sent this transfer is gone.',
} as const;

/**
 * A transfer's file copied by the server from the owner's linked account: the provider's GET runs
 * on a thread of its own straight into the upload's file where the drive and the store allow it
 * (see fillFromDrive), else the bytes stream through (bounded memory, never gathered either way);
 * the upload completes like a browser's; the transfer is sent when this was its last file. A copy that fails for good marks the
 * transfer failed with the reason on the file, drops what was written (no half-stored blob), and
 * drops the transfer's other files too: a failed transfer is never sent.
 */
export class TransferLinkedCopyWork {
  constructor(
    private readonly deps: TransfersDeps,
    private readonly creation: TransferCreationService,
    private readonly dropFiles: (transfer: TransferRow) => Promise<void>,
  ) {}

  async run(payload: TransferLinkedCopyPayload, context: Context): Promise<void> {
    const found = await this.current(payload);
    if (!found) return await this.sendIfStored(payload);
    const { transfer, record } = found;
    try {
      const sender = await this.deps.userOf(transfer.publisherId);
      if (!sender) throw new DomainError(410, 'OWNER_GONE', LINKED_COPY_MESSAGES.ownerGone);
      await this.copy(payload, record, context);
      // Another file may have failed while this one copied: its bytes go with the transfer's.
      const now = await this.deps.repository.find(transfer.id);
      if (!now || now.flag !== 'CREATE') return await this.discard(record);
      await this.creation.completeFile(sender.displayName, transfer.publisherId, now, record.project.id);
      await context.progress(1);
    } catch (error) {
      if (context.signal.aborted) throw error;
      if (copyRetryable(error) && context.attempt <= (transferLinkedCopyStage.retryLimit ?? 0)) {
        context.log.warn({ err: error, versionId: payload.versionId }, 'transfer copy failed; it will be tried again');
        throw error;
      }
      await this.fail(payload, copyFailureReason(error, LINKED_COPY_MESSAGES.failed));
    }
  }

  /** After the last attempt failed (or the worker died each time). */
  async finalFailure(payload: TransferLinkedCopyPayload | null, error: Error): Promise<void> {
    if (payload && (await this.current(payload)))
      await this.fail(payload, copyFailureReason(error, LINKED_COPY_MESSAGES.failed));
  }

  /**
   * An earlier attempt stored the file and died before the transfer was sent (the sending is
   * idempotent): it goes now, or when its last file is in.
   */
  private async sendIfStored(payload: TransferLinkedCopyPayload): Promise<void> {
    const record = await this.deps.repository.fileByVersion(payload.versionId);
    if (!record || record.version.status === 'uploading') return;
    const transfer = await this.deps.repository.find(record.file.transferId);
    if (!transfer || transfer.flag !== 'CREATE') return;
    const sender = await this.deps.userOf(transfer.publisherId);
    if (sender) await this.creation.sendWhenComplete(sender.displayName, transfer.id);
  }

  /** The file and its transfer while there is still something to copy; null once sent, failed or gone. */
  private async current(payload: TransferLinkedCopyPayload) {
    const record = await this.deps.repository.fileByVersion(payload.versionId);
    if (!record || record.version.status !== 'uploading') return null;
    const transfer = await this.deps.repository.find(record.file.transferId);
    if (!transfer || transfer.flag !== 'CREATE' || transfer.publisherId !== payload.userId) return null;
    return { transfer, record };
  }

  private async copy(payload: TransferLinkedCopyPayload, record: TransferFileRecord, context: Context) {
    const { version } = record;
    // Each attempt writes through a fresh session: what an earlier attempt left is aborted first.
    if (version.uploadId) await this.deps.uploads.abortSession(version.uploadId);
    const session = await this.deps.uploads.start(payload.userId, version.blobKey, version.fileSize);
    await this.deps.repository.updateVersion(version.id, { uploadId: session.id, progress: 0 });
    const drive = await this.deps.linkedDrive(payload.userId, payload.connectorId);
    const onBytes = this.tracker(version.id, version.fileSize, context);
    const direct = await fillFromDrive({
      drive,
      path: payload.path,
      total: version.fileSize,
      network: this.deps.linkedNetwork,
      fillUpload: (fill) => this.deps.uploads.fillWhole(payload.userId, session.id, fill),
      changed: LINKED_COPY_MESSAGES.changed,
      onBytes,
      signal: context.signal,
    });
    if (direct) return await this.deps.repository.updateVersion(version.id, { progress: 100 });
    const read = await drive.read(payload.path, { signal: context.signal });
    if (read.size !== version.fileSize) {
      read.body.destroy();
      throw new DomainError(409, 'FILE_CHANGED', LINKED_COPY_MESSAGES.changed);
    }
    const counted = copyCounter(version.fileSize, LINKED_COPY_MESSAGES.changed, onBytes);
    try {
      await Promise.all([
        pipeline(read.body, counted),
        this.deps.uploads.storeWhole(payload.userId, session.id, counted),
      ]);
    } catch (error) {
      read.body.destroy();
      counted.destroy();
      throw error;
    }
    await this.deps.repository.updateVersion(version.id, { progress: 100 });
  }

  private tracker(versionId: string, total: number, context: Pick<StageContext, 'progress'>) {
    let recordedAt = this.deps.clock.now().getTime();
    return (done: number) => {
      void context.progress(done / total).catch(() => undefined);
      const now = this.deps.clock.now().getTime();
      if (now - recordedAt < RECORD_EVERY_MS) return;
      recordedAt = now;
      const progress = Math.min(99, Math.floor((done / total) * 100));
      void this.deps.repository.updateVersion(versionId, { progress }).catch(() => undefined);
    };
  }

  /** This file's upload and blob go (nothing half-written stays behind). */
  private async discard(record: TransferFileRecord): Promise<void> {
    const version = (await this.deps.repository.fileByVersion(record.version.id))?.version ?? record.version;
    if (version.uploadId) await this.deps.uploads.abortSession(version.uploadId).catch(() => undefined);
    await this.deps.blobs.delete(version.blobKey).catch(() => undefined);
  }

  private async fail(payload: TransferLinkedCopyPayload, reason: string): Promise<void> {
    const record = await this.deps.repository.fileByVersion(payload.versionId);
    if (!record) return;
    await this.discard(record);
    await this.deps.repository.updateVersion(record.version.id, { uploadId: null, progress: 0, error: reason });
    const failed = await this.deps.repository.failIfUploading(record.file.transferId, this.deps.clock.now());
    if (!failed) return;
    await this.dropFiles(failed);
    await this.deps.bus.publishOrLog(transferChanged(failed.publisherId, failed.id, 'updated'));
  }
}

/** The stage bound to its work, as the module's job. */
export const transferLinkedCopyJob = (work: TransferLinkedCopyWork) =>
  defineStage({
    ...transferLinkedCopyOptions,
    run: (payload, context) => work.run(payload, context),
    onFinalFailure: (payload, error) => work.finalFailure(payload, error),
  });
