import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { DomainEvent } from '@mixroom/contracts';
import { getAccessToken } from '../api-client';
import { useAuth } from '../auth/auth-context';
import { notify } from '../notify';
import { mayPredateListening } from './listen-gap';
import { RealtimeClient } from './realtime-client';
import { dispatchEvent, type RealtimeHandlers } from './realtime-handlers';

/**
 * The one place that maps server events to the query cache (Docmost's pattern): the features'
 * registered handlers write processing ticks and new comments into the cache in place and invalidate
 * what other changes touch. What belongs to no feature is handled here.
 */
function applyEvent(
  queryClient: QueryClient,
  handlers: readonly RealtimeHandlers[],
  event: DomainEvent,
  selfId: string,
): void {
  switch (event.type) {
    case 'job.progress':
    case 'job.completed':
    case 'job.failed':
    case 'access.changed':
    case 'presence.node':
    case 'presence.changed':
      // Jobs are followed by the screens that started them; access changes and node beats travel
      // between servers only; presence is kept by the realtime client itself.
      return;
    case 'notice':
      // Sent only to users who want in-app notifications.
      notify('info', event.data.title, event.data.body, { sticky: true });
      return;
    default:
      dispatchEvent(handlers, event, { queryClient, selfId });
  }
}

const RealtimeContext = createContext<RealtimeClient | null>(null);

/**
 * Opens the realtime connection for the signed-in user and keeps the query cache fresh through the
 * handlers the features registered (`handlers`, a list that stays the same between renders).
 */
export function RealtimeProvider({
  userId,
  isAdmin,
  handlers,
  children,
}: {
  userId: string | null;
  isAdmin: boolean;
  handlers: readonly RealtimeHandlers[];
  children: ReactNode;
}) {
  const queryClient = useQueryClient();
  const auth = useAuth();
  const accessToken = auth.user?.access_token ?? null;
  // Read when the socket is refused; a ref so a renewed session doesn't reconnect the socket.
  const signOut = useRef(auth.signOut);
  useEffect(() => {
    signOut.current = auth.signOut;
  }, [auth.signOut]);
  // One client per signed-in user; constructing it opens nothing, the effect connects it.
  const client = useMemo(() => (userId ? new RealtimeClient(getAccessToken) : null), [userId]);

  useEffect(() => {
    if (!client || !userId) return;
    // After a reconnect, events may have been missed: refetch what is on screen. On the first
    // connect, only what was fetched (or was being fetched) before the socket listened. A disabled
    // account is signed out at once, with the reason.
    client.connect(
      (isReconnect) => {
        if (isReconnect) return void queryClient.invalidateQueries();
        const readyAt = Date.now();
        void queryClient.invalidateQueries({ predicate: (query) => mayPredateListening(query.state, readyAt) });
      },
      () => signOut.current({ confirm: false, reason: 'disabled' }),
    );
    const stops = [client.subscribe(`user:${userId}`), ...(isAdmin ? [client.subscribe('admin')] : [])];
    const stopEvents = client.onEvent((event) => applyEvent(queryClient, handlers, event, userId));
    return () => {
      stops.forEach((stop) => stop());
      stopEvents();
      client.close();
    };
  }, [client, userId, isAdmin, queryClient, handlers]);

  // A renewed access token re-authenticates the open socket instead of reconnecting it.
  useEffect(() => {
    if (accessToken) void client?.refreshToken();
  }, [accessToken, client]);

  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}

/** The tab's realtime client (null while signed out), for hooks that do more than follow a topic. */
export function useRealtimeClient(): RealtimeClient | null {
  return useContext(RealtimeContext);
}

/** Follows a topic (e.g. the open folder) while the calling component is mounted. */
export function useTopic(topic: string | null): void {
  const client = useContext(RealtimeContext);
  useEffect(() => {
    if (!client || !topic) return;
    return client.subscribe(topic);
  }, [client, topic]);
}
