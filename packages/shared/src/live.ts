// Live rooms: their user-facing texts (word for word), options and constants, one place for server and web.

/** User-facing texts of the live area, word for word. */
export const LIVE_MESSAGES = {
  startPrompt: 'Click Ok to start',
  leaveTitle: 'Live',
  leaveConfirm: 'Are you sure you want to leave?',
  notStartedTitle: 'Live Session',
  notStarted: 'The host has not yet created the session, please retry in a few moments.',
  roomFullTitle: 'Warning',
  roomFull: 'You have reached the maximum number of users in this room, upgrade the subscription plan for more.',
  recordingTitle: 'Recording',
  recordingNotAvailable: 'Recording is not available in this plan, please upgrade your subscription plan.',
  freeTierExpiredTitle: 'Free Tier Time Expired',
  freeTierExpired: 'Free tier sessions are unlimited but last 30 minutes.',
  emptyCodeTitle: 'Attention',
  emptyCode: 'Please specify a room code',
  roomLinkCopied: 'Room link copied',
  roomCodeCopied: 'Room code copied',
  roomLinkCopiedTopBar: 'Room Link Copied',
  countdownSet: 'Countdown has been set',
  countdownLive: 'LIVE STARTED',
  broadcastNeedsSubscription: 'You must have a valid subscription in order to host...',
  viewerBitrate: 'It is not possible for a viewer to update the bitrate.',
  /** Co-host on a plan without bi-directional audio (Free, Essential). */
  coHostNotInPlan: 'Bi-directional audio (co-host) is available on the Studio and Live plans.',
  /** Only the host (or a co-host for its own stream) may do this. */
  notHost: 'Only the host of this room can do that.',
  notPublisher: 'Only the host or a co-host can publish in this room.',
  tooManyAttempts: 'Too many attempts, please wait a moment and try again.',
  sessionEnded: 'The host has ended the session.',
  replacedByOtherTab: 'This room was opened in another tab.',
  /** A Live-plan trial allows 1000 broadcast minutes in its three months. */
  trialTimeUsed: 'Your trial broadcast time is used up. Subscribe to a Live plan to keep broadcasting.',
} as const;

/** Error codes the live endpoints answer with (in `{ error: { code, message } }`). */
export const LIVE_ERROR_CODES = {
  /** Unknown code, a regenerated (removed) code, or a session the host has not started: one answer. */
  notStarted: 'LIVE_NOT_STARTED',
  roomFull: 'LIVE_ROOM_FULL',
  coHostNotInPlan: 'LIVE_COHOST_NOT_IN_PLAN',
  recordingNotInPlan: 'LIVE_RECORDING_NOT_IN_PLAN',
  freeTierExpired: 'LIVE_FREE_TIER_EXPIRED',
  notHost: 'LIVE_NOT_HOST',
  notPublisher: 'LIVE_NOT_PUBLISHER',
  tooManyAttempts: 'LIVE_TOO_MANY_ATTEMPTS',
  badMediaToken: 'LIVE_BAD_MEDIA_TOKEN',
  trialTimeUsed: 'LIVE_TRIAL_TIME_USED',
} as const;

/** Roles of a live room's codes. */
export const LIVE_ROOM_ROLES = ['host', 'guest'] as const;
export type LiveRoomRole = (typeof LIVE_ROOM_ROLES)[number];

/** How a participant takes part: the host, a guest the host enabled as co-host, or a listening guest. */
export const LIVE_PARTICIPANT_ROLES = ['host', 'cohost', 'guest'] as const;
export type LiveParticipantRole = (typeof LIVE_PARTICIPANT_ROLES)[number];

/** Quality options (Opus bit/s), in the Quality select's order; Normal is the default. */
export const LIVE_BITRATES = [
  { label: 'Essential', value: 96_000 },
  { label: 'Normal', value: 128_000 },
  { label: 'High', value: 256_000 },
  { label: 'Higher', value: 320_000 },
  { label: 'Ultra', value: 480_000 },
] as const;
export type LiveBitrate = (typeof LIVE_BITRATES)[number]['value'];
export const LIVE_BITRATE_VALUES = LIVE_BITRATES.map((option) => option.value) as [LiveBitrate, ...LiveBitrate[]];
export const DEFAULT_LIVE_BITRATE: LiveBitrate = 128_000;

/** Audio sources: the plugin (code 0) and the system-wide driver (code 1), each with two local sockets. */
export const LIVE_SOURCES = [
  { code: 0, key: 'plugin', label: 'Plugin', messagePort: 7777, audioPort: 7778 },
  { code: 1, key: 'driver', label: 'System Wide', messagePort: 7775, audioPort: 7776 },
] as const;
export type LiveSourceCode = (typeof LIVE_SOURCES)[number]['code'];

/** Whether a session record exists and still runs. */
export const LIVE_AVAILABILITY = ['NOT_EXISTS', 'ACTIVE', 'EXPIRED'] as const;
export type LiveAvailability = (typeof LIVE_AVAILABILITY)[number];

const MINUTE_MS = 60_000;

/** Room codes: 10 characters of Crockford base32 (50 bits), so guessing one is hopeless. */
export const LIVE_ROOM_CODE_LENGTH = 10;
export const LIVE_ROOM_CODE_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** What the code field accepts before the server looks (trimmed; the server answers the rest). */
export const LIVE_ROOM_CODE_PATTERN = /^[0-9a-z]{4,32}$/;

/** Free-tier session length (the plan's liveMaxDurationMs on Free). */
export const LIVE_FREE_TIER_MS = 30 * MINUTE_MS;
/** Elapsed time of a limited session (and of a trial) is counted in steps of one minute. */
export const LIVE_ELAPSED_STEP_MS = MINUTE_MS;
/** A Live-plan trial lasts three months from its start... */
export const LIVE_TRIAL_MONTHS = 3;
/** ...and allows at most this many broadcast minutes. */
export const LIVE_TRIAL_MAX_MINUTES = 1000;

export const LIVE_PRESENCE_INTERVAL_MS = 5_000;
export const LIVE_SOCKET_RECONNECT_MS = 3_000;
export const LIVE_JOIN_AUTOCLICK_MS = 500;
export const LIVE_AUTO_MUTE_DB = -90;
export const LIVE_AUTO_MUTE_INTERVAL_MS = 10;
export const LIVE_AUDIO_CHANNELS = 2;
/** Local recording: webm/opus at this bit rate. */
export const LIVE_RECORDING_BITRATE = 320_000;
export const LIVE_RECORDING_PREFIX = 'Mixroom-Live-';

/** The screens' paths. */
export const liveJoinedPath = (code: string, type: 'host' | 'guest' | 'broadcaster') => `/live/joined/${code}/${type}`;
/** The guest link the host copies: /live/joined/{guest room code}/guest. */
export const liveGuestPath = (guestCode: string) => liveJoinedPath(guestCode, 'guest');
/** The session's liveUrl keeps this placeholder where the room code goes. */
export const LIVE_URL_CODE_PLACEHOLDER = '{code}';

/** "LIVE IN d h m s" of the countdown label. */
export function liveCountdownLabel(remainingMs: number): string {
  if (remainingMs <= 0) return LIVE_MESSAGES.countdownLive;
  const s = Math.floor(remainingMs / 1000);
  return `LIVE IN ${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h ${Math.floor((s % 3600) / 60)}m ${s % 60}s`;
}

/** "FREE TIME LEFT mm:ss" digits of the free-time label. */
export function liveFreeTimeLeft(remainingMs: number): string {
  const s = Math.max(0, Math.ceil(remainingMs / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
