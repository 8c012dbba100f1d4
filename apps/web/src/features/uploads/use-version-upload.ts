import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, ApiError } from '../../lib/api-client';
import { storageApi } from '../storage/api';
import { storageKeys } from '../storage/queries';
import { activitiesStore } from './activities-store';
import { uploadFile } from './upload-engine';

/** Uploads a new version of a project, with progress in the Activities panel. */
export function useVersionUpload() {
  const queryClient = useQueryClient();
  return useCallback(
    async (projectId: string, name: string, file: File) => {
      const id = crypto.randomUUID();
      const controller = new AbortController();
      activitiesStore.add({ id, kind: 'upload', name: file.name, state: 'Started', percent: 0 });
      try {
        const ticket = await storageApi.versionTicket(projectId, name, file.name, file.size);
        activitiesStore.update(id, {
          cancel: () => {
            controller.abort();
            activitiesStore.remove(id);
            void storageApi.cancelUpload(ticket.version.id).finally(() => queryClient.invalidateQueries({ queryKey: storageKeys.all }));
          },
        });
        await uploadFile({
          api,
          ticket,
          file,
          signal: controller.signal,
          onProgress: ({ sentBytes, totalBytes }) => activitiesStore.update(id, { state: 'In Progress', percent: Math.floor((sentBytes / totalBytes) * 100) }),
        });
        activitiesStore.update(id, { state: 'Finished', percent: 100, cancel: undefined });
      } catch (error) {
        if (!controller.signal.aborted)
          activitiesStore.update(id, {
            state: 'Error',
            error: error instanceof ApiError || error instanceof Error ? error.message : String(error),
            cancel: undefined,
          });
        throw error;
      } finally {
        await queryClient.invalidateQueries({ queryKey: storageKeys.all });
      }
    },
    [queryClient],
  );
}
