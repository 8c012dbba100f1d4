import { useMutation } from '@tanstack/react-query';
import type { Version } from '@mixroom/contracts';
import { storageApi } from '../api';

/** Downloads a version through its signed URL: the browser streams it to disk under its own name. */
export function useDownloadVersion() {
  return useMutation({
    mutationFn: async (version: Pick<Version, 'id'>) => {
      const { url } = await storageApi.downloadUrl(version.id);
      const link = document.createElement('a');
      link.href = url;
      link.rel = 'noopener';
      document.body.appendChild(link);
      link.click();
      link.remove();
    },
  });
}
