import type { TransferDetail } from '@mixroom/contracts';
import { activitiesStore } from '../../uploads/activities-store';
import { transfersApi } from '../api';

/** How often the transfer is asked for while the server copies its linked files. */
const FOLLOW_EVERY_MS = 1000;
/** Answers missed in a row before the screen stops following (the copies go on on the server). */
const MISSES_ALLOWED = 10;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const activityId = (fileId: string) => `transfer-copy-${fileId}`;

/**
 * Follows the server's copies of a transfer's files from linked storage (its files from `first` on)
 * until all are stored or the transfer failed. Each has a row in the Activities panel; `onBytes`
 * hears how many of their bytes are stored. Resolves with the transfer as last seen.
 */
export async function followLinkedCopies(
  transfer: TransferDetail,
  first: number,
  label: (file: TransferDetail['files'][number]) => string,
  onBytes: (bytes: number) => void,
): Promise<TransferDetail> {
  const ids = new Set(transfer.files.slice(first).map((f) => f.id));
  for (const file of transfer.files.slice(first))
    activitiesStore.add({ id: activityId(file.id), kind: 'upload', name: label(file), state: 'Started', percent: 0 });
  let misses = 0;
  for (;;) {
    let current: TransferDetail;
    try {
      current = await transfersApi.get(transfer.id);
      misses = 0;
    } catch (error) {
      if (++misses >= MISSES_ALLOWED) throw error;
      await wait(FOLLOW_EVERY_MS);
      continue;
    }
    const linked = current.files.filter((f) => ids.has(f.id));
    const failed = current.status === 'failed';
    onBytes(linked.reduce((sum, f) => sum + (f.status === 'uploading' ? (f.size * f.storedPercent) / 100 : f.size), 0));
    for (const file of linked) {
      const id = activityId(file.id);
      if (file.status !== 'uploading') activitiesStore.update(id, { state: 'Finished', percent: 100 });
      else if (failed)
        activitiesStore.update(id, { state: 'Error', error: file.error ?? current.failure ?? 'Not sent.' });
      else activitiesStore.update(id, { state: 'In Progress', percent: file.storedPercent });
    }
    if (failed || linked.every((f) => f.status !== 'uploading')) return current;
    await wait(FOLLOW_EVERY_MS);
  }
}
