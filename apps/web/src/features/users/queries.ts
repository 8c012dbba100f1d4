import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../../lib/auth/auth-context';
import { getMe } from './api';

export const userKeys = {
  all: ['users'] as const,
  me: () => [...userKeys.all, 'me'] as const,
};

export function useMe() {
  const { user } = useAuth();
  return useQuery({
    queryKey: userKeys.me(),
    queryFn: ({ signal }) => getMe(signal),
    enabled: Boolean(user),
    staleTime: 30_000,
  });
}
