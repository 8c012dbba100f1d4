// Broadcasts: one publisher, many listeners without an account. Texts, codes and paths for server and web.

/** Roles of a streaming room's codes: the broadcaster's own (room and WHIP URL) and the public listeners'. */
export const BROADCAST_ROOM_ROLES = ['broadcaster', 'viewer-realtime'] as const;
export type BroadcastRoomRole = (typeof BROADCAST_ROOM_ROLES)[number];

/** Where a broadcast stands, as a listener sees it. */
export const BROADCAST_STATES = ['not-started', 'live', 'ended'] as const;
export type BroadcastState = (typeof BROADCAST_STATES)[number];

export const BROADCAST_MESSAGES = {
  cardTitle: 'Broadcaster',
  notAllowed: 'Broadcasting is not enabled for this account.',
  noSuchRoom: 'There is no live broadcast at this address. The link may have been replaced.',
  notStarted: 'The broadcast has not started yet.',
  ended: 'The broadcast has ended.',
  countdownPast: 'The countdown must be in the future.',
  badStreamKey: 'A valid stream key is required.',
  streamKeyShownOnce: 'Copy the stream key now: it is shown only once.',
} as const;

export const BROADCAST_ERROR_CODES = {
  notAllowed: 'BROADCAST_NOT_ALLOWED',
  needsSubscription: 'BROADCAST_NEEDS_SUBSCRIPTION',
  noSuchRoom: 'BROADCAST_NOT_FOUND',
  badStreamKey: 'BROADCAST_BAD_STREAM_KEY',
  countdownPast: 'BROADCAST_COUNTDOWN_PAST',
} as const;

/** The broadcast's WHIP publisher and every listener share one participant name on the SFU. */
export const BROADCAST_PUBLISHER = 'broadcaster';
/** A broadcast carries one publisher: a WHEP offer needs one recvonly audio m-line. */
export const BROADCAST_SLOT_COUNT = 1;
/** The title's length limit. */
export const BROADCAST_TITLE_MAX = 120;

/** The public listening page of a viewer code. */
export const publicLivePath = (viewerCode: string) => `/public/live/${viewerCode}`;
