import { TOOLS_MESSAGES } from '@mixroom/shared';
import { notify } from '../../lib/notify';
import type { RealtimeHandlers } from '../../lib/realtime/realtime-handlers';
import { toolsApi } from './api';
import { applyTaskChanged, toolsKeys } from './queries';

export const toolsRealtimeHandlers: RealtimeHandlers = {
  // The history's badges and progress bars, the credits line and the busy flag of the tool screens;
  // a failure is told in the spec's words wherever the user is.
  'task.changed': (event, { queryClient }) => {
    applyTaskChanged(queryClient, event.data);
    if (event.data.action !== 'failed') return;
    void queryClient
      .fetchQuery({ queryKey: toolsKeys.detail(event.data.taskId), queryFn: () => toolsApi.get(event.data.taskId) })
      .then((task) => {
        const message = task.sessions.find((s) => s.status === 'FAILED')?.message ?? 'unknown error';
        notify('error', TOOLS_MESSAGES.failedTitle, TOOLS_MESSAGES.failed(message));
      })
      .catch(() => undefined);
  },
};
