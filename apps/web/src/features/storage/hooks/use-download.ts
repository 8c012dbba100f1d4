import { useMutation } from '@tanstack/react-query';
import type { Version } from '@mixroom/contracts';
import { startBrowserDownload } from '../../../lib/download';
import { notify } from '../../../lib/notify';
import { activitiesStore } from '../../uploads/activities-store';
import { storageApi, type ItemRef } from '../api';

/** Downloads a version through its signed URL: the browser streams it to disk under its own name. */
export function useDownloadVersion() {
  return useMutation({
    mutationFn: async (version: Pick<Version, 'id'>) =>
      startBrowserDownload((await storageApi.downloadUrl(version.id)).url),
  });
}

/**
 * A selection or folders as one ZIP. The browser streams it to disk itself, in a hidden frame so the
 * page stays; the server reports progress over the realtime channel, which the Activities panel
 * shows. A refusal (before or after the archive was prepared) is said in a toast and ends the entry.
 */
export function useDownloadZip() {
  return useMutation({
    meta: { silent: true },
    mutationFn: async (items: ItemRef[]) => {
      const prepared = await storageApi.prepareZip(items);
      activitiesStore.add({
        id: prepared.downloadId,
        kind: 'download',
        name: prepared.fileName,
        state: 'Started',
        percent: 0,
      });
      startBrowserDownload(prepared.url, (message) => {
        activitiesStore.update(prepared.downloadId, { state: 'Error', error: message });
        notify('error', 'Download', message);
      });
    },
    onError: (error) => notify('error', 'Download', error instanceof Error ? error.message : String(error)),
  });
}
