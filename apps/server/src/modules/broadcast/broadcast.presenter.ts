import type { PublicBroadcast } from '@mixroom/contracts';
import type { BroadcastState } from '@mixroom/shared';
import type { BroadcastRoomRow, BroadcastStatus } from './broadcast.repository';

/** The stored status as listeners see it: idle until the first packet, live, ended when it stops. */
export function publicState(status: BroadcastStatus): BroadcastState {
  if (status === 'live') return 'live';
  if (status === 'ended') return 'ended';
  return 'not-started';
}

export function presentPublic(
  room: BroadcastRoomRow,
  host: { displayName: string; photoUrl: string | null },
  now: Date,
): PublicBroadcast {
  return {
    code: room.viewerCode,
    title: room.title || 'Live listening session',
    host,
    countdownTime: room.countdownTime,
    state: publicState(room.status),
    listeners: room.listeners,
    serverTime: now.getTime(),
  };
}
