import type { RealtimeHandlers } from '../../lib/realtime/realtime-handlers';
import { liveKeys } from './queries';

export const liveRealtimeHandlers: RealtimeHandlers = {
  // Small on purpose: the open room refetches its session (who is in, co-hosts, settings, time left).
  // The event names the guest code while a host's page is keyed by its host code: refetch both.
  'live.changed': (_event, { queryClient }) =>
    void queryClient.invalidateQueries({ queryKey: [...liveKeys.all, 'session'] }),
};
