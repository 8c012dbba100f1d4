import { useCallback, useState } from 'react';
import { endpointUrl, publicTransferEndpoints } from '@mixroom/contracts';
import { notify } from '../../../lib/notify';
import { transfersApi } from '../api';
import { downloadWithProgress } from '../download-with-progress';

/** The link's secret, as the recipient link carries it (?transferId=…). */
export const tokenOfLink = (link: string) => new URL(link, window.location.origin).searchParams.get('transferId') ?? '';

/**
 * Download all, as one ZIP: `grant` opens the transfer (the owner's own, or the recipient's after
 * the password). Percent while it runs (-1 when the browser's downloader shows it), null otherwise.
 */
export function useTransferZip() {
  const [percent, setPercent] = useState<number | null>(null);
  const run = useCallback(async (token: string, grant: () => Promise<string>, size: number, name: string) => {
    setPercent(0);
    try {
      const url = endpointUrl(publicTransferEndpoints.zip, { token }, { g: await grant() });
      await downloadWithProgress(url, size, `${name}.zip`, setPercent);
    } catch (error) {
      notify('error', 'Download', error instanceof Error ? error.message : String(error));
    } finally {
      setPercent(null);
    }
  }, []);
  return { run, percent, busy: percent !== null };
}

/** The owner's grant to their own transfer's files. */
export const ownerGrant = (transferId: string) => () => transfersApi.ownerGrant(transferId).then((g) => g.grant);
