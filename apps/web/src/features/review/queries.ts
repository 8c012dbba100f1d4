import { ApiError } from '../../lib/api-client';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { EventData, VersionDifference } from '@mixroom/contracts';
import { reviewApi } from './api';

export const reviewKeys = {
  all: ['review'] as const,
  comments: (versionId: string) => [...reviewKeys.all, 'comments', versionId] as const,
  note: (versionId: string) => [...reviewKeys.all, 'note', versionId] as const,
  peaks: (versionId: string) => [...reviewKeys.all, 'peaks', versionId] as const,
  spectrogram: (versionId: string) => [...reviewKeys.all, 'spectrogram', versionId] as const,
  stream: (versionId: string) => [...reviewKeys.all, 'stream', versionId] as const,
  difference: (versionId: string, otherVersionId: string) =>
    [...reviewKeys.all, 'difference', versionId, otherVersionId] as const,
  attachments: (projectId: string) => [...reviewKeys.all, 'attachments', projectId] as const,
};

export const useComments = (versionId: string | undefined) =>
  useQuery({
    queryKey: reviewKeys.comments(versionId ?? ''),
    queryFn: ({ signal }) => reviewApi.comments(versionId!, signal),
    enabled: Boolean(versionId),
  });

export const useNote = (versionId: string | null) =>
  useQuery({
    queryKey: reviewKeys.note(versionId ?? ''),
    queryFn: ({ signal }) => reviewApi.note(versionId!, signal),
    enabled: Boolean(versionId),
  });

/** Peaks never change for a version: fetched once, kept for the session. */
export const usePeaks = (versionId: string | undefined, enabled: boolean) =>
  useQuery({
    queryKey: reviewKeys.peaks(versionId ?? ''),
    queryFn: ({ signal }) => reviewApi.peaks(versionId!, signal),
    enabled: Boolean(versionId) && enabled,
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });

/** Whether an answer says the lossy preview (what plays when downloads are off) is still being made. */
export const isPreparingPreview = (error: unknown) => error instanceof ApiError && error.code === 'PREVIEW_PREPARING';

/**
 * The signed URL the player streams. With downloads off it is the lossy preview, which a fresh
 * upload gets a little after it is ready for review: until then the server answers 409 and this
 * asks again every few seconds.
 */
export const useStreamUrl = (versionId: string, enabled: boolean) =>
  useQuery({
    queryKey: reviewKeys.stream(versionId),
    queryFn: () => reviewApi.streamUrl(versionId),
    enabled,
    staleTime: 4 * 60_000,
    retry: (failures, error) => (isPreparingPreview(error) ? failures < 100 : failures < 2),
    retryDelay: (failures, error) => (isPreparingPreview(error) ? 3000 : Math.min(1000 * 2 ** failures, 10_000)),
    meta: { silent: true },
  });

/**
 * Where B differs from A. The first request starts the analysis on the server; while it runs, the
 * job's progress arrives as `difference.progress` events (see applyDifferenceProgress), and the
 * finished lane is fetched when it says ready. A slow poll stands in while the realtime connection
 * is down, so a lane never waits forever for an event that was missed.
 */
const differenceOptions = (versionId: string, otherVersionId: string | null) =>
  queryOptions({
    queryKey: reviewKeys.difference(versionId, otherVersionId ?? ''),
    queryFn: ({ signal }) => reviewApi.difference(versionId, otherVersionId!, false, signal),
    enabled: Boolean(otherVersionId),
    staleTime: Infinity,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 15_000 : false),
    meta: { silent: true },
  });

/** A lane's progress written into the cache in place; ready or failed, the lane is fetched. */
export function applyDifferenceProgress(queryClient: QueryClient, data: EventData<'difference.progress'>): void {
  const key = reviewKeys.difference(data.versionId, data.otherVersionId);
  const cached = queryClient.getQueryData<VersionDifference>(key);
  if (!cached) return;
  if (data.status !== 'pending') {
    void queryClient.invalidateQueries({ queryKey: key });
    return;
  }
  if (cached.status === 'pending' && data.progress > cached.progress)
    queryClient.setQueryData<VersionDifference>(key, { ...cached, progress: data.progress });
}

export const useDifference = (versionId: string, otherVersionId: string | null) =>
  useQuery(differenceOptions(versionId, otherVersionId));

/**
 * How much later B starts than A, once the comparison is ready (0 until then). Selected from the
 * lane's query, so the page re-renders when the offset changes, not on every progress poll.
 */
export const useDifferenceOffset = (versionId: string, otherVersionId: string | null) =>
  useQuery({
    ...differenceOptions(versionId, otherVersionId),
    select: (difference) => (difference.status === 'ready' ? (difference.offsetSeconds ?? 0) : 0),
  }).data ?? 0;

export const useSpectrogram = (versionId: string | undefined, enabled: boolean) =>
  useQuery({
    queryKey: reviewKeys.spectrogram(versionId ?? ''),
    queryFn: ({ signal }) => reviewApi.spectrogramUrl(versionId!, signal),
    enabled: Boolean(versionId) && enabled,
    staleTime: 30 * 60_000,
    // Null while the server renders it (202): asked again until the image is there.
    refetchInterval: (query) => (query.state.data === null ? 2_000 : false),
  });

export const useAttachments = (projectId: string | null) =>
  useQuery({
    queryKey: reviewKeys.attachments(projectId ?? ''),
    queryFn: ({ signal }) => reviewApi.attachments(projectId!, signal),
    enabled: Boolean(projectId),
  });

type AttachmentList = Awaited<ReturnType<typeof reviewApi.attachments>>;

/** Attachment lists with one attachment's processing progress and status applied, in place. */
export function applyAttachmentProgress(queryClient: QueryClient, event: EventData<'version.progress'>): void {
  for (const [key, data] of queryClient.getQueriesData<AttachmentList>({
    queryKey: [...reviewKeys.all, 'attachments'],
  })) {
    const item = data?.items.find((i) => i.id === event.projectId);
    const version = item?.latestVersion;
    if (
      !data ||
      !version ||
      version.id !== event.versionId ||
      (version.status === event.status && version.progress === event.progress)
    )
      continue;
    queryClient.setQueryData<AttachmentList>(key, {
      ...data,
      items: data.items.map((i) =>
        i === item ? { ...i, latestVersion: { ...version, status: event.status, progress: event.progress } } : i,
      ),
    });
    // What processing measured (duration, size) comes with the list: fetched again once it is ready.
    if (event.status === 'ready') void queryClient.invalidateQueries({ queryKey: key });
  }
}
