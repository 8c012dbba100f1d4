import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { TransferDetail } from '@mixroom/contracts';
import { MESSAGES } from '@mixroom/shared';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useUploadOrchestrator } from '../../uploads/use-upload-orchestrator';
import type { PickedFile } from '../../uploads/walk-drop';
import { transfersApi } from '../api';
import { transferKeys } from '../queries';
import type { LinkedPick } from '../linked-pick';
import type { TransferDraftFields } from '../transfer-draft-store';
import { transferUploadScope } from '../upload-scope';
import { followLinkedCopies } from './follow-linked-copies';

/** Files of one transfer sent at once; each also sends its parts in parallel. */
const FILES_AT_ONCE = 3;
const folderOf = (path: string) => path.split('/').slice(0, -1).join('/');
/**
 * A file's row in the Activities panel: its own name first (the rows of one transfer differ there,
 * and a narrow panel cuts the end), then its folder, then the transfer.
 */
export const activityLabel = (relativePath: string, transferName: string) => {
  const folder = folderOf(relativePath);
  const file = relativePath.split('/').pop() ?? relativePath;
  return `${file}${folder ? ` (${folder})` : ''} · ${transferName}`;
};

export interface SendRequest {
  fields: TransferDraftFields;
  password: string;
  files: PickedFile[];
  /** Files the server copies from linked storage (no browser upload). */
  linked?: LinkedPick[];
}

/** A refusal the plan lifts: its code ends in _PLAN and the user is offered the pricing. */
export const isPlanRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.code.endsWith('_PLAN');

/**
 * Sends a transfer: the server checks the form and the plan and lays out its folders and files,
 * then every file from this computer travels through the upload orchestrator (parallel parts,
 * Activities panel, cancel, resume) while the server copies the files from linked storage, and the
 * transfer goes out once they are all in. Progress is in bytes over all files. Resolves with the
 * sent transfer, or null when nothing went (the reason was said).
 */
export function useSendTransfer(onPlanRefusal: (message: string) => void) {
  const orchestrator = useUploadOrchestrator();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);

  const run = useCallback(
    async ({ fields, password, files, linked = [] }: SendRequest): Promise<TransferDetail | null> => {
      setProgress(0);
      try {
        const transfer = await transfersApi.create({
          name: fields.name,
          message: fields.message,
          mode: fields.mode,
          recipients: fields.mode === 'email' ? fields.recipients : [],
          durationDays: fields.durationDays,
          password: password || null,
          files: files.map((f) => ({ path: folderOf(f.relativePath), fileName: f.file.name, size: f.file.size })),
          linked: linked.map((l) => ({ connectorId: l.connectorId, path: l.path })),
        });
        const total = files.reduce((sum, f) => sum + f.file.size, 0) + linked.reduce((sum, f) => sum + f.size, 0) || 1;
        const sent = new Map<number, number>();
        let copied = 0;
        const report = () =>
          setProgress(
            Math.min(99, Math.floor((([...sent.values()].reduce((a, b) => a + b, 0) + copied) / total) * 100)),
          );
        // The browser's files come first in the transfer, then those the server copies.
        const copies =
          linked.length > 0
            ? followLinkedCopies(
                transfer,
                files.length,
                (file) => activityLabel(file.path ? `${file.path}/${file.fileName}` : file.fileName, transfer.name),
                (bytes) => {
                  copied = bytes;
                  report();
                },
              )
            : Promise.resolve(null);
        const queue = files.map((picked, index) => ({ picked, index, file: transfer.files[index] }));
        const outcomes: string[] = [];
        const worker = async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const { picked, index, file } = next;
            if (!file) throw new Error(MESSAGES.genericError);
            const handle = orchestrator.start({
              file: picked.file,
              label: activityLabel(picked.relativePath, transfer.name),
              scope: transferUploadScope(transfer.id, file.id),
              ticket: () => transfersApi.uploadTicket(transfer.id, file.id),
              onProgress: (percent) => {
                sent.set(index, (picked.file.size * percent) / 100);
                report();
              },
            });
            outcomes.push((await handle.done).status);
          }
        };
        const [copiedTransfer] = await Promise.all([
          copies,
          ...Array.from({ length: Math.min(FILES_AT_ONCE, files.length) }, worker),
        ]);
        if (copiedTransfer?.status === 'failed') {
          notify('warning', 'The transfer was not sent', copiedTransfer.failure ?? MESSAGES.genericError, {
            sticky: true,
          });
          return null;
        }
        if (linked.length === 0 && !outcomes.includes('completed')) {
          notify('info', 'Transfer', 'The transfer was cancelled.');
          return null;
        }
        const done = await transfersApi.complete(transfer.id);
        setProgress(100);
        return done;
      } catch (error) {
        if (isPlanRefusal(error)) onPlanRefusal(error.message);
        else
          notify('warning', 'Warning', error instanceof Error && error.message ? error.message : MESSAGES.genericError);
        return null;
      } finally {
        setProgress(null);
        void queryClient.invalidateQueries({ queryKey: transferKeys.all });
      }
    },
    [orchestrator, queryClient, onPlanRefusal],
  );

  return { run, progress };
}
