import { useCallback, useState } from 'react';
import { STORAGE_MESSAGES } from '@mixroom/shared';
import { notify } from '../../../lib/notify';
import type { PickedFile } from '../../uploads/walk-drop';
import { sameLinked, type LinkedPick } from '../linked-pick';
import { stillMissing, type MissingFile } from '../transfer-draft-store';
import { checkTransferSize, TRANSFER_TEXTS, type PickSource } from '../transfer-rules';

const bytesOf = (files: PickedFile[]) => files.reduce((sum, f) => sum + f.file.size, 0);
const linkedBytesOf = (files: LinkedPick[]) => files.reduce((sum, f) => sum + f.size, 0);

/**
 * The files of the transfer being made: from this computer, and from linked storage (the server
 * copies those). New files with a path already in the list replace it; a selection over the plan's
 * largest transfer is refused with the warning (a folder or a drop empties the list).
 */
export function useTransferSelection(maxBytes: number) {
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [missing, setMissing] = useState<MissingFile[]>([]);
  const [linked, setLinked] = useState<LinkedPick[]>([]);

  const add = useCallback(
    (all: PickedFile[], source: PickSource) => {
      // An empty file carries nothing to send (and the server refuses it).
      const picked = all.filter((p) => p.file.size > 0);
      if (picked.length < all.length) notify('warning', 'Warning', STORAGE_MESSAGES.emptyFile);
      if (picked.length === 0) return;
      const kept = files.filter((f) => !picked.some((p) => p.relativePath === f.relativePath));
      const verdict = checkTransferSize(bytesOf(kept) + linkedBytesOf(linked), bytesOf(picked), maxBytes, source);
      if (verdict.message) {
        notify('warning', 'Warning', verdict.message);
        if (verdict.clearList) setFiles([]);
        return;
      }
      if (source === 'drop') notify('info', 'Transfer', TRANSFER_TEXTS.filesAdded);
      setFiles([...kept, ...picked]);
      setMissing((current) => stillMissing(current, picked));
    },
    [files, linked, maxBytes],
  );

  /** Files picked in linked storage: one already in the list is not added twice. */
  const addLinked = useCallback(
    (picked: LinkedPick[]) => {
      const fresh = picked.filter((p) => p.size > 0 && !linked.some((l) => sameLinked(l, p)));
      if (fresh.length < picked.filter((p) => p.size > 0).length)
        notify('info', 'Transfer', TRANSFER_TEXTS.linkedTwice);
      if (picked.some((p) => p.size === 0)) notify('warning', 'Warning', STORAGE_MESSAGES.emptyFile);
      if (fresh.length === 0) return;
      const verdict = checkTransferSize(
        bytesOf(files) + linkedBytesOf(linked),
        linkedBytesOf(fresh),
        maxBytes,
        'files',
      );
      if (verdict.message) return notify('warning', 'Warning', verdict.message);
      setLinked([...linked, ...fresh]);
    },
    [files, linked, maxBytes],
  );

  const remove = useCallback((file: PickedFile) => setFiles((current) => current.filter((f) => f !== file)), []);
  const removeLinked = useCallback(
    (file: LinkedPick) => setLinked((current) => current.filter((f) => !sameLinked(f, file))),
    [],
  );

  const reset = useCallback((next: PickedFile[] = [], nextMissing: MissingFile[] = []) => {
    setFiles(next);
    setMissing(nextMissing);
    setLinked([]);
  }, []);

  return {
    files,
    missing,
    linked,
    totalBytes: bytesOf(files) + linkedBytesOf(linked),
    add,
    remove,
    addLinked,
    removeLinked,
    reset,
  };
}
