import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { UploadTicket } from '@mixroom/contracts';
import { MESSAGES } from '@mixroom/shared';
import { api, ApiError } from '../../lib/api-client';
import { notify } from '../../lib/notify';
import { storageApi } from '../storage/api';
import { storageKeys } from '../storage/queries';
import { activitiesStore } from './activities-store';
import { fingerprint, pendingUploads } from './pending-uploads';
import { uploadFile } from './upload-engine';
import type { PickedFile } from './walk-drop';

const FILES_AT_ONCE = 2;
const dirname = (path: string) => path.split('/').slice(0, -1).join('/');

/**
 * Uploads picked or dropped files into a folder: missing sub-folders first, then a project per file,
 * each file's bytes straight to the store in parallel parts, shown in the Activities panel.
 */
export function useUploader() {
  const queryClient = useQueryClient();

  const uploadOne = useCallback(
    async (picked: PickedFile, folderId: string | null) => {
      const id = crypto.randomUUID();
      const controller = new AbortController();
      const print = fingerprint(picked.file, folderId);
      let ticket: Pick<UploadTicket, 'upload' | 'version'> | null = pendingUploads.find(print)?.ticket ?? null;
      activitiesStore.add({ id, kind: 'upload', name: picked.relativePath, state: 'Started', percent: 0 });
      try {
        if (ticket) {
          // Resuming: the session must still be open, else start over.
          const session = await api<{ status: string }>(`/api/uploads/${ticket.upload.id}`).catch(() => null);
          if (session?.status !== 'open') ticket = null;
        }
        ticket ??= await storageApi.uploadTicket(folderId, picked.file.name, picked.file.size);
        pendingUploads.save(print, ticket);
        const versionId = ticket.version.id;
        activitiesStore.update(id, {
          cancel: () => {
            controller.abort();
            pendingUploads.forget(print);
            activitiesStore.remove(id);
            void storageApi.cancelUpload(versionId).finally(() => queryClient.invalidateQueries({ queryKey: storageKeys.all }));
          },
        });
        await queryClient.invalidateQueries({ queryKey: storageKeys.all });
        await uploadFile({
          api,
          ticket,
          file: picked.file,
          signal: controller.signal,
          onProgress: ({ sentBytes, totalBytes }) => activitiesStore.update(id, { state: 'In Progress', percent: Math.floor((sentBytes / totalBytes) * 100) }),
        });
        pendingUploads.forget(print);
        activitiesStore.update(id, { state: 'Finished', percent: 100, cancel: undefined });
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = error instanceof ApiError || error instanceof Error ? error.message : MESSAGES.genericError;
        activitiesStore.update(id, { state: 'Error', error: message, cancel: undefined });
        if (error instanceof ApiError && error.code === 'STORAGE_LIMIT') notify('warning', 'Storage', message);
      } finally {
        await queryClient.invalidateQueries({ queryKey: storageKeys.all });
      }
    },
    [queryClient],
  );

  return useCallback(
    async (files: PickedFile[], groupId: string | null) => {
      if (files.length === 0) return;
      const folders = [...new Set(files.map((f) => dirname(f.relativePath)).filter(Boolean))];
      let ids: Record<string, string> = {};
      try {
        if (folders.length) ids = (await storageApi.ensureFolders(groupId, folders)).folders;
      } catch (error) {
        notify('error', MESSAGES.genericErrorTitle, error instanceof Error ? error.message : MESSAGES.genericError);
        return;
      }
      const queue = [...files];
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await uploadOne(next, ids[dirname(next.relativePath)] ?? groupId);
      };
      await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, files.length) }, worker));
    },
    [uploadOne],
  );
}
