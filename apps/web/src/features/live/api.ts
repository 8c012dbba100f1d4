import { liveEndpoints as endpoints, type LiveMediaToken } from '@mixroom/contracts';
import type { LiveBitrate, LiveRoomRole } from '@mixroom/shared';
import { call } from '../../lib/api-client';

export const liveApi = {
  rooms: (signal?: AbortSignal) => call(endpoints.rooms, { signal }),
  regenerate: (role: LiveRoomRole) => call(endpoints.regenerate, { params: { role } }),
  start: (code: string, instanceId: string) => call(endpoints.start, { params: { code }, body: { instanceId } }),
  join: (code: string, instanceId: string) => call(endpoints.join, { params: { code }, body: { instanceId } }),
  get: (code: string, signal?: AbortSignal) => call(endpoints.get, { params: { code }, signal }),
  leave: (code: string, instanceId: string) => call(endpoints.leave, { params: { code }, body: { instanceId } }),
  coHost: (code: string, userId: string, enabled: boolean) =>
    call(endpoints.coHost, { params: { code }, body: { userId, enabled } }),
  settings: (code: string, body: { bitrate?: LiveBitrate; source?: 0 | 1 | null }) =>
    call(endpoints.settings, { params: { code }, body }),
  mediaToken: (code: string, mode: 'publish' | 'subscribe'): Promise<LiveMediaToken> =>
    call(endpoints.mediaToken, { params: { code }, body: { mode } }),
  saveRecording: (code: string, body: { projectId: string; name: string; fileName: string; size: number }) =>
    call(endpoints.saveRecording, { params: { code }, body }),
};
