import {
  BROADCAST_ROOM_ROLES,
  BROADCAST_STATES,
  BROADCAST_TITLE_MAX,
  LIVE_BITRATE_VALUES,
  LIVE_ROOM_CODE_PATTERN,
} from '@mixroom/shared';
import { z } from 'zod';
import { liveIceServer } from './live';

/** A broadcast code as the URL carries it (unknown and replaced codes get the same 404). */
export const broadcastCode = z
  .string()
  .trim()
  .toLowerCase()
  .regex(LIVE_ROOM_CODE_PATTERN, { message: 'Unknown room code.' });
export const broadcastCodeParams = z.object({ code: broadcastCode });
export const broadcastResourceParams = z.object({ code: broadcastCode, resourceId: z.string().min(1).max(128) });
export const broadcastRoleParams = z.object({ role: z.enum(BROADCAST_ROOM_ROLES) });

/**
 * The broadcaster's streaming room as its owner sees it: the two codes (roles broadcaster and
 * viewer-realtime), the countdown, the public page and the WHIP/WHEP URLs for other software.
 * `ready` is false when broadcasting needs a valid subscription first (`blockedMessage` says so).
 */
export const broadcastRoom = z.object({
  roomCodes: z.array(z.object({ role: z.enum(BROADCAST_ROOM_ROLES), code: z.string() })),
  broadcasterCode: z.string(),
  viewerCode: z.string(),
  title: z.string(),
  /** Epoch ms the countdown counts to; null without one. */
  countdownTime: z.number().nullable(),
  /** The public listening page (absolute). */
  roomLink: z.string(),
  /** WHIP ingest for an encoder (bearer: the stream key) and WHEP egress for any player (no bearer). */
  whipUrl: z.string(),
  whepUrl: z.string(),
  /** The stream key's last four characters and when it was made (the key itself is shown only once). */
  streamKey: z.object({ hint: z.string(), createdAt: z.number() }).nullable(),
  state: z.enum(BROADCAST_STATES),
  listeners: z.number().int(),
  bitrate: z.number().int(),
  ready: z.boolean(),
  blockedMessage: z.string().nullable(),
  /** The server's clock (epoch ms) when it answered: countdowns count from it, not from the device's. */
  serverTime: z.number(),
});
export type BroadcastRoom = z.infer<typeof broadcastRoom>;

/** Title, countdown (epoch ms or null to clear) and quality; only the fields sent change. */
export const broadcastSettingsBody = z.object({
  title: z.string().trim().max(BROADCAST_TITLE_MAX).optional(),
  countdownTime: z.number().int().positive().nullable().optional(),
  bitrate: z.union(LIVE_BITRATE_VALUES.map((value) => z.literal(value))).optional(),
});

/** A new stream key, shown this once in full. */
export const broadcastStreamKey = z.object({ streamKey: z.string(), hint: z.string(), whipUrl: z.string() });

/** A short-lived token for the WHIP (broadcaster) or WHEP (listener) URL. */
export const broadcastMediaToken = z.object({
  token: z.string(),
  url: z.string(),
  iceServers: z.array(liveIceServer),
  slotCount: z.number().int(),
  bitrate: z.number().int(),
  expiresAt: z.number(),
});
export type BroadcastMediaToken = z.infer<typeof broadcastMediaToken>;

/** What a visitor sees of a broadcast by its viewer code. */
export const publicBroadcast = z.object({
  code: z.string(),
  title: z.string(),
  host: z.object({ displayName: z.string(), photoUrl: z.string().nullable() }),
  countdownTime: z.number().nullable(),
  state: z.enum(BROADCAST_STATES),
  listeners: z.number().int(),
  serverTime: z.number(),
});
export type PublicBroadcast = z.infer<typeof publicBroadcast>;

/** A listener's way in, with the code only: the WHEP token and a realtime grant for `broadcast:{code}`. */
export const publicBroadcastAccess = z.object({
  broadcast: publicBroadcast,
  media: broadcastMediaToken,
  realtime: z.object({ grant: z.string(), topic: z.string(), expiresInSeconds: z.number() }),
});
export type PublicBroadcastAccess = z.infer<typeof publicBroadcastAccess>;

export const BROADCAST_CHANGE_ACTIONS = ['settings', 'live', 'ended', 'listeners', 'revoked'] as const;
