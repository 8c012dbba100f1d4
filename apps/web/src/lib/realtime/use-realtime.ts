import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { EVENT_TYPES, type DomainEvent } from '@mixroom/contracts';
import { getAccessToken } from '../api-client';
import { useAuth } from '../auth/auth-context';
import { adminKeys } from '../../features/admin/queries';
import { userKeys } from '../../features/users/queries';
import { RealtimeClient } from './realtime-client';

/** The one place that maps server events to cache invalidation (Docmost's pattern). */
function invalidateFor(queryClient: QueryClient, event: DomainEvent): void {
  switch (event.type) {
    case EVENT_TYPES.userUpdated:
      void queryClient.invalidateQueries({ queryKey: userKeys.me() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      break;
    default:
      break;
  }
}

/** Opens the realtime connection for the signed-in user and keeps the query cache fresh. */
export function useRealtime(subscriptions: { userId: string | null; isAdmin: boolean }): void {
  const queryClient = useQueryClient();
  const accessToken = useAuth().user?.access_token ?? null;
  const clientRef = useRef<RealtimeClient | null>(null);
  const { userId, isAdmin } = subscriptions;

  useEffect(() => {
    if (!userId) return;
    const client = new RealtimeClient(getAccessToken);
    clientRef.current = client;
    // After a reconnect, events may have been missed: refetch what is on screen.
    client.connect(() => void queryClient.invalidateQueries());
    const stops = [client.subscribe(`user:${userId}`), ...(isAdmin ? [client.subscribe('admin')] : [])];
    const stopEvents = client.onEvent((event) => invalidateFor(queryClient, event));
    return () => {
      stops.forEach((stop) => stop());
      stopEvents();
      client.close();
      clientRef.current = null;
    };
  }, [userId, isAdmin, queryClient]);

  // A renewed access token re-authenticates the open socket instead of reconnecting it.
  useEffect(() => {
    if (accessToken) void clientRef.current?.refreshToken();
  }, [accessToken]);
}
