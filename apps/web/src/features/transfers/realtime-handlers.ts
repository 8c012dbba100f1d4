import type { RealtimeHandlers } from '../../lib/realtime/realtime-handlers';
import { transferKeys } from './queries';

export const transfersRealtimeHandlers: RealtimeHandlers = {
  // Tiles, counts and the download log of the owner's transfers.
  'transfer.changed': (_event, { queryClient }) => void queryClient.invalidateQueries({ queryKey: transferKeys.all }),
};
