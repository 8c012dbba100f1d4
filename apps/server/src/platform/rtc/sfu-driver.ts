import { DomainError } from '../errors/domain-error';
/**
 * The media layer of live rooms, as the live module sees it. A room holds publishers (WHIP: one
 * audio track each, sent by the client) and subscribers (WHEP: every publisher of the room except
 * the subscriber itself). Two implementations: the embedded SFU (`werift-sfu.ts`) and a forwarder
 * to an external WHIP/WHEP media server (`external-whip-whep-driver.ts`).
 *
 * How a subscriber gets publishers that start later without renegotiating: its WHEP offer carries
 * K recvonly audio transceivers (K = `slotCount`, the room's publisher cap). The SFU maps each
 * publisher onto one of those slots (m-lines, named by their `mid`) and reports the mapping in
 * `slots-changed` events and `subscriberSlots()`. A slot stays reserved for its last publisher, so
 * a publisher that republishes (new quality, new source) lands in the same slot: listeners keep
 * their connection and hear the new stream without a reload. Only when every slot is taken does a
 * new publisher reuse the slot of one that stopped.
 *
 * Stereo music: the answers carry Opus `stereo=1; sprop-stereo=1; maxaveragebitrate`, DTX and RED
 * off. A libwebrtc receiver (Chromium, wrtc) decodes stereo only when its OWN description says
 * `stereo=1`, so WHEP clients must write it into the Opus fmtp of their offer before
 * setLocalDescription (`preferStereoOpus` in `opus-sdp.ts` shows the edit).
 */

/** Opus accepts 6 to 510 kbit/s; the spec's options are 96k to 480k. */
export const MIN_OPUS_BITRATE = 6_000;
export const MAX_OPUS_BITRATE = 510_000;

/** How many publishers a room carries, and so how many recvonly transceivers a WHEP offer brings. */
export const DEFAULT_SLOT_COUNT = 8;

export interface PublishOptions {
  /** Opus `maxaveragebitrate` in bit/s written into the answer (e.g. 320000). */
  maxAverageBitrate: number;
  /**
   * The publisher also sends lossless PCM on a data channel of its own offer; the SFU relays each
   * binary message unchanged to every subscriber that offered a data channel.
   */
  lossless?: boolean;
  /**
   * The publisher may also send one camera track (VP8; talkback only, never the music), forwarded
   * on each video-subscriber's video slot paired with the publisher's audio slot.
   */
  video?: boolean;
}

export interface SubscribeOptions {
  /**
   * The offer also carries recvonly video transceivers (one per audio slot): the i-th carries the
   * camera of whoever the i-th audio slot carries, and the slot map lists them after the audio.
   */
  video?: boolean;
}

export interface SdpExchange {
  answerSdp: string;
  /** Opaque id of the WHIP/WHEP resource: `remove(resourceId)` is its DELETE. */
  resourceId: string;
}

/** Which publisher a subscriber's slot (its recvonly m-line `mid`) currently carries. */
export interface SlotAssignment {
  mid: string;
  /** The publishing participant, or null while the slot has never carried anyone. */
  participant: string | null;
  /** Whether that participant is publishing right now (a stopped one keeps its slot reserved). */
  live: boolean;
}

export type StopReason =
  | 'deleted' // WHIP/WHEP DELETE (remove)
  | 'replaced' // the participant republished and the new stream took over
  | 'timeout' // no media (publisher) or no ICE/RTCP (subscriber) within the dead-peer timeout
  | 'failed' // ICE or DTLS failed or the peer closed
  | 'dropped' // dropParticipant
  | 'room-closed' // closeRoom
  | 'shutdown'; // close()

export type SfuEvent =
  | { type: 'publisher-started'; room: string; participant: string; resourceId: string }
  | { type: 'publisher-stopped'; room: string; participant: string; resourceId: string; reason: StopReason }
  | { type: 'subscriber-gone'; room: string; participant: string; resourceId: string; reason: StopReason }
  | { type: 'slots-changed'; room: string; participant: string; resourceId: string; slots: SlotAssignment[] };

export interface SfuStats {
  rooms: number;
  publishers: number;
  subscribers: number;
  /** Media and data bytes received from publishers (RTP payloads and data-channel messages). */
  bytesIn: number;
  /** Media and data bytes sent to subscribers. */
  bytesOut: number;
  packetsIn: number;
  packetsOut: number;
}

export interface SfuDriver {
  /** The room's publisher cap; a WHEP offer should carry this many recvonly audio transceivers. */
  readonly slotCount: number;
  /**
   * WHIP. A participant that already publishes in the room republishes: the new stream takes over
   * its slot at its first packet and the old resource then stops (reason 'replaced'). Refuses an
   * offer without one sending Opus audio m-line (400) and a room already full of publishers (409).
   */
  publish(room: string, participant: string, offerSdp: string, options: PublishOptions): Promise<SdpExchange>;
  /** WHEP. Refuses an offer without a recvonly audio m-line (400). */
  subscribe(room: string, participant: string, offerSdp: string, options?: SubscribeOptions): Promise<SdpExchange>;
  /** WHIP/WHEP PATCH (trickle ICE): the `a=candidate` lines of an SDP fragment. False: unknown resource. */
  addIceCandidates(resourceId: string, sdpFragment: string): Promise<boolean>;
  /** WHIP/WHEP DELETE: frees the resource at once. False when it is unknown (already gone). */
  remove(resourceId: string): Promise<boolean>;
  /** Which publisher each slot of a subscriber carries; undefined for an unknown resource. */
  subscriberSlots(resourceId: string): SlotAssignment[] | undefined;
  /** Ends every publisher and subscriber of the room. */
  closeRoom(room: string): Promise<void>;
  /** Ends a participant's publishers and subscribers in the room (kicked, left, tab replaced). */
  dropParticipant(room: string, participant: string): Promise<void>;
  /** Subscribes to the driver's events; returns the unsubscribe function. */
  onEvent(listener: (event: SfuEvent) => void): () => void;
  stats(): SfuStats;
  /** Ends everything (process shutdown). */
  close(): Promise<void>;
}

/** Refuses a bitrate Opus can't carry; every driver checks a publish the same way. */
export function assertOpusBitrate(bitrate: number): void {
  if (!Number.isFinite(bitrate) || bitrate < MIN_OPUS_BITRATE || bitrate > MAX_OPUS_BITRATE)
    throw DomainError.badRequest(`The bitrate must be between ${MIN_OPUS_BITRATE} and ${MAX_OPUS_BITRATE} bit/s.`);
}
