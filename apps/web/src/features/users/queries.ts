import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuth } from '../../lib/auth/auth-context';
import { setInAppNotices } from '../../lib/notice-preferences';
import { getMe } from './api';

export const userKeys = {
  all: ['users'] as const,
  me: () => [...userKeys.all, 'me'] as const,
};

export function useMe() {
  const { user } = useAuth();
  const query = useQuery({
    queryKey: userKeys.me(),
    queryFn: ({ signal }) => getMe(signal),
    enabled: Boolean(user),
    staleTime: 30_000,
  });
  const inApp = query.data?.notifications.inApp;
  useEffect(() => {
    if (inApp !== undefined) setInAppNotices(inApp);
  }, [inApp]);
  return query;
}
