import { notify } from '../../lib/notify';
import { inAppNotices } from '../../lib/notice-preferences';
import type { RealtimeHandlers } from '../../lib/realtime/realtime-handlers';
import { sharingKeys } from './queries';

export const sharingRealtimeHandlers: RealtimeHandlers = {
  'join.requested': (_event, { queryClient }) => {
    void queryClient.invalidateQueries({ queryKey: sharingKeys.all });
    if (inAppNotices())
      notify(
        'info',
        'Join Request',
        'Someone asked to join one of your folders or projects. Open the notifications to answer.',
        { sticky: true },
      );
  },
  'join.decided': (event, { queryClient, selfId }) => {
    void queryClient.invalidateQueries({ queryKey: sharingKeys.all });
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
  },
  'sharing.changed': (_event, { queryClient }) => void queryClient.invalidateQueries({ queryKey: sharingKeys.all }),
};
