import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListFilters } from '@mixroom/contracts';
import { storageApi, type ItemRef } from './api';

export const storageKeys = {
  all: ['storage'] as const,
  listing: (groupId: string | null, query: ListFilters) => [...storageKeys.all, 'listing', groupId ?? 'root', query] as const,
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

export function useProject(id: string | null) {
  return useQuery({ queryKey: storageKeys.project(id ?? ''), queryFn: ({ signal }) => storageApi.project(id ?? '', signal), enabled: Boolean(id) });
}

export function useTrash(sort: 'newest' | 'alphabetical') {
  return useQuery({ queryKey: storageKeys.trash(sort), queryFn: ({ signal }) => storageApi.listTrash(sort, signal), placeholderData: keepPreviousData });
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
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: storageKeys.all }), ...(meta ? { meta } : {}) });
}

export const useCreateFolder = () =>
  useStorageMutation((v: { name: string; parentId: string | null }) => storageApi.createFolder(v.name, v.parentId), { silent: true });
export const useUpdateGroup = () =>
  useStorageMutation((v: { id: string; patch: Parameters<typeof storageApi.updateGroup>[1] }) => storageApi.updateGroup(v.id, v.patch), { silent: true });
export const useCreateProject = () =>
  useStorageMutation((v: { name: string; groupId: string | null }) => storageApi.createProject(v.name, v.groupId), { silent: true });
export const useUpdateProject = () =>
  useStorageMutation((v: { id: string; patch: Parameters<typeof storageApi.updateProject>[1] }) => storageApi.updateProject(v.id, v.patch), { silent: true });
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
export const useRenameVersion = () => useStorageMutation((v: { id: string; name: string }) => storageApi.renameVersion(v.id, v.name), { silent: true });
export const useDeleteVersion = () => useStorageMutation((v: { id: string }) => storageApi.deleteVersion(v.id), { silent: true });
