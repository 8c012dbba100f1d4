import { useCallback, useMemo, useState } from 'react';
import { MESSAGES } from '@mixroom/shared';
import { activitiesStore } from '../../uploads/activities-store';
import { pendingStore } from '../../uploads/pending-uploads';
import { UploadOrchestrator } from '../../uploads/upload-orchestrator';
import type { PickedFile } from '../../uploads/walk-drop';
import { fileRequestsApi, requestUploadCalls } from '../file-requests-api';

/** Files sent at once; each also sends its parts in parallel. */
const FILES_AT_ONCE = 3;
const folderOf = (path: string) => path.split('/').slice(0, -1).join('/');

/** A tab-local store: an uploader without an account resumes by sending again while the page is open. */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

export interface RequestUploadForm {
  name: string;
  email: string;
  message: string;
}

export type RequestUploadResult = { status: 'sent'; fileCount: number } | { status: 'cancelled' };

/**
 * Uploads through a file request link: the server checks the size against the request and lays
 * out the owner's transfer, then every file goes through an upload orchestrator whose calls carry
 * the upload grant (parallel parts straight to the store, progress, cancel in the Activities
 * panel). Progress is in bytes over all files.
 */
export function useRequestUpload(token: string) {
  const [progress, setProgress] = useState<number | null>(null);
  const storage = useMemo(() => memoryStorage(), []);

  const run = useCallback(
    async (form: RequestUploadForm, files: PickedFile[]): Promise<RequestUploadResult> => {
      setProgress(0);
      try {
        const started = await fileRequestsApi.start(token, {
          ...form,
          files: files.map((f) => ({ path: folderOf(f.relativePath), fileName: f.file.name, size: f.file.size })),
        });
        const calls = requestUploadCalls(token, started.transferId, started.uploadGrant);
        const orchestrator = new UploadOrchestrator({
          api: calls.session,
          // Nothing to undo on the server: an abandoned upload session is swept with its parts.
          cancelOnServer: () => Promise.resolve(),
          scopeCalls: (scope) => {
            const fileId = scope.split(':')[2] ?? '';
            return {
              complete: (_versionId, signal) => calls.complete(fileId, signal),
              cancel: () => Promise.resolve(),
            };
          },
          activities: activitiesStore,
          pending: pendingStore(() => storage),
        });
        const total = files.reduce((sum, f) => sum + f.file.size, 0) || 1;
        const sent = new Map<number, number>();
        const report = () =>
          setProgress(Math.min(99, Math.floor(([...sent.values()].reduce((a, b) => a + b, 0) / total) * 100)));
        const queue = files.map((picked, index) => ({ picked, index, file: started.files[index] }));
        let completed = 0;
        const worker = async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const { picked, index, file } = next;
            if (!file) throw new Error(MESSAGES.genericError);
            const handle = orchestrator.start({
              file: picked.file,
              label: picked.relativePath,
              scope: `request:${started.transferId}:${file.id}`,
              ticket: () => calls.ticket(file.id),
              onProgress: (percent) => {
                sent.set(index, (picked.file.size * percent) / 100);
                report();
              },
            });
            if ((await handle.done).status === 'completed') completed += 1;
          }
        };
        await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, files.length) }, worker));
        setProgress(100);
        return completed > 0 ? { status: 'sent', fileCount: completed } : { status: 'cancelled' };
      } finally {
        setProgress(null);
      }
    },
    [token, storage],
  );

  return { run, progress };
}
