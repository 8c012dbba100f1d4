import { losslessFrameSeconds } from '@mixroom/shared';

/**
 * A listener whose relay channel is further behind than this hears old sound: past it, the relay
 * drops new frames for that listener (its jitter buffer conceals the gap by the sequence numbers and
 * catches up) instead of queueing seconds of delay and memory.
 */
export const MAX_RELAY_BACKLOG_SECONDS = 1.5;
/** Messages that are not lossless frames (no duration to read) are held to this many bytes. */
const FALLBACK_BACKLOG_BYTES = 512 * 1024;

/**
 * The bytes a relay channel may have queued before `message` is dropped: 1.5 s of the stream the
 * message belongs to (its bytes per second read from its own header), 432 KB for 48 kHz stereo.
 */
export function relayBacklogLimitBytes(message: Uint8Array): number {
  const seconds = losslessFrameSeconds(message);
  if (seconds === null) return FALLBACK_BACKLOG_BYTES;
  return Math.ceil((message.length / seconds) * MAX_RELAY_BACKLOG_SECONDS);
}
