import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConnectorKind, ConnectorTransfer, OAuthConnectorKind } from '@mixroom/contracts';
import { activitiesStore } from '../uploads/activities-store';
import {
  browseConnector,
  finishOAuthLink,
  getConnectors,
  getConnectorTransfers,
  linkConnector,
  startOAuthLink,
  unlinkConnector,
} from './api';

export const connectorKeys = {
  all: () => ['connectors'] as const,
  list: () => [...connectorKeys.all(), 'list'] as const,
  folder: (id: string, path: string, search: string) => [...connectorKeys.all(), 'folder', id, path, search] as const,
};

export const CONNECTOR_LABELS: Record<ConnectorKind, string> = {
  webdav: 'Nextcloud / WebDAV',
  s3: 'S3-compatible bucket',
  dropbox: 'Dropbox',
  gdrive: 'Google Drive',
};

/** Kinds linked through the provider's own consent page rather than a form. */
export const isOAuthKind = (kind: ConnectorKind): kind is OAuthConnectorKind => kind === 'dropbox' || kind === 'gdrive';

/** The kinds the operator enabled and the accounts I linked (never their credentials). */
export function useConnectors() {
  return useQuery({ queryKey: connectorKeys.list(), queryFn: ({ signal }) => getConnectors(signal) });
}

/** One folder of a linked account; the previous folder stays on screen while the next one loads. */
export function useConnectorFolder(id: string | null, path: string, search: string) {
  return useQuery({
    queryKey: connectorKeys.folder(id ?? '', path, search),
    queryFn: ({ signal }) => browseConnector(id!, path, search, signal),
    enabled: id !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Link or unlink: the list refreshes, and every cached folder of an unlinked account goes. */
export function useLinkConnector() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: linkConnector,
    // The dialog shows the provider's refusal in place.
    meta: { silent: true },
    onSuccess: () => client.invalidateQueries({ queryKey: connectorKeys.all() }),
  });
}

/** Link Dropbox / Google Drive: the browser leaves for the provider's consent page. */
export function useStartOAuthLink() {
  return useMutation({
    mutationFn: startOAuthLink,
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/** Back in Settings from the provider: the card shows the outcome in place. */
export function useFinishOAuthLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: finishOAuthLink,
    meta: { silent: true },
    // The page's first list request may have left before the account existed; a refetch would join
    // that request (the list has no data yet), so it is cancelled first and asked again.
    onSettled: async () => {
      await client.cancelQueries({ queryKey: connectorKeys.all() });
      await client.invalidateQueries({ queryKey: connectorKeys.all() });
    },
  });
}

export function useUnlinkConnector() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: unlinkConnector,
    onSuccess: () => client.invalidateQueries({ queryKey: connectorKeys.all() }),
  });
}

/** How often a running copy's progress is asked for while the Activities panel shows it. */
const FOLLOW_EVERY_MS = 1000;

/**
 * Shows a copy the server makes (an import or a "Save to…") in the Activities panel until it ends.
 * The copy runs on the server whatever this page does; this only reports it, so it lives outside any
 * component and survives the dialog that started it.
 */
export function followTransfer(transfer: ConnectorTransfer, label: string): void {
  const id = `connector-${transfer.id}`;
  activitiesStore.add({
    id,
    kind: transfer.direction === 'import' ? 'upload' : 'download',
    name: label,
    state: 'Started',
    percent: 0,
  });
  const poll = async () => {
    let current: ConnectorTransfer | undefined;
    try {
      current = (await getConnectorTransfers()).transfers.find((t) => t.id === transfer.id);
    } catch {
      current = undefined;
    }
    if (current?.status === 'done') return activitiesStore.update(id, { state: 'Finished', percent: 100 });
    if (current?.status === 'failed')
      return activitiesStore.update(id, { state: 'Error', error: current.error ?? 'The copy failed.' });
    if (current)
      activitiesStore.update(id, {
        state: 'In Progress',
        percent: current.bytesTotal ? Math.floor((current.bytesDone / current.bytesTotal) * 100) : 0,
      });
    setTimeout(() => void poll(), FOLLOW_EVERY_MS);
  };
  void poll();
}
