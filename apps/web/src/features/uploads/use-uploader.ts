import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { MESSAGES } from '@mixroom/shared';
import { ApiError } from '../../lib/api-client';
import { notify } from '../../lib/notify';
import { storageApi } from '../storage/api';
import { storageKeys } from '../storage/queries';
import { useUploadOrchestrator } from './use-upload-orchestrator';
import type { PickedFile } from './walk-drop';

const FILES_AT_ONCE = 2;
const dirname = (path: string) => path.split('/').slice(0, -1).join('/');

/**
 * Uploads picked or dropped files into a folder: missing sub-folders first, then a project per file,
 * each file through the upload orchestrator (parallel parts, Activities, cancel, resume).
 */
export function useUploader() {
  const queryClient = useQueryClient();
  const orchestrator = useUploadOrchestrator();

  const uploadOne = useCallback(
    async (picked: PickedFile, folderId: string | null) => {
      const refresh = () => queryClient.invalidateQueries({ queryKey: storageKeys.all });
      const handle = orchestrator.start({
        file: picked.file,
        label: picked.relativePath,
        scope: `folder:${folderId ?? 'root'}`,
        ticket: () => storageApi.uploadTicket(folderId, picked.file.name, picked.file.size),
        // The new project's tile shows 'Uploading…' while the bytes travel.
        onTicket: () => void refresh(),
      });
      try {
        await handle.done;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'STORAGE_LIMIT') notify('warning', 'Storage', error.message);
      } finally {
        await refresh();
      }
    },
    [queryClient, orchestrator],
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
        for (let next = queue.shift(); next; next = queue.shift())
          await uploadOne(next, ids[dirname(next.relativePath)] ?? groupId);
      };
      await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, files.length) }, worker));
    },
    [uploadOne],
  );
}
