import type { RealtimeHandlers } from '../../lib/realtime/realtime-handlers';
import { userKeys } from './queries';

/** The signed-in user's own record changed (name, plan, picture). */
export const usersRealtimeHandlers: RealtimeHandlers = {
  'user.updated': (_event, { queryClient }) => void queryClient.invalidateQueries({ queryKey: userKeys.me() }),
};
