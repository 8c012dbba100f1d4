import { useInfiniteQuery } from '@tanstack/react-query';
import { userKeys } from '../users/queries';
import { getMyCredits } from './api';

const PAGE = 20;

export const settingsKeys = {
  // Under the signed-in user's key: whatever refreshes the user (a plan granted, credits moved, a
  // realtime user.updated) refreshes the ledger too.
  credits: () => [...userKeys.me(), 'credits'] as const,
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
