import type { RealtimeHandlers } from '../lib/realtime/realtime-handlers';
import { adminRealtimeHandlers } from '../features/admin/realtime-handlers';
import { liveRealtimeHandlers } from '../features/live/realtime-handlers';
import { reviewRealtimeHandlers } from '../features/review/realtime-handlers';
import { sharingRealtimeHandlers } from '../features/sharing/realtime-handlers';
import { storageRealtimeHandlers } from '../features/storage/realtime-handlers';
import { toolsRealtimeHandlers } from '../features/tools/realtime-handlers';
import { transfersRealtimeHandlers } from '../features/transfers/realtime-handlers';
import { uploadsRealtimeHandlers } from '../features/uploads/realtime-handlers';
import { usersRealtimeHandlers } from '../features/users/realtime-handlers';

/** Every feature's reactions to server events; the app root hands them to the realtime hook. */
export const REALTIME_HANDLERS: readonly RealtimeHandlers[] = [
  usersRealtimeHandlers,
  adminRealtimeHandlers,
  uploadsRealtimeHandlers,
  sharingRealtimeHandlers,
  storageRealtimeHandlers,
  reviewRealtimeHandlers,
  transfersRealtimeHandlers,
  toolsRealtimeHandlers,
  liveRealtimeHandlers,
];
