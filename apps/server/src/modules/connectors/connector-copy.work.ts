import type { Readable } from 'node:stream';
import { copyCounter, copyFailureReason, copyRetryable } from '../../platform/drives/copy-guards';
import { fillFromDrive } from '../../platform/drives/drive-file-fill';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../platform/errors/domain-error';
import { defineStage, type StageContext } from '../../platform/jobs/staged-job';
import type { Drive } from '../../platform/drives/drive';
import type { Actor } from '../../platform/identity/actor';
import { connectorCopyOptions, connectorCopyStage } from './connector-copy.stage';
import type { ConnectorsDeps } from './connectors.deps';
import type { ConnectorTransferRow } from './connectors.repository';
import type { ConnectorsService } from './connectors.service';

type CopyPayload = { transferId: string; userId: string; uploadId: string | null };

/** The copy's bytes are written to its row at most this often, for a panel opened mid-copy. */
const RECORD_EVERY_MS = 1000;
const CHANGED = 'The file changed on the storage provider while it was copied. Pick it again.';
const STORED_FILE_SHORT =
  "Mixroom's stored copy of this file is incomplete, so it was not saved. Tell your administrator.";

type Context = Pick<StageContext, 'signal' | 'progress'>;

/**
 * The work of a copy on a worker. An import streams the linked file into the version's upload
 * (bounded memory: the bytes pass through, never gathered) and completes it like a browser's upload;
 * an export streams the version's blob, or a folder's stored ZIP, into the linked account. A failed
 * import leaves nothing behind: the half-stored file, the version and its quota reservation are
 * dropped (and the project, when it had only this version). A failed export's partial file is the
 * provider's to discard: Amazon S3 keeps nothing of a PUT cut short, but a WebDAV server (and some
 * S3-compatible stores) may keep what it received, and the Drive port has no delete yet; this is
 * also why a folder's ZIP never takes a name already in use (a cut copy can't clobber a user's file).
 */
export class ConnectorCopyWork {
  constructor(
    private readonly deps: ConnectorsDeps,
    private readonly service: ConnectorsService,
  ) {}

  async run(payload: CopyPayload, context: Pick<StageContext, 'signal' | 'progress' | 'attempt'>): Promise<void> {
    const transfer = await this.deps.repository.transfer(payload.transferId);
    if (!transfer || transfer.status !== 'running') return;
    const actor = await this.deps.actorOf(transfer.userId);
    if (!actor) return this.fail(transfer, null, 'The account that started this copy is gone.');
    try {
      const bytes =
        transfer.direction === 'import'
          ? await this.importFile(transfer, actor, payload.uploadId, context)
          : transfer.groupId
            ? await this.exportFolder(transfer, transfer.groupId, actor, context)
            : await this.exportVersion(transfer, actor, context);
      await this.deps.repository.updateTransfer(transfer.id, { status: 'done', bytesDone: bytes, bytesTotal: bytes });
      await context.progress(1);
    } catch (error) {
      if (copyRetryable(error) && context.attempt <= (connectorCopyStage.retryLimit ?? 0) && !context.signal.aborted) {
        this.deps.log.warn({ err: error, transferId: transfer.id }, 'connector copy failed; it will be tried again');
        throw error;
      }
      if (context.signal.aborted) throw error;
      await this.fail(transfer, actor, copyFailureReason(error, 'The copy failed.'));
    }
  }

  /** After the last attempt failed (or the worker died each time). */
  async finalFailure(payload: CopyPayload | null, error: Error): Promise<void> {
    if (!payload) return;
    const transfer = await this.deps.repository.transfer(payload.transferId);
    if (!transfer || transfer.status !== 'running') return;
    await this.fail(transfer, await this.deps.actorOf(transfer.userId), copyFailureReason(error, 'The copy failed.'));
  }

  private tracker(transfer: ConnectorTransferRow, total: number, context: Pick<StageContext, 'progress'>) {
    let recordedAt = this.deps.clock.now().getTime();
    return (done: number) => {
      void context.progress(total === 0 ? 1 : done / total).catch(() => undefined);
      const now = this.deps.clock.now().getTime();
      if (now - recordedAt < RECORD_EVERY_MS) return;
      recordedAt = now;
      void this.deps.repository.updateTransfer(transfer.id, { bytesDone: done }).catch(() => undefined);
    };
  }

  private async importFile(
    transfer: ConnectorTransferRow,
    actor: Actor,
    uploadId: string | null,
    context: Context,
  ): Promise<number> {
    if (!uploadId || !transfer.versionId)
      throw new DomainError(409, 'UPLOAD_CLOSED', 'This copy has no upload to fill.');
    const drive = await this.service.open(transfer.userId, transfer.connectorId);
    if (!(await this.importDirect(transfer, drive, uploadId, context)))
      await this.importStream(transfer, drive, uploadId, context);
    await this.deps.completeUpload(actor, transfer.versionId);
    return transfer.bytesTotal;
  }

  /** The fast way where the drive and the store allow it (see fillFromDrive); false when the copy must stream. */
  private importDirect(
    transfer: ConnectorTransferRow,
    drive: Drive,
    uploadId: string,
    context: Context,
  ): Promise<boolean> {
    return fillFromDrive({
      drive,
      path: transfer.path,
      total: transfer.bytesTotal,
      network: this.deps.network,
      fillUpload: (fill) => this.deps.fillWhole(transfer.userId, uploadId, fill),
      changed: CHANGED,
      onBytes: this.tracker(transfer, transfer.bytesTotal, context),
      signal: context.signal,
      onResume: (from) =>
        this.deps.log.info({ transferId: transfer.id, from, total: transfer.bytesTotal }, 'connector import resumes'),
    });
  }

  /** Any drive into any store: the provider's answer streamed through the byte counter into the upload. */
  private async importStream(
    transfer: ConnectorTransferRow,
    drive: Drive,
    uploadId: string,
    context: Context,
  ): Promise<void> {
    const read = await drive.read(transfer.path, { signal: context.signal });
    if (read.size !== transfer.bytesTotal) {
      read.body.destroy();
      throw new DomainError(409, 'FILE_CHANGED', CHANGED);
    }
    const counted = copyCounter(transfer.bytesTotal, CHANGED, this.tracker(transfer, transfer.bytesTotal, context));
    try {
      await Promise.all([pipeline(read.body, counted), this.deps.storeWhole(transfer.userId, uploadId, counted)]);
    } catch (error) {
      read.body.destroy();
      counted.destroy();
      throw error;
    }
  }

  private async exportVersion(transfer: ConnectorTransferRow, actor: Actor, context: Context): Promise<number> {
    if (!transfer.versionId) throw new DomainError(409, 'NO_SOURCE', 'This copy names no version.');
    // Asked again at copy time: rights withdrawn since the request stop the copy.
    const { version } = await this.deps.items.version(actor, transfer.versionId, 'download');
    const drive = await this.service.open(transfer.userId, transfer.connectorId);
    await this.write(transfer, drive, await this.deps.blobs.get(version.blobKey), version.fileSize, context);
    return version.fileSize;
  }

  /**
   * A folder's ZIP, built again now for the actor as they are now: rights withdrawn since the request
   * drop projects (or refuse the whole archive), and projects added since are in it. Its exact length
   * is known before a byte is read, so the provider is told it up front as for a single file.
   */
  private async exportFolder(
    transfer: ConnectorTransferRow,
    groupId: string,
    actor: Actor,
    context: Context,
  ): Promise<number> {
    const archive = await this.deps.zip.folderArchive(actor, groupId);
    if (archive.size !== transfer.bytesTotal)
      await this.deps.repository.updateTransfer(transfer.id, { bytesTotal: archive.size });
    const drive = await this.service.open(transfer.userId, transfer.connectorId);
    // A file gone from the store would cut the archive mid-write: refused before the provider holds any of it.
    await archive.verify();
    await this.write(transfer, drive, archive.open(), archive.size, context);
    return archive.size;
  }

  /**
   * Streams `size` bytes into the transfer's path; a source longer than announced stops the copy.
   * The source is Mixroom's own stored file: one that ends short is lost bytes, not a provider's
   * hiccup, so it fails the copy at once (no retry) with its own reason, although the provider's
   * write then fails too (its body ended before the length it was promised).
   */
  private async write(
    transfer: ConnectorTransferRow,
    drive: Drive,
    source: Readable,
    size: number,
    context: Context,
  ): Promise<void> {
    const track = this.tracker(transfer, size, context);
    let done = 0;
    const counted = copyCounter(size, CHANGED, (bytes) => {
      done = bytes;
      track(bytes);
    });
    const sent = pipeline(source, counted).then(() => {
      if (done < size) throw new DomainError(409, 'STORED_FILE_SHORT', STORED_FILE_SHORT);
    });
    try {
      await Promise.all([sent, drive.write(transfer.path, counted, size, context.signal)]);
    } catch (error) {
      source.destroy();
      counted.destroy();
      const sourceError = await sent.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      throw sourceError instanceof DomainError ? sourceError : error;
    }
  }

  private async fail(transfer: ConnectorTransferRow, actor: Actor | null, reason: string): Promise<void> {
    if (transfer.direction === 'import' && actor && transfer.versionId)
      await this.deps.cancelUpload(actor, transfer.versionId).catch((error: unknown) => {
        // A version that completed or was already dropped has nothing left to release.
        this.deps.log.info({ err: error, transferId: transfer.id }, 'connector import: nothing left to drop');
      });
    if (transfer.direction === 'export') await this.discardExport(transfer);
    await this.deps.repository.updateTransfer(transfer.id, { status: 'failed', error: reason });
  }

  /**
   * What a cut export left at the provider goes: its path was new when the copy was asked for (an
   * export never takes a name in use), so removing it loses nothing of the user's. Best effort.
   */
  private async discardExport(transfer: ConnectorTransferRow): Promise<void> {
    const drive = await this.service.open(transfer.userId, transfer.connectorId).catch(() => null);
    await drive?.discard?.(transfer.path).catch((error: unknown) => {
      this.deps.log.warn({ err: error, transferId: transfer.id }, 'connector export: its partial file stays');
    });
  }
}

/** The stage bound to its work, as the module's job. */
export const connectorCopyJob = (work: ConnectorCopyWork) =>
  defineStage({
    ...connectorCopyOptions,
    run: (payload, context) => work.run(payload, context),
    onFinalFailure: (payload, error) => work.finalFailure(payload, error),
  });
