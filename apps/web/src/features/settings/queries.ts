import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { userKeys } from '../users/queries';
import { getExports, getMyCredits } from './api';

const PAGE = 20;

export const settingsKeys = {
  // Under the signed-in user's key: whatever refreshes the user (a plan granted, credits moved, a
  // realtime user.updated) refreshes the ledger too.
  credits: () => [...userKeys.me(), 'credits'] as const,
  exports: () => [...userKeys.me(), 'exports'] as const,
};

/** My credits ledger, newest first, a page at a time. */
export function useMyCredits() {
  return useInfiniteQuery({
    queryKey: settingsKeys.credits(),
    queryFn: ({ pageParam, signal }) => getMyCredits({ before: pageParam ?? undefined, limit: PAGE }, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.hasMore ? (last.entries[last.entries.length - 1]?.seq ?? null) : null),
  });
}

/** My data archives; polled while one is being made, so its progress shows. */
export function useMyExports() {
  return useQuery({
    queryKey: settingsKeys.exports(),
    queryFn: ({ signal }) => getExports(signal),
    refetchInterval: (query) =>
      query.state.data?.exports.some((e) => e.status === 'queued' || e.status === 'running') ? 1500 : false,
  });
}

/**
 * A change to my account: the answer is the new me (or the caches of me refresh). `silent` when
 * the form shows the error itself (no second toast of the same words).
 */
export function useAccountMutation<T, R>(mutate: (input: T) => Promise<R>, options: { silent?: boolean } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: mutate,
    meta: options.silent ? { silent: true } : undefined,
    onSuccess: (result) => {
      if (result && typeof result === 'object' && 'entitlements' in result) client.setQueryData(userKeys.me(), result);
      void client.invalidateQueries({ queryKey: userKeys.me() });
    },
  });
}
