import type { RealtimeHandlers } from '../../lib/realtime/realtime-handlers';
import { adminKeys } from './queries';

/** A user changed: the admin area's lists show it. */
export const adminRealtimeHandlers: RealtimeHandlers = {
  'user.updated': (_event, { queryClient }) => void queryClient.invalidateQueries({ queryKey: adminKeys.all }),
};
