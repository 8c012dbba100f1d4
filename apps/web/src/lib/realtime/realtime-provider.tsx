import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { Comment, DomainEvent } from '@mixroom/contracts';
import { getAccessToken } from '../api-client';
import { useAuth } from '../auth/auth-context';
import { adminKeys } from '../../features/admin/queries';
import { applyAttachmentProgress, applyDifferenceProgress, reviewKeys } from '../../features/review/queries';
import { applyVersionProgress, storageKeys } from '../../features/storage/queries';
import { sharingKeys } from '../../features/sharing/queries';
import { transferKeys } from '../../features/transfers/queries';
import { notify } from '../notify';
import { inAppNotices } from '../notice-preferences';
import { userKeys } from '../../features/users/queries';
import { RealtimeClient } from './realtime-client';
import { activitiesStore } from '../../features/uploads/activities-store';

/**
 * The one place that maps server events to the query cache (Docmost's pattern). Each event type has
 * its exact payload: processing ticks and new comments are written into the cache in place; other
 * changes invalidate what they touch.
 */
function applyEvent(queryClient: QueryClient, event: DomainEvent, selfId: string): void {
  switch (event.type) {
    case 'user.updated':
      void queryClient.invalidateQueries({ queryKey: userKeys.me() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      return;
    case 'download.progress': {
      const { downloadId, percent } = event.data;
      activitiesStore.update(downloadId, { state: percent >= 100 ? 'Finished' : 'In Progress', percent });
      return;
    }
    case 'join.requested':
      void queryClient.invalidateQueries({ queryKey: sharingKeys.all });
      if (inAppNotices())
        notify(
          'info',
          'Join Request',
          'Someone asked to join one of your folders or projects. Open the notifications to answer.',
          { sticky: true },
        );
      return;
    case 'join.decided': {
      void queryClient.invalidateQueries({ queryKey: sharingKeys.all });
      void queryClient.invalidateQueries({ queryKey: storageKeys.all });
      const { status, userId } = event.data;
      if (userId === selfId && inAppNotices())
        notify(
          status === 'approved' ? 'success' : 'warning',
          'Join Request',
          status === 'approved'
            ? 'Your request was approved: the shared item is now in your groups.'
            : 'Your request to join was declined.',
          { sticky: true },
        );
      return;
    }
    case 'sharing.changed':
      void queryClient.invalidateQueries({ queryKey: sharingKeys.all });
      void queryClient.invalidateQueries({ queryKey: storageKeys.all });
      return;
    case 'comment.changed': {
      const key = reviewKeys.comments(event.data.versionId);
      // A collaborator's new comment arrives whole, presented for non-authors: show it at once.
      const arrived = event.data.comment;
      if (arrived && arrived.user.id !== selfId && queryClient.getQueryData(key)) {
        queryClient.setQueryData<Comment[]>(key, (list) => [
          arrived,
          ...(list ?? []).filter((c) => c.id !== arrived.id),
        ]);
        // Shown at once; then fetched once more for what this viewer may do with it (resolve).
        void queryClient.invalidateQueries({ queryKey: key });
        return;
      }
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    case 'approval.changed': {
      void queryClient.invalidateQueries({ queryKey: storageKeys.all });
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      // Collaborators are told by a notice, on the channels each of them chose.
      return;
    }
    case 'difference.progress':
      applyDifferenceProgress(queryClient, event.data);
      return;
    case 'presence.changed':
      void queryClient.invalidateQueries({ queryKey: reviewKeys.presence(event.data.versionId) });
      return;
    case 'note.changed':
      void queryClient.invalidateQueries({ queryKey: reviewKeys.note(event.data.versionId) });
      return;
    case 'attachment.changed':
      void queryClient.invalidateQueries({ queryKey: [...reviewKeys.all, 'attachments'] });
      void queryClient.invalidateQueries({ queryKey: storageKeys.all });
      return;
    case 'storage.changed':
      void queryClient.invalidateQueries({ queryKey: storageKeys.all });
      return;
    case 'version.progress':
      // Up to a few ticks a second per processing file: patched in place, never refetched.
      applyVersionProgress(queryClient, event.data);
      applyAttachmentProgress(queryClient, event.data);
      return;
    case 'job.progress':
    case 'job.completed':
    case 'job.failed':
    case 'access.changed':
      // Jobs are followed by the screens that started them; access changes travel between servers only.
      return;
    case 'transfer.changed':
      // Tiles, counts and the download log of the owner's transfers.
      void queryClient.invalidateQueries({ queryKey: transferKeys.all });
      return;
    case 'notice':
      // Sent only to users who want in-app notifications.
      notify('info', event.data.title, event.data.body, { sticky: true });
      return;
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

const RealtimeContext = createContext<RealtimeClient | null>(null);

/** Opens the realtime connection for the signed-in user and keeps the query cache fresh. */
export function RealtimeProvider({
  userId,
  isAdmin,
  children,
}: {
  userId: string | null;
  isAdmin: boolean;
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
    // After a reconnect, events may have been missed: refetch what is on screen. A disabled account
    // is signed out at once, with the reason.
    client.connect(
      () => void queryClient.invalidateQueries(),
      () => signOut.current({ confirm: false, reason: 'disabled' }),
    );
    const stops = [client.subscribe(`user:${userId}`), ...(isAdmin ? [client.subscribe('admin')] : [])];
    const stopEvents = client.onEvent((event) => applyEvent(queryClient, event, userId));
    return () => {
      stops.forEach((stop) => stop());
      stopEvents();
      client.close();
    };
  }, [client, userId, isAdmin, queryClient]);

  // A renewed access token re-authenticates the open socket instead of reconnecting it.
  useEffect(() => {
    if (accessToken) void client?.refreshToken();
  }, [accessToken, client]);

  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}

/** Follows a topic (e.g. the open folder) while the calling component is mounted. */
export function useTopic(topic: string | null): void {
  const client = useContext(RealtimeContext);
  useEffect(() => {
    if (!client || !topic) return;
    return client.subscribe(topic);
  }, [client, topic]);
}
