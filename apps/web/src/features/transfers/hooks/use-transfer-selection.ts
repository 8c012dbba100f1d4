import { useCallback, useState } from 'react';
import { STORAGE_MESSAGES } from '@mixroom/shared';
import { notify } from '../../../lib/notify';
import type { PickedFile } from '../../uploads/walk-drop';
import { stillMissing, type MissingFile } from '../transfer-draft-store';
import { checkTransferSize, TRANSFER_TEXTS, type PickSource } from '../transfer-rules';

const bytesOf = (files: PickedFile[]) => files.reduce((sum, f) => sum + f.file.size, 0);

/**
 * The files of the transfer being made. New files with a path already in the list replace it; a
 * selection over the plan's largest transfer is refused with the warning (a folder or a drop
 * empties the list).
 */
export function useTransferSelection(maxBytes: number) {
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [missing, setMissing] = useState<MissingFile[]>([]);

  const add = useCallback(
    (all: PickedFile[], source: PickSource) => {
      // An empty file carries nothing to send (and the server refuses it).
      const picked = all.filter((p) => p.file.size > 0);
      if (picked.length < all.length) notify('warning', 'Warning', STORAGE_MESSAGES.emptyFile);
      if (picked.length === 0) return;
      const kept = files.filter((f) => !picked.some((p) => p.relativePath === f.relativePath));
      const verdict = checkTransferSize(bytesOf(kept), bytesOf(picked), maxBytes, source);
      if (verdict.message) {
        notify('warning', 'Warning', verdict.message);
        if (verdict.clearList) setFiles([]);
        return;
      }
      if (source === 'drop') notify('info', 'Transfer', TRANSFER_TEXTS.filesAdded);
      setFiles([...kept, ...picked]);
      setMissing((current) => stillMissing(current, picked));
    },
    [files, maxBytes],
  );

  const remove = useCallback((file: PickedFile) => setFiles((current) => current.filter((f) => f !== file)), []);

  const reset = useCallback((next: PickedFile[] = [], nextMissing: MissingFile[] = []) => {
    setFiles(next);
    setMissing(nextMissing);
  }, []);

  return { files, missing, totalBytes: bytesOf(files), add, remove, reset };
}
