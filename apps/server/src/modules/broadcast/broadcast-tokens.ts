/** Media tokens of broadcasts: what they say and how long they last. */
export const BROADCAST_TOKEN_PURPOSE = 'broadcast-media';
/** Long enough to connect (and trickle); a replaced code refuses the next request anyway. */
export const MEDIA_TOKEN_TTL_SECONDS = 300;

/** A token for one code (broadcaster code to publish, viewer code to listen) and one mode. */
export interface BroadcastClaims {
  c: string;
  m: 'publish' | 'subscribe';
}

/** The SFU room of a user's broadcast: stable across code renewals, so a new code moves no one. */
const ROOM_PREFIX = 'broadcast-';
export const broadcastRoomId = (userId: string) => `${ROOM_PREFIX}${userId}`;
/** The owner of a broadcast's SFU room; null for any other room (live rooms share the SFU). */
export const ownerOfRoom = (room: string) => (room.startsWith(ROOM_PREFIX) ? room.slice(ROOM_PREFIX.length) : null);
