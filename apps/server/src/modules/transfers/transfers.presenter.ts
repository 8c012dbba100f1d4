import type { TransferDetail, TransferFile, TransferSummary } from '@mixroom/contracts';
import { DAY_MS, TRANSFER_GRACE_DAYS, type PlanLimits } from '@mixroom/shared';
import type { GroupRow } from '../../db/rows';
import type { RecipientRow, TransferFileRecord, TransferRow } from './transfers.repository';

/** The recipient link: the web's public share screen with the link's token. */
export const transferLink = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/$/, '')}/public/share?transferId=${encodeURIComponent(token)}`;

export function transferStatus(transfer: TransferRow, now: Date): TransferSummary['status'] {
  if (transfer.flag === 'CREATE') return 'uploading';
  if (transfer.flag === 'FAILED') return 'failed';
  return now.getTime() >= transfer.expiresAt.getTime() ? 'expired' : 'available';
}

/** Until when an expired transfer's files stay (to be reloaded); they are purged after. */
export const purgeAt = (transfer: Pick<TransferRow, 'expiresAt'>) =>
  new Date(transfer.expiresAt.getTime() + TRANSFER_GRACE_DAYS * DAY_MS);

/**
 * The expiry may move within the transfer's window (its start, sent or reloaded, to that plus the
 * plan's longest duration), never before now: a date in the past would end the transfer for every
 * recipient, which is the separate "Expire now" action.
 */
export function expiryBounds(transfer: TransferRow, limits: PlanLimits, now: Date): { min: Date; max: Date } {
  const start = transfer.sentAt ?? transfer.createdAt;
  const longest = Math.max(0, ...limits.transferDurationDays);
  return { min: new Date(Math.max(start.getTime(), now.getTime())), max: new Date(start.getTime() + longest * DAY_MS) };
}

export function presentFile(record: TransferFileRecord, folderId: string): TransferFile {
  const { file, project, version } = record;
  return {
    id: project.id,
    versionId: version.id,
    folderId,
    path: file.path,
    name: project.name,
    fileName: version.fileName,
    extension: version.fileExtension,
    size: version.fileSize,
    kind: project.type,
    status: version.status,
    storedPercent: version.status === 'uploading' ? Math.min(99, Math.max(0, version.progress)) : 100,
    error: version.status === 'uploading' ? version.error : null,
    durationSeconds: version.durationSeconds,
    sha256: file.sha256,
    hasPeaks: Boolean(version.peaksKey),
  };
}

export const presentFolders = (folders: GroupRow[]) =>
  folders.map((g) => ({ id: g.id, name: g.name, parentId: g.parentId }));

export function presentSummary(
  transfer: TransferRow,
  recipients: RecipientRow[],
  context: { now: Date; publicUrl: string; limits: PlanLimits; failure?: string | null },
): TransferSummary {
  const status = transferStatus(transfer, context.now);
  const stored = !transfer.purgedAt;
  return {
    id: transfer.id,
    name: transfer.name,
    status,
    failure: status === 'failed' ? (context.failure ?? 'A file could not be stored.') : null,
    mode: transfer.mode,
    size: transfer.size,
    fileCount: transfer.fileCount,
    durationDays: transfer.durationDays,
    createdAt: transfer.createdAt.toISOString(),
    expiresAt: transfer.expiresAt.toISOString(),
    hasPassword: Boolean(transfer.passwordHash),
    link: transferLink(context.publicUrl, transfer.token),
    recipients: recipients.map((r) => ({
      email: r.email,
      downloadCount: r.downloadCount,
      lastDownloadAt: r.lastDownloadAt?.toISOString() ?? null,
    })),
    anonymousDownloads: transfer.anonymousDownloads,
    capabilities: {
      canCopy: status === 'available',
      canEdit: status === 'available',
      canDelete: true,
      canReload: status === 'expired' && stored && context.limits.transferReload && context.now < purgeAt(transfer),
    },
  };
}

export function presentDetail(
  transfer: TransferRow,
  recipients: RecipientRow[],
  folders: GroupRow[],
  files: TransferFileRecord[],
  context: { now: Date; publicUrl: string; limits: PlanLimits },
): TransferDetail {
  const bounds = expiryBounds(transfer, context.limits, context.now);
  const folderOf = (record: TransferFileRecord) => record.project.groupId ?? transfer.groupId;
  const failed = files.find((record) => record.version.status === 'uploading' && record.version.error);
  const failure = failed ? `${failed.version.fileName}: ${failed.version.error}` : null;
  return {
    ...presentSummary(transfer, recipients, { ...context, failure }),
    message: transfer.message,
    expiryBounds: { min: bounds.min.toISOString(), max: bounds.max.toISOString() },
    purgeAt: purgeAt(transfer).toISOString(),
    folders: presentFolders(folders),
    files: files.map((record) => presentFile(record, folderOf(record))),
  };
}
