import {
  LIVE_AVAILABILITY,
  LIVE_BITRATE_VALUES,
  LIVE_PARTICIPANT_ROLES,
  LIVE_ROOM_CODE_PATTERN,
  LIVE_ROOM_ROLES,
} from '@mixroom/shared';
import { z } from 'zod';
import { uploadTicket } from './storage';

/** A room code as the URL carries it: trimmed, lower case (the server answers unknown ones like removed ones). */
export const liveCode = z
  .string()
  .trim()
  .toLowerCase()
  .regex(LIVE_ROOM_CODE_PATTERN, { message: 'Unknown room code.' });
export const liveCodeParams = z.object({ code: liveCode });
export const liveResourceParams = z.object({ code: liveCode, resourceId: z.string().min(1).max(128) });
export const liveRoleParams = z.object({ role: z.enum(LIVE_ROOM_ROLES) });

/** One of the user's room codes ({role, code} as the spec models it). */
export const liveRoomCode = z.object({ role: z.enum(LIVE_ROOM_ROLES), code: z.string() });
/** The user's live room: host and guest codes (created on first read) and the session's live URL. */
export const liveRoom = z.object({
  roomCodes: z.array(liveRoomCode),
  hostCode: z.string(),
  guestCode: z.string(),
  /** The guest link with `{code}` where the guest code goes (the session's liveUrl). */
  liveUrl: z.string(),
});
export type LiveRoom = z.infer<typeof liveRoom>;

/** A tab's id: the same user's newer tab takes the room over and the older one cleans up. */
export const liveInstanceId = z.string().min(1).max(64);
export const liveSource = z.union([z.literal(0), z.literal(1)]);

/** A stream entry with its user view: who, allowed to publish, online, source and quality. */
export const liveStream = z.object({
  userId: z.string(),
  /** The host, or a guest the host enabled as co-host: allowed to publish. */
  isEnabled: z.boolean(),
  isHost: z.boolean(),
  /** Equals the user id; the SFU's participant and the slot map name it. */
  streamName: z.string(),
  /** Epoch ms of the entry's last change. */
  timestamp: z.number(),
  instanceId: z.string(),
  isOnline: z.boolean(),
  displayName: z.string(),
  photoUrl: z.string().nullable(),
  /** The audio source the publisher chose (0 plugin, 1 system wide), null before it chose one. */
  source: liveSource.nullable(),
  bitrate: z.number().int(),
});
export type LiveStream = z.infer<typeof liveStream>;

/**
 * A live session, stored under the guest room code. `hostRoomCode` is shown to the host only (null
 * for guests: it would make them host). `remainingMs` is the free time left for a limited plan (null
 * when unlimited).
 */
export const liveSession = z.object({
  code: z.string(),
  availability: z.enum(LIVE_AVAILABILITY),
  liveUrl: z.string(),
  liveStreamingUrl: z.string().nullable(),
  userId: z.string(),
  hostRoomCode: z.string().nullable(),
  countdownTime: z.number().nullable(),
  streams: z.array(liveStream),
  lastUpdate: z.number(),
  startTime: z.number(),
  currentTime: z.number(),
  /** The host's quality (Opus bit/s). */
  bitrate: z.number().int(),
  maxDurationMs: z.number().nullable(),
  remainingMs: z.number().nullable(),
  guestLimit: z.number().int(),
  /** What the host's plan allows: co-hosts (Studio, Live) and recording. */
  coHostAllowed: z.boolean(),
  recordingAllowed: z.boolean(),
  /** The caller's part: role, whether it may publish now, its own tab. */
  you: z.object({
    userId: z.string(),
    role: z.enum(LIVE_PARTICIPANT_ROLES),
    canPublish: z.boolean(),
    instanceId: z.string().nullable(),
  }),
});
export type LiveSession = z.infer<typeof liveSession>;

export const liveEnterBody = z.object({ instanceId: liveInstanceId });
export const liveLeaveBody = z.object({ instanceId: liveInstanceId });
export const liveCoHostBody = z.object({ userId: z.string().min(1).max(64), enabled: z.boolean() });
/** The caller's own stream: quality and source (host or co-host only). */
export const liveStreamSettingsBody = z.object({
  bitrate: z.union(LIVE_BITRATE_VALUES.map((value) => z.literal(value))).optional(),
  source: liveSource.nullable().optional(),
});

/** Ask for a short-lived media token: publish (WHIP) or subscribe (WHEP). */
export const liveMediaTokenBody = z.object({ mode: z.enum(['publish', 'subscribe']) });
export const liveIceServer = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
/**
 * A bearer token for the WHIP/WHEP endpoint `url` (send it as `Authorization: Bearer …`), bound to
 * this room, this user, its role and the mode. A WHEP offer carries `slotCount` recvonly audio
 * transceivers (write `stereo=1` into its Opus fmtp); the slot map comes as `live.slots` messages.
 */
export const liveMediaToken = z.object({
  token: z.string(),
  mode: z.enum(['publish', 'subscribe']),
  expiresAt: z.number(),
  url: z.string(),
  iceServers: z.array(liveIceServer),
  slotCount: z.number().int(),
  bitrate: z.number().int(),
  /** Whether the publisher may send lossless PCM on a data channel (Studio and Live plans). */
  lossless: z.boolean(),
});
export type LiveMediaToken = z.infer<typeof liveMediaToken>;

/** "Save to project": the recorded file becomes a new version of a project the host may edit. */
export const liveRecordingBody = z.object({
  projectId: z.uuid(),
  name: z.string().trim().min(1).max(50),
  fileName: z.string().trim().min(1).max(255),
  size: z.number().int().positive(),
});
export const liveRecordingTicket = uploadTicket;

/** The slot map of one WHEP subscriber: which publisher (user id) each recvonly m-line carries. */
export const liveSlot = z.object({ mid: z.string(), participant: z.string().nullable(), live: z.boolean() });
export type LiveSlot = z.infer<typeof liveSlot>;

/** What changed in a room (`live.changed` on `live:{code}`); clients refetch the session. */
export const LIVE_CHANGE_ACTIONS = [
  'started',
  'joined',
  'left',
  'cohost',
  'settings',
  'takeover',
  'publishing',
  'ended',
  'expired',
  'tick',
] as const;
export const liveChangeAction = z.enum(LIVE_CHANGE_ACTIONS);
