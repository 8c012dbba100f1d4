import { z } from 'zod';
import { liveIceServer, liveSlot } from './live';

/**
 * The talkback room of a live room: every admitted participant (host, co-host, guest) talks on its
 * own processed microphone and hears everyone else's, on WHIP/WHEP resources separate from the
 * music so the music stays unprocessed.
 */
export const talkbackTokenBody = z.object({ mode: z.enum(['publish', 'subscribe']) });

/**
 * A bearer for the talkback WHIP/WHEP endpoint `url`, bound to this room, this user and its role
 * there. A WHIP offer sends one Opus track and may add one VP8 camera track. A WHEP offer carries
 * `slotCount` recvonly audio transceivers, then as many recvonly video ones (the i-th video slot
 * carries the camera of whoever the i-th audio slot carries); `GET {url}/{resourceId}` tells which
 * participant each mid carries.
 */
export const talkbackToken = z.object({
  token: z.string(),
  mode: z.enum(['publish', 'subscribe']),
  role: z.enum(['host', 'cohost', 'guest']),
  expiresAt: z.number(),
  url: z.string(),
  iceServers: z.array(liveIceServer),
  slotCount: z.number().int(),
  bitrate: z.number().int(),
});
export type TalkbackToken = z.infer<typeof talkbackToken>;

/** Which participant each recvonly mid of the caller's own talkback WHEP resource carries. */
export const talkbackSlots = z.object({ slots: z.array(liveSlot) });
export type TalkbackSlots = z.infer<typeof talkbackSlots>;
