import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DURATIONS_MAX,
  type ConnectorKind,
  type ConnectorTransfer,
  type DriveEntry,
  type OAuthConnectorKind,
} from '@mixroom/contracts';
import { extensionOf, isAudioExtension } from '@mixroom/shared';
import { activitiesStore } from '../uploads/activities-store';
import {
  browseConnector,
  finishOAuthLink,
  getConnectorDurations,
  getConnectorPreview,
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
  preview: (id: string, path: string) => [...connectorKeys.all(), 'preview', id, path] as const,
  durations: (id: string, files: readonly string[]) => [...connectorKeys.all(), 'durations', id, files] as const,
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

/** A linked audio file's preview link; links live 30 minutes, so one fetched in the last 20 is reused. */
export function useConnectorPreview(id: string, path: string) {
  return useQuery({
    queryKey: connectorKeys.preview(id, path),
    queryFn: ({ signal }) => getConnectorPreview(id, path, signal),
    staleTime: 20 * 60_000,
    gcTime: 20 * 60_000,
    // A new link would restart the playing file: the one in use lives its 30 minutes.
    refetchOnReconnect: false,
    refetchOnWindowFocus: false,
    retry: false,
    // The preview says what went wrong in place; no toast besides.
    meta: { silent: true },
  });
}

/**
 * How long the audio files among `entries` are (the first DURATIONS_MAX of them), read by the server
 * from their headers; by path, null where the header does not say. Each file is keyed by its listed
 * size and date, so a file changed at the provider is read again.
 */
export function useConnectorDurations(id: string, entries: readonly DriveEntry[]) {
  const files = entries
    .filter((entry) => entry.kind === 'file' && isAudioExtension(extensionOf(entry.name)))
    .slice(0, DURATIONS_MAX)
    .map(({ path, size, modifiedAt }) => ({ path, size, modifiedAt }));
  return useQuery({
    queryKey: connectorKeys.durations(
      id,
      files.map((file) => `${file.path}\u0000${file.size}\u0000${file.modifiedAt}`),
    ),
    queryFn: ({ signal }) => getConnectorDurations(id, files, signal),
    enabled: files.length > 0,
    staleTime: 10 * 60_000,
    retry: false,
    // A length is a nicety beside each row: a refusal shows nothing rather than a toast.
    meta: { silent: true },
  });
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
