import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../lib/auth/auth-context';
import { storageKeys } from '../storage/queries';
import { sharingApi, type ResourceType } from './api';

export const sharingKeys = {
  all: ['sharing'] as const,
  info: (type: ResourceType, id: string) => [...sharingKeys.all, 'info', type, id] as const,
  requests: () => [...sharingKeys.all, 'requests'] as const,
  publicListing: (token: string, folder: string | null) =>
    [...sharingKeys.all, 'public', token, folder ?? 'root'] as const,
};

export function useShareInfo(type: ResourceType, id: string | null) {
  return useQuery({
    queryKey: sharingKeys.info(type, id ?? ''),
    queryFn: ({ signal }) => sharingApi.info(type, id ?? '', signal),
    enabled: Boolean(id),
  });
}

export function useJoinRequests() {
  const { user } = useAuth();
  return useQuery({
    queryKey: sharingKeys.requests(),
    queryFn: ({ signal }) => sharingApi.requests(signal),
    enabled: Boolean(user),
    meta: { silent: true },
  });
}

export function usePublicListing(token: string | null, folder: string | null) {
  return useQuery({
    queryKey: sharingKeys.publicListing(token ?? '', folder),
    queryFn: ({ signal }) => sharingApi.publicListing(token ?? '', folder, signal),
    enabled: Boolean(token),
    retry: false,
    meta: { silent: true },
  });
}

/** Sharing changes refresh sharing views and listings (tags and capabilities change with roles). */
export function useSharingMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    meta: { silent: true },
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: sharingKeys.all });
      await queryClient.invalidateQueries({ queryKey: storageKeys.all });
    },
  });
}
