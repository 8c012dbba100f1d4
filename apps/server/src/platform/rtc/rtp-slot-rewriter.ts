/**
 * One outgoing RTP stream (a subscriber's slot) fed by a succession of sources: a publisher, then
 * its republished stream, or another publisher. A receiver's jitter buffer expects one stream with
 * sequence numbers that go up by one and timestamps that follow the media clock; a new source
 * starts at its own random sequence and timestamp, which the receiver would read as a huge jump
 * (silence, or packets dropped as too old). So each new source is re-based: its first packet
 * continues the slot's sequence at +1 and its timestamp at the last one plus the wall time since
 * (at least one 20 ms frame), and later packets keep the source's own spacing from there.
 *
 * The SSRC is the subscriber sender's own and never changes; werift writes it.
 */

const SEQ_MOD = 0x1_0000;
const TS_MOD = 0x1_0000_0000;
/** Opus runs a 48 kHz RTP clock (a talkback camera's VP8 runs 90 kHz: its slots pass 90). */
const OPUS_TICKS_PER_MS = 48;
/** One 20 ms frame: the smallest timestamp step between two sources. */
const MIN_SOURCE_GAP_MS = 20;

export interface RewrittenHeader {
  sequenceNumber: number;
  timestamp: number;
}

/** Whether sequence number `a` comes after `b` in RTP's wrapping 16-bit order. */
function seqNewer(a: number, b: number): boolean {
  const diff = (a - b + SEQ_MOD) % SEQ_MOD;
  return diff !== 0 && diff < SEQ_MOD / 2;
}

export class RtpSlotRewriter {
  private source: string | undefined;
  private seqOffset = 0;
  private tsOffset = 0;
  private last: { seq: number; ts: number; atMs: number } | undefined;

  constructor(private readonly ticksPerMs: number = OPUS_TICKS_PER_MS) {}

  /**
   * Maps one packet of `source` (any key naming a stream: a publisher resource and its SSRC) onto
   * the slot's stream. `nowMs` is a monotonic time in milliseconds (performance.now()).
   */
  rewrite(source: string, sequenceNumber: number, timestamp: number, nowMs: number): RewrittenHeader {
    if (source !== this.source) {
      this.source = source;
      if (this.last) {
        const gapMs = Math.max(MIN_SOURCE_GAP_MS, nowMs - this.last.atMs);
        const gapTicks = Math.round(gapMs * this.ticksPerMs);
        this.seqOffset = (this.last.seq + 1 - sequenceNumber + SEQ_MOD * 2) % SEQ_MOD;
        this.tsOffset = (this.last.ts + gapTicks - timestamp + TS_MOD * 2) % TS_MOD;
      } else {
        this.seqOffset = 0;
        this.tsOffset = 0;
      }
      this.last = undefined;
    }
    const out = {
      sequenceNumber: (sequenceNumber + this.seqOffset) % SEQ_MOD,
      timestamp: (timestamp + this.tsOffset) % TS_MOD,
    };
    // A late (reordered) packet goes out with its mapped numbers but does not move the stream's end.
    if (!this.last || seqNewer(out.sequenceNumber, this.last.seq)) {
      this.last = { seq: out.sequenceNumber, ts: out.timestamp, atMs: nowMs };
    }
    return out;
  }
}
