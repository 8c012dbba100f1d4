import type { RealtimeHandlers } from '../../lib/realtime/realtime-handlers';
import { activitiesStore } from './activities-store';

/** A ZIP being prepared for download reports its progress in the Activities panel. */
export const uploadsRealtimeHandlers: RealtimeHandlers = {
  'download.progress': (event) => {
    const { downloadId, percent } = event.data;
    activitiesStore.update(downloadId, { state: percent >= 100 ? 'Finished' : 'In Progress', percent });
  },
};
