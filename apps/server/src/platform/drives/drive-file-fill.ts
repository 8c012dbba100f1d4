import type { PartialBlob } from '../blob/blob-store';
import { DomainError } from '../errors/domain-error';
import type { Drive } from './drive';
import type { DriveNetwork } from './drive-http';
import { getIntoFile } from './file-get';

/** A store's way to fill an upload's local file (UploadsService.fillWhole), bound to one upload. */
export type FillUpload = (fill: (partial: PartialBlob) => Promise<number | null>) => Promise<boolean>;

/**
 * A linked file copied the fast way: the provider's GET is sent from a thread of its own that writes
 * the body straight into the upload's local file (see getIntoFile), with the same address checks and
 * the same guards as a stream (another length than listed is a changed file). An attempt that was
 * cut (a provider's error mid-file, a worker that died) leaves its bytes, and the next asks only for
 * the rest (Range) when the file at the provider is the one they came from: same size and same
 * modification time as noted before the first byte. Only where the drive's read is one GET and the
 * store keeps local files; false when the caller must stream instead.
 */
export async function fillFromDrive(input: {
  drive: Drive;
  path: string;
  /** The size the file was listed with; another one is `changed`. */
  total: number;
  network: DriveNetwork;
  fillUpload: FillUpload;
  /** The message of a file that changed at the provider. */
  changed: string;
  onBytes: (done: number) => void;
  signal: AbortSignal;
  /** Told when an attempt goes on from where an earlier one was cut. */
  onResume?: (from: number) => void;
}): Promise<boolean> {
  const { drive, path, total, signal } = input;
  const getRequest = drive.getRequest?.bind(drive);
  if (!getRequest) return false;
  return input.fillUpload(async (partial) => {
    const source = await drive.stat(path, signal);
    if (source.kind !== 'file' || source.size !== total) throw new DomainError(409, 'FILE_CHANGED', input.changed);
    // Without a modification time nothing tells an edited file from the one the bytes came from.
    const note = source.modifiedAt === null ? null : `${total} ${source.modifiedAt}`;
    const from = note !== null && partial.note === note && partial.bytes < total ? partial.bytes : 0;
    if (note !== null && partial.note !== note) await partial.setNote(note);
    const range = from > 0 ? { start: from, end: total - 1 } : null;
    if (from > 0) input.onResume?.(from);
    const outcome = await getIntoFile(await getRequest(path, range ?? undefined), input.network, {
      path: partial.path,
      position: from,
      range,
      expected: total - from,
      changed: input.changed,
      onBytes: (done) => input.onBytes(from + done),
      signal,
    });
    return outcome.copied ? total : null;
  });
}
