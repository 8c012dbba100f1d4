import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-client';
import { notify } from '../../lib/notify';
import { publicTransfersApi, transfersApi } from './api';
import { fileRequestsApi } from './file-requests-api';

export const transferKeys = {
  all: ['transfers'] as const,
  list: () => [...transferKeys.all, 'list'] as const,
  detail: (id: string) => [...transferKeys.all, 'detail', id] as const,
  downloads: (id: string) => [...transferKeys.all, 'downloads', id] as const,
  publicHead: (token: string) => [...transferKeys.all, 'public', token, 'head'] as const,
  publicContent: (token: string, grant: string) => [...transferKeys.all, 'public', token, 'content', grant] as const,
  peaks: (fileId: string) => [...transferKeys.all, 'peaks', fileId] as const,
  requests: () => [...transferKeys.all, 'requests'] as const,
  publicRequest: (token: string) => [...transferKeys.all, 'public-request', token] as const,
};

/** The signed-in user's transfers, newest first (the server sorts). */
export const useTransfers = () =>
  useQuery({ queryKey: transferKeys.list(), queryFn: ({ signal }) => transfersApi.list(signal) });

/** One transfer; `enabled` false stops it (a page leaving after Delete or Expire now asks nothing more). */
export const useTransfer = (id: string, enabled = true) =>
  useQuery({
    queryKey: transferKeys.detail(id),
    queryFn: ({ signal }) => transfersApi.get(id, signal),
    enabled,
    retry: false,
    meta: { silent: true },
  });

export const useTransferDownloads = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: transferKeys.downloads(id),
    queryFn: ({ signal }) => transfersApi.downloads(id, signal),
    enabled,
  });

/** Every change to a transfer refreshes the history, the open transfer and its log. */
function useTransferMutation<V, R>(fn: (vars: V) => Promise<R>, done?: (result: R, vars: V) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: done,
    onSettled: () => queryClient.invalidateQueries({ queryKey: transferKeys.all }),
  });
}

export const useDeleteTransfer = () =>
  useTransferMutation(
    (id: string) => transfersApi.remove(id),
    () => notify('success', 'Transfer', 'Transfer deleted'),
  );

export const useExpireTransfer = () =>
  useTransferMutation(
    (id: string) => transfersApi.expire(id),
    () => notify('success', 'Transfer', 'The transfer has expired.'),
  );

export const useUpdateTransfer = (id: string) =>
  useTransferMutation((body: { expiresAt?: string; password?: string | null }) => transfersApi.update(id, body));

export const useReloadTransfer = () =>
  useTransferMutation((vars: { id: string; durationDays: number }) => transfersApi.reload(vars.id, vars.durationDays));

/** A link's title, expiry and whether it asks for a password; a 410/404 means it is gone. */
export const usePublicTransferHead = (token: string | null) =>
  useQuery({
    queryKey: transferKeys.publicHead(token ?? ''),
    queryFn: ({ signal }) => publicTransfersApi.head(token ?? '', signal),
    enabled: Boolean(token),
    retry: false,
    meta: { silent: true },
  });

/** How often a recipient's page looks again while files are still being processed (peaks, checksums). */
const PROCESSING_POLL_MS = 3000;

export const usePublicTransferContent = (token: string, grant: string | null) =>
  useQuery({
    queryKey: transferKeys.publicContent(token, grant ?? ''),
    queryFn: ({ signal }) => publicTransfersApi.content(token, grant ?? '', signal),
    enabled: Boolean(grant),
    retry: false,
    // A renewed grant is a new key: the tiles stay while it loads.
    placeholderData: (previous) => previous,
    // Opened right after it was sent, a file may still be getting its waveform and checksum.
    refetchInterval: (query) =>
      query.state.data?.files.some((f) => f.status === 'processing' || f.sha256 === null) ? PROCESSING_POLL_MS : false,
    meta: { silent: true },
  });

/** Peaks never change for a file: fetched once per page. */
export const useTransferPeaks = (fileId: string, url: string | null) =>
  useQuery({
    queryKey: transferKeys.peaks(fileId),
    queryFn: ({ signal }) => publicTransfersApi.peaks(url ?? '', signal),
    enabled: Boolean(url),
    staleTime: Infinity,
    retry: 1,
    meta: { silent: true },
  });

/** Whether an answer says the link is gone (expired, deleted, unknown). */
export const isTransferGone = (error: unknown) =>
  error instanceof ApiError && (error.status === 410 || error.status === 404 || error.status === 400);

/** The owner's live file request links (what came in through each is counted). */
export const useFileRequests = () =>
  useQuery({ queryKey: transferKeys.requests(), queryFn: ({ signal }) => fileRequestsApi.list(signal) });

export const useCreateFileRequest = () =>
  useTransferMutation((body: { message: string; maxBytes: number | null }) => fileRequestsApi.create(body));

export const useRevokeFileRequest = () =>
  useTransferMutation(
    (id: string) => fileRequestsApi.revoke(id),
    () => notify('success', 'File request', 'The link no longer accepts files.'),
  );

/** Who asks for files through a link; a 410/404 means it was turned off or never existed. */
export const usePublicFileRequest = (token: string) =>
  useQuery({
    queryKey: transferKeys.publicRequest(token),
    queryFn: ({ signal }) => fileRequestsApi.open(token, signal),
    enabled: Boolean(token),
    retry: false,
    meta: { silent: true },
  });
