import { broadcastEndpoints as endpoints, type BroadcastMediaToken } from '@mixroom/contracts';
import type { BroadcastRoomRole, LiveBitrate } from '@mixroom/shared';
import { call } from '../../lib/api-client';

export const broadcastApi = {
  room: (signal?: AbortSignal) => call(endpoints.room, { signal }),
  settings: (body: { title?: string; countdownTime?: number | null; bitrate?: LiveBitrate }) =>
    call(endpoints.settings, { body }),
  regenerate: (role: BroadcastRoomRole) => call(endpoints.regenerate, { params: { role } }),
  streamKey: () => call(endpoints.streamKey),
  start: (code: string) => call(endpoints.start, { params: { code } }),
  stop: (code: string) => call(endpoints.stop, { params: { code } }),
  mediaToken: (code: string): Promise<BroadcastMediaToken> => call(endpoints.mediaToken, { params: { code } }),
  publicView: (code: string, signal?: AbortSignal) => call(endpoints.publicGet, { params: { code }, signal }),
  publicAccess: (code: string) => call(endpoints.publicAccess, { params: { code } }),
};
