import type { RealtimeHandlerContext, RealtimeHandlers } from '../../lib/realtime/realtime-handlers';
import { applyVersionProgress, storageKeys } from './queries';

const refreshStorage = (_event: unknown, { queryClient }: RealtimeHandlerContext) =>
  void queryClient.invalidateQueries({ queryKey: storageKeys.all });

/** Folder and project listings follow every change that shows in them. */
export const storageRealtimeHandlers: RealtimeHandlers = {
  'join.decided': refreshStorage,
  'sharing.changed': refreshStorage,
  'approval.changed': refreshStorage,
  'attachment.changed': refreshStorage,
  'storage.changed': refreshStorage,
  // Up to a few ticks a second per processing file: patched in place, never refetched.
  'version.progress': (event, { queryClient }) => applyVersionProgress(queryClient, event.data),
};
