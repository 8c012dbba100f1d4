import type { LinkedTransferFileInput } from '@mixroom/contracts';
import { fileNameProblem } from '@mixroom/shared';
import { AppError } from '../../http/app-error';
import { normalisePath, type Drive } from '../../platform/drives/drive';
import { DRIVE_MESSAGES } from '../../platform/drives/drive-error';
import type { TransfersDeps } from './transfers.deps';

/** A linked file as the provider described it when the transfer was created. */
export interface ResolvedLinkedFile {
  connectorId: string;
  /** Its normalised path in the linked account. */
  source: string;
  /** Its folder inside the transfer ('' at the root). */
  folder: string;
  fileName: string;
  size: number;
}

export const LINKED_MESSAGES = {
  sizeUnknown: 'The storage provider does not say how large this file is, so it cannot be copied.',
  empty: 'The file is empty.',
} as const;

/**
 * Asks the provider for each linked file's name and size before anything is written, so the plan's
 * size limit is checked before a byte moves. The first refusal answers: an account that is not the
 * owner's (404, as none), a folder, a file that is gone, an unknown or zero size, a name Mixroom
 * would not take from a browser either.
 */
export async function resolveLinkedFiles(
  deps: Pick<TransfersDeps, 'linkedDrive'>,
  ownerId: string,
  inputs: LinkedTransferFileInput[],
): Promise<ResolvedLinkedFile[]> {
  const drives = new Map<string, Drive>();
  const resolved: ResolvedLinkedFile[] = [];
  for (const input of inputs) {
    let drive = drives.get(input.connectorId);
    if (!drive) {
      drive = await deps.linkedDrive(ownerId, input.connectorId);
      drives.set(input.connectorId, drive);
    }
    const source = pathOf(input.path);
    const entry = await drive.stat(source);
    if (entry.kind !== 'file') throw AppError.badRequest(DRIVE_MESSAGES.notAFile, 'NOT_A_FILE');
    if (entry.size === null) throw new AppError(422, 'SIZE_UNKNOWN', LINKED_MESSAGES.sizeUnknown);
    if (entry.size === 0) throw AppError.badRequest(LINKED_MESSAGES.empty, 'EMPTY_FILE');
    const problem = fileNameProblem(entry.name);
    if (problem) throw AppError.badRequest(`${entry.name}: ${problem}`, 'BAD_FILE_NAME');
    resolved.push({
      connectorId: input.connectorId,
      source,
      folder: input.folder ?? '',
      fileName: entry.name,
      size: entry.size,
    });
  }
  return resolved;
}

function pathOf(path: string): string {
  try {
    return normalisePath(path);
  } catch {
    throw AppError.badRequest(DRIVE_MESSAGES.badPath, 'BAD_PATH');
  }
}
