import { randomBytes, randomUUID } from 'node:crypto';
import type { LinkedTransferFileInput, TransferDetail, TransferUploadTicket, Version } from '@mixroom/contracts';
import {
  baseName,
  DAY_MS,
  extensionOf,
  formatTransferSize,
  isAudioExtension,
  storedExtension,
  TRANSFER_MESSAGES,
  UNLIMITED,
} from '@mixroom/shared';
import { AppError } from '../../http/app-error';
import { sendMailJob } from '../../platform/mail/mail.jobs';

type OutgoingMail = { to: string; subject: string; text: string; html: string };
import { completeVersionUpload, presentVersion } from '../storage';
import { transferChecksumJob } from './transfer-job-types';
import { transferLinkedCopyStage } from './transfer-linked-copy.stage';
import { resolveLinkedFiles } from './transfer-linked-files';
import { requestFulfilledMail, transferMail } from './transfer-mail';
import { planFolders } from './transfer-tree';
import { hashTransferPassword } from './transfer-password';
import { transferChanged, type TransfersDeps } from './transfers.deps';
import { transferLink } from './transfers.presenter';
import type { NewTransfer, TransferRow } from './transfers.repository';
import { projectBlobPrefix, versionBlobKey } from '../../platform/blob/blob-keys';

export interface TransferForm {
  name: string;
  message: string;
  mode: 'link' | 'email';
  recipients: string[];
  durationDays: number;
  password: string | null;
  files: { path: string; fileName: string; size: number }[];
  /** Files the server copies from the owner's linked accounts (never through a file request). */
  linked?: LinkedTransferFileInput[];
}

/** A file of the new transfer: the browser uploads it, or the server copies it from `source`. */
type PlannedFile = TransferForm['files'][number] & { source: { connectorId: string; path: string } | null };

/** Who a transfer comes from: its owner, or someone without an account using the owner's request link. */
export interface TransferOrigin {
  ownerId: string;
  /** Set for an upload through a file request. */
  request?: { id: string; uploaderName: string | null; uploaderEmail: string | null };
}

const refuse = (status: number, code: string, message: string) => new AppError(status, code, message);

/** Why a transfer takes no more files: it was sent, or one of its files failed and it never will be. */
const closed = (transfer: TransferRow) =>
  transfer.flag === 'FAILED'
    ? AppError.conflict('This transfer was not sent: one of its files could not be stored.', 'TRANSFER_FAILED')
    : AppError.conflict('This transfer was already sent.', 'TRANSFER_SENT');

/**
 * Checks a transfer form in the order users know (files, recipients, name, message, the month's
 * count, the duration), then the password and the size against the owner's plan. The first
 * failure answers, with its own text.
 */
export async function checkTransferForm(
  deps: Pick<TransfersDeps, 'limitsFor' | 'transfersThisMonth'>,
  ownerId: string,
  form: TransferForm,
): Promise<void> {
  if (form.files.length === 0) throw refuse(400, 'TRANSFER_NO_FILES', TRANSFER_MESSAGES.noFiles);
  if (form.mode === 'email' && form.recipients.length === 0)
    throw refuse(400, 'TRANSFER_NO_RECIPIENTS', TRANSFER_MESSAGES.noRecipients);
  if (!form.name.trim()) throw refuse(400, 'TRANSFER_NO_NAME', TRANSFER_MESSAGES.noName);
  if (!form.message.trim()) throw refuse(400, 'TRANSFER_NO_MESSAGE', TRANSFER_MESSAGES.noMessage);
  const limits = await deps.limitsFor(ownerId);
  if (limits.transfersPerMonth !== UNLIMITED && (await deps.transfersThisMonth(ownerId)) >= limits.transfersPerMonth)
    throw refuse(403, 'TRANSFER_MONTHLY_LIMIT_PLAN', TRANSFER_MESSAGES.monthlyLimit);
  if (!limits.transferDurationDays.includes(form.durationDays))
    throw refuse(403, 'TRANSFER_DURATION_PLAN', TRANSFER_MESSAGES.durationLocked);
  if (form.password && !limits.transferPassword)
    throw refuse(403, 'TRANSFER_PASSWORD_PLAN', TRANSFER_MESSAGES.passwordLocked);
  const total = form.files.reduce((sum, f) => sum + f.size, 0);
  if (limits.transferMaxBytes !== UNLIMITED && total > limits.transferMaxBytes)
    throw refuse(413, 'TRANSFER_TOO_LARGE', TRANSFER_MESSAGES.tooLarge(formatTransferSize(limits.transferMaxBytes)));
}

/** Recipients once each, whatever their case; none for a link-only transfer. */
const uniqueRecipients = (form: TransferForm) =>
  form.mode === 'link'
    ? []
    : form.recipients.filter(
        (email, i, all) => all.findIndex((other) => other.toLowerCase() === email.toLowerCase()) === i,
      );

/**
 * Creating and uploading a transfer: the form is checked, the folder tree and one project per file
 * are written at once (TRANSFER area, flag CREATE), each file then goes through the one upload
 * orchestrator's resumable sessions, and the transfer is sent when its last file is in.
 */
export class TransferCreationService {
  constructor(
    private readonly deps: TransfersDeps,
    private readonly present: (transfer: TransferRow) => Promise<TransferDetail>,
  ) {}

  async create(origin: TransferOrigin, input: TransferForm): Promise<TransferDetail> {
    const linkedInputs = origin.request ? [] : (input.linked ?? []);
    // The form's own checks answer before any provider is asked (a linked file counts as a file here).
    const placeholders = linkedInputs.map(() => ({ path: '', fileName: 'linked', size: 0 }));
    await checkTransferForm(this.deps, origin.ownerId, { ...input, files: [...input.files, ...placeholders] });
    const linked = await resolveLinkedFiles(this.deps, origin.ownerId, linkedInputs);
    const files: PlannedFile[] = [
      ...input.files.map((f) => ({ ...f, source: null })),
      ...linked.map((l) => ({
        path: l.folder,
        fileName: l.fileName,
        size: l.size,
        source: { connectorId: l.connectorId, path: l.source },
      })),
    ];
    const form = { ...input, files };
    // Sizes known: the plan's transfer size is checked before a byte moves.
    if (linked.length > 0) await checkTransferForm(this.deps, origin.ownerId, form);
    const now = this.deps.clock.now();
    const transferId = randomUUID();
    const rootId = randomUUID();
    const { folders, folderOf } = planFolders(
      rootId,
      form.files.map((f) => f.path),
    );
    const itemBase = { publisherId: origin.ownerId, mode: 'TRANSFER' as const, createdAt: now, updatedAt: now };
    const rows: NewTransfer = {
      transfer: {
        id: transferId,
        token: randomBytes(24).toString('base64url'),
        name: form.name.trim(),
        message: form.message.trim(),
        mode: form.mode,
        passwordHash: form.password ? await hashTransferPassword(form.password) : null,
        durationDays: form.durationDays,
        groupId: rootId,
        publisherId: origin.ownerId,
        flag: 'CREATE',
        size: form.files.reduce((sum, f) => sum + f.size, 0),
        fileCount: form.files.length,
        createdAt: now,
        updatedAt: now,
        expiresAt: new Date(now.getTime() + form.durationDays * DAY_MS),
        requestId: origin.request?.id ?? null,
        uploaderName: origin.request?.uploaderName ?? null,
        uploaderEmail: origin.request?.uploaderEmail ?? null,
      },
      // Each recipient gets a link of their own: what comes through it is counted as theirs.
      recipients: uniqueRecipients(form).map((email) => ({ email, token: randomBytes(24).toString('base64url') })),
      root: { ...itemBase, id: rootId, name: form.name.trim(), parentId: null, path: [rootId], flag: 'NONE' },
      folders: folders.map((f) => ({ ...itemBase, id: f.id, name: f.name, parentId: f.parentId, path: f.path })),
      files: form.files.map((f, position) => {
        const folder = folderOf(f.path);
        const projectId = randomUUID();
        const versionId = randomUUID();
        const extension = extensionOf(f.fileName);
        const name = baseName(f.fileName) || f.fileName;
        return {
          project: {
            ...itemBase,
            id: projectId,
            name,
            type: isAudioExtension(extension) ? ('AUDIO' as const) : ('ANY' as const),
            groupId: folder.id,
            path: [...folder.path, projectId],
            flag: 'CREATE' as const,
            enableDownload: true,
            size: f.size,
            latestExtension: extension,
          },
          version: {
            id: versionId,
            projectId,
            number: 1,
            name,
            fileName: f.fileName,
            fileExtension: extension,
            fileSize: f.size,
            blobKey: versionBlobKey(projectId, versionId, `original.${storedExtension(extension)}`),
            // No creator for a file request's upload: it holds the owner's quota only as bytes arrive.
            createdBy: origin.request ? null : origin.ownerId,
            createdAt: now,
          },
          file: { projectId, transferId, versionId, path: folder.relative, position },
        };
      }),
    };
    const row = await this.deps.unitOfWork(async (tx) => {
      const created = await this.deps.repository.insert(tx, rows);
      // The copies are queued with the rows: both happen or neither does.
      for (const [i, file] of files.entries())
        if (file.source)
          await this.deps.outbox.job(tx, transferLinkedCopyStage, {
            transferId,
            versionId: rows.files[i]!.version.id!,
            userId: origin.ownerId,
            connectorId: file.source.connectorId,
            path: file.source.path,
          });
      await this.deps.outbox.event(tx, transferChanged(origin.ownerId, transferId, 'created'));
      return created;
    });
    this.deps.outbox.kick();
    return this.present(row);
  }

  private async uploadingFile(ownerId: string, transfer: TransferRow, fileId: string) {
    const record = await this.deps.repository.file(transfer.id, fileId);
    if (!record) throw AppError.notFound('No such file in this transfer.');
    if (transfer.publisherId !== ownerId) throw AppError.notFound('No such file in this transfer.');
    return record;
  }

  /** Opens the file's upload session, or hands back the open one so the client resumes it. */
  async uploadTicket(ownerId: string, transfer: TransferRow, fileId: string): Promise<TransferUploadTicket> {
    const { version } = await this.uploadingFile(ownerId, transfer, fileId);
    if (version.uploadId) {
      const session = await this.deps.uploads.get(ownerId, version.uploadId);
      if (session.status !== 'aborted' || version.status !== 'uploading')
        return { upload: session, version: presentVersion(version) };
    }
    if (transfer.flag !== 'CREATE') throw closed(transfer);
    const session = await this.deps.uploads.start(ownerId, version.blobKey, version.fileSize);
    const updated = await this.deps.repository.updateVersion(version.id, { uploadId: session.id });
    return { upload: session, version: presentVersion(updated) };
  }

  /**
   * Every part is in: the file is assembled, marked processing, and its media and checksum jobs are
   * recorded with it; the transfer is sent when this was its last file.
   */
  async completeFile(actorName: string, ownerId: string, transfer: TransferRow, fileId: string): Promise<Version> {
    const { version, project } = await this.uploadingFile(ownerId, transfer, fileId);
    if (transfer.flag === 'FAILED') {
      // It will never be sent: what the browser stored goes at once.
      if (version.uploadId) await this.deps.uploads.abortSession(version.uploadId);
      await this.deps.blobs.delete(version.blobKey).catch(() => undefined);
      throw closed(transfer);
    }
    return completeVersionUpload(this.deps, {
      area: this.deps.repository,
      sessionOwnerId: ownerId,
      version,
      project,
      extraJobs: [transferChecksumJob],
      // The file is not kept. Without its session it holds nothing of the quota, and a new upload
      // ticket starts afresh (once the owner has made room).
      drop: async () => {
        await this.deps.blobs.delete(version.blobKey).catch(() => undefined);
        await this.deps.repository.updateVersion(version.id, { uploadId: null });
      },
      afterCommit: async () => {
        await this.sendWhenComplete(actorName, transfer.id);
      },
    });
  }

  /** One file leaves the transfer before it is sent; a transfer left with no file goes too. */
  async cancelFile(actorName: string, ownerId: string, transfer: TransferRow, fileId: string): Promise<void> {
    if (transfer.flag !== 'CREATE') throw closed(transfer);
    const { version, project } = await this.uploadingFile(ownerId, transfer, fileId);
    if (version.uploadId) await this.deps.uploads.abortSession(version.uploadId);
    await this.deps.blobs.deletePrefix(projectBlobPrefix(project.id)).catch(() => undefined);
    const left = await this.deps.repository.deleteFile(transfer.id, project.id);
    if (left.fileCount === 0) {
      await this.deps.repository.delete(left);
      await this.deps.bus.publishOrLog(transferChanged(transfer.publisherId, transfer.id, 'deleted'));
      return;
    }
    await this.sendWhenComplete(actorName, transfer.id);
  }

  /** Sends the transfer if every file is in (idempotent); answers how many files are still missing. */
  async sendWhenComplete(senderName: string, transferId: string): Promise<number> {
    const files = await this.deps.repository.files(transferId);
    const missing = files.filter((f) => f.version.status === 'uploading').length;
    if (missing > 0 || files.length === 0) return Math.max(missing, 1);
    const transfer = await this.deps.repository.find(transferId);
    if (!transfer || transfer.flag !== 'CREATE') return 0;
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + transfer.durationDays * DAY_MS);
    const size = files.reduce((sum, f) => sum + f.version.fileSize, 0);
    // Read before the transaction: on the embedded database one connection serves both.
    const mails = await this.mailsOnSend({ ...transfer, expiresAt, size, fileCount: files.length }, senderName);
    await this.deps.unitOfWork(async (tx) => {
      const sent = await this.deps.repository.sendIfUploading(tx, transferId, {
        sentAt: now,
        expiresAt,
        updatedAt: now,
        size,
        fileCount: files.length,
      });
      if (!sent) return;
      for (const mail of mails) await this.deps.outbox.job(tx, sendMailJob, mail);
      await this.deps.outbox.event(tx, transferChanged(transfer.publisherId, transferId, 'sent'));
    });
    this.deps.outbox.kick();
    return 0;
  }

  /** One mail per recipient, with their own link: what they download through it counts as theirs. */
  private async mailsOnSend(transfer: TransferRow, senderName: string): Promise<OutgoingMail[]> {
    const link = transferLink(this.deps.publicUrl, transfer.token);
    if (transfer.requestId) {
      const owner = await this.deps.userOf(transfer.publisherId);
      if (!owner) return [];
      const uploader = transfer.uploaderName || transfer.uploaderEmail || 'Someone';
      const historyUrl = `${this.deps.publicUrl.replace(/\/$/, '')}/transfer/history/${transfer.id}`;
      return [{ to: owner.email, ...requestFulfilledMail(uploader, { ...transfer, link }, historyUrl) }];
    }
    if (transfer.mode !== 'email') return [];
    const recipients = (await this.deps.repository.recipients([transfer.id])).get(transfer.id) ?? [];
    return recipients.map((recipient) => ({
      to: recipient.email,
      ...transferMail({
        ...transfer,
        sender: senderName,
        link: transferLink(this.deps.publicUrl, recipient.token),
      }),
    }));
  }
}
