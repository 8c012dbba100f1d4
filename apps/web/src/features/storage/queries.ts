import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { EventData, ListFilters, Listing, ProjectItem, Version } from '@mixroom/contracts';
import { storageApi, type ItemRef } from './api';

export const storageKeys = {
  all: ['storage'] as const,
  listing: (groupId: string | null, query: ListFilters) =>
    [...storageKeys.all, 'listing', groupId ?? 'root', query] as const,
  project: (id: string) => [...storageKeys.all, 'project', id] as const,
  trash: (sort: string) => [...storageKeys.all, 'trash', sort] as const,
  search: (q: string) => [...storageKeys.all, 'search', q] as const,
  usage: () => [...storageKeys.all, 'usage'] as const,
  folders: () => [...storageKeys.all, 'folders'] as const,
};

/** A folder's content, 200 items a page; the grid asks for the next page as it scrolls. */
export function useListing(groupId: string | null, query: ListFilters) {
  return useInfiniteQuery({
    queryKey: storageKeys.listing(groupId, query),
    queryFn: ({ signal, pageParam }) => storageApi.list(groupId, query, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextOffset ?? undefined,
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}

const fetchProject = (id: string, signal?: AbortSignal) => storageApi.project(id, signal);

export function useProject(id: string | null) {
  return useQuery({
    queryKey: storageKeys.project(id ?? ''),
    queryFn: ({ signal }) => fetchProject(id ?? '', signal),
    enabled: Boolean(id),
  });
}

export function useTrash(sort: 'newest' | 'alphabetical') {
  return useQuery({
    queryKey: storageKeys.trash(sort),
    queryFn: ({ signal }) => storageApi.listTrash(sort, signal),
    placeholderData: keepPreviousData,
  });
}

export function useFolders(enabled: boolean) {
  return useQuery({ queryKey: storageKeys.folders(), queryFn: ({ signal }) => storageApi.folders(signal), enabled });
}

export function useSearch(q: string) {
  return useQuery({
    queryKey: storageKeys.search(q),
    queryFn: ({ signal }) => storageApi.search(q, signal),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** Every storage mutation refreshes every storage view: listings are small and realtime does the same. */
function useStorageMutation<V, R>(fn: (vars: V) => Promise<R>, meta?: Record<string, unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: storageKeys.all }),
    ...(meta ? { meta } : {}),
  });
}

export const useCreateFolder = () =>
  useStorageMutation((v: { name: string; parentId: string | null }) => storageApi.createFolder(v.name, v.parentId), {
    silent: true,
  });
export const useUpdateGroup = () =>
  useStorageMutation(
    (v: { id: string; patch: Parameters<typeof storageApi.updateGroup>[1] }) => storageApi.updateGroup(v.id, v.patch),
    { silent: true },
  );
export const useCreateProject = () =>
  useStorageMutation((v: { name: string; groupId: string | null }) => storageApi.createProject(v.name, v.groupId), {
    silent: true,
  });
export const useUpdateProject = () =>
  useStorageMutation(
    (v: { id: string; patch: Parameters<typeof storageApi.updateProject>[1] }) =>
      storageApi.updateProject(v.id, v.patch),
    { silent: true },
  );
export const useTrashItems = () => useStorageMutation((items: ItemRef[]) => storageApi.trash(items));
export const useRecoverItems = () => useStorageMutation((items: ItemRef[]) => storageApi.recover(items));
export const useDeleteForever = () => useStorageMutation((items: ItemRef[]) => storageApi.deleteForever(items));
export const useEmptyTrash = () => useStorageMutation(() => storageApi.emptyTrash());
export const useMoveItems = () =>
  useStorageMutation(async (v: { items: ItemRef[]; to: string | null }) => {
    for (const item of v.items) {
      if (item.kind === 'group') await storageApi.updateGroup(item.id, { parentId: v.to });
      else await storageApi.updateProject(item.id, { groupId: v.to });
    }
  });
export const useRenameVersion = () =>
  useStorageMutation((v: { id: string; name: string }) => storageApi.renameVersion(v.id, v.name), { silent: true });
export const useDeleteVersion = () =>
  useStorageMutation((v: { id: string }) => storageApi.deleteVersion(v.id), { silent: true });

export type ListingPages = InfiniteData<Listing, number>;
export type ProjectDetail = Awaited<ReturnType<typeof storageApi.project>>;
export type VersionProgress = EventData<'version.progress'>;

/** A version whose processing ended: what it brings (thumbnail, media facts) needs one fetch. */
export const isFinished = (status: Version['status']) => status === 'ready' || status === 'corrupt';

const withProgress = (version: Version, event: VersionProgress): Version =>
  version.progress === event.progress && version.status === event.status
    ? version
    : { ...version, progress: event.progress, status: event.status };

function mapProjects(data: ListingPages, projectId: string, update: (item: ProjectItem) => ProjectItem): ListingPages {
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.items.some((item) => item.kind === 'project' && item.id === projectId)) return page;
    const items = page.items.map((item) => {
      if (item.kind !== 'project' || item.id !== projectId) return item;
      const next = update(item);
      if (next !== item) changed = true;
      return next;
    });
    return { ...page, items };
  });
  return changed ? { ...data, pages } : data;
}

/** The listed project, if these pages hold it. */
export function listedProject(data: ListingPages, projectId: string): ProjectItem | null {
  for (const page of data.pages) {
    const found = page.items.find((item): item is ProjectItem => item.kind === 'project' && item.id === projectId);
    if (found) return found;
  }
  return null;
}

/** Listing pages with one version's progress and status applied where it is the project's latest. */
export function patchListingProgress(data: ListingPages, event: VersionProgress): ListingPages {
  return mapProjects(data, event.projectId, (item) =>
    item.latestVersion?.id === event.versionId
      ? { ...item, latestVersion: withProgress(item.latestVersion, event) }
      : item,
  );
}

/**
 * Listing pages with a freshly fetched project in place of the listed one. Progress only grows, so
 * an event that arrived while the fetch was under way is not undone by the older answer.
 */
export function replaceListedProject(data: ListingPages, project: ProjectItem): ListingPages {
  return mapProjects(data, project.id, (item) => {
    const listed = item.latestVersion;
    const fresh = project.latestVersion;
    if (
      !listed ||
      !fresh ||
      listed.id !== fresh.id ||
      listed.status !== fresh.status ||
      listed.progress <= fresh.progress
    )
      return project;
    return { ...project, latestVersion: { ...fresh, progress: listed.progress } };
  });
}

/** A project's detail with one version's progress and status applied. */
export function patchProjectProgress(detail: ProjectDetail, event: VersionProgress): ProjectDetail {
  if (detail.project.id !== event.projectId) return detail;
  const latest = detail.project.latestVersion;
  const project =
    latest?.id === event.versionId && withProgress(latest, event) !== latest
      ? { ...detail.project, latestVersion: withProgress(latest, event) }
      : detail.project;
  const versions = detail.versions.map((v) => (v.id === event.versionId ? withProgress(v, event) : v));
  return project === detail.project && versions.every((v, i) => v === detail.versions[i])
    ? detail
    : { ...detail, project, versions };
}

/**
 * Applies a processing tick to what is cached, in place: no listing page is fetched again and no
 * thumbnail URL changes. Only when a version finishes does its project get fetched once, for the
 * thumbnail and media facts that came with it, and put in place of the listed one.
 */
export function applyVersionProgress(
  queryClient: QueryClient,
  event: VersionProgress,
  fetchDetail = fetchProject,
): void {
  const finished = isFinished(event.status);
  let fetchForListing = false;
  for (const [key, data] of queryClient.getQueriesData<ListingPages>({ queryKey: [...storageKeys.all, 'listing'] })) {
    const listed = data ? listedProject(data, event.projectId) : null;
    if (!data || !listed) continue;
    // Finished now, or finished while this listing still showed an older version.
    if (finished && (listed.latestVersion?.id !== event.versionId || listed.latestVersion.status !== event.status))
      fetchForListing = true;
    const patched = patchListingProgress(data, event);
    if (patched !== data) queryClient.setQueryData<ListingPages>(key, patched);
  }
  const detailKey = storageKeys.project(event.projectId);
  const detail = queryClient.getQueryData<ProjectDetail>(detailKey);
  const patchedDetail = detail ? patchProjectProgress(detail, event) : detail;
  if (patchedDetail !== detail) queryClient.setQueryData<ProjectDetail>(detailKey, patchedDetail);
  if (!finished) return;
  if (!fetchForListing) {
    // Loudness lands after the version is ready: whoever shows the detail gets it.
    void queryClient.invalidateQueries({ queryKey: detailKey });
    return;
  }
  void queryClient
    .fetchQuery({ queryKey: detailKey, queryFn: ({ signal }) => fetchDetail(event.projectId, signal), staleTime: 0 })
    .then((fresh) => {
      for (const [key, data] of queryClient.getQueriesData<ListingPages>({
        queryKey: [...storageKeys.all, 'listing'],
      })) {
        const replaced = data ? replaceListedProject(data, fresh.project) : data;
        if (replaced !== data) queryClient.setQueryData<ListingPages>(key, replaced);
      }
    })
    // The next listing fetch shows it; a failed refresh of one tile needs no message.
    .catch(() => undefined);
}
