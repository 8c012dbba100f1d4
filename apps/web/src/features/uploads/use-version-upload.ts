import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { storageApi } from '../storage/api';
import { storageKeys } from '../storage/queries';
import { useUploadOrchestrator } from './use-upload-orchestrator';

/**
 * Uploads a new version of a project through the upload orchestrator. Resolves when the version is
 * in (or the user cancelled it); rejects with the failure, which the Activities panel also shows.
 */
export function useVersionUpload() {
  const queryClient = useQueryClient();
  const orchestrator = useUploadOrchestrator();
  return useCallback(
    async (projectId: string, name: string, file: File) => {
      const handle = orchestrator.start({
        file,
        label: file.name,
        scope: `version:${projectId}`,
        ticket: () => storageApi.versionTicket(projectId, name, file.name, file.size),
      });
      try {
        await handle.done;
      } finally {
        await queryClient.invalidateQueries({ queryKey: storageKeys.all });
      }
    },
    [queryClient, orchestrator],
  );
}
