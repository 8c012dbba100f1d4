/**
 * Notices a dead media path seconds before ICE does. libwebrtc reports 'disconnected' only after
 * 7–8 s without packets (measured: wrtc and the embedded SFU, a node killed with SIGKILL), while a
 * live path carries something every second or so even when nobody sends audio: the SFU's RTCP
 * sender reports to a listener, its receiver reports to a publisher, STUN consent answers to both.
 *
 * The rule: while connected, the peer's stats are read every STATS_POLL_MS. Any byte received on the
 * transport counts as a sign of life. Once two RTCP reports from the other end have come (so one gap
 * between them is known), a silence longer than STALL_REPORT_GAPS times the longest gap seen between
 * reports on this connection, and at least STALL_MIN_MS, means the path is dead. The gap is measured
 * per connection, so a server that reports every 5 s (libwebrtc's audio default) is given 12.5 s
 * and never cut early; the embedded SFU reports every 1–1.4 s, so its path is judged in about 3 s.
 * A connection with fewer than two reports (its first two seconds or so, or a server that sends
 * none) is never judged here: ICE's own states still apply.
 */

/** How often a connected peer's stats are read. */
export const STATS_POLL_MS = 250;
/** The shortest silence that counts as a dead path, however fast the reports come. */
export const STALL_MIN_MS = 2500;
/** How many of the longest report gaps seen may pass without a byte before the path counts as dead. */
export const STALL_REPORT_GAPS = 2.5;

/** What the watch reads of a stats report (RTCStatsReport in a browser, wrtc's in Node). */
export interface StatsEntry {
  type: string;
  bytesReceived?: number;
  nominated?: boolean;
  /** remote-outbound-rtp: RTCP sender reports received (a listener's view of the server). */
  reportsSent?: number;
  /** remote-inbound-rtp: receiver reports with a round trip (a publisher's view of the server). */
  roundTripTimeMeasurements?: number;
}
export interface StatsLike {
  forEach(visit: (entry: StatsEntry) => void): void;
}

/** What one stats report says: bytes received on the transport, RTCP reports received. */
export function readCounters(report: StatsLike): { bytes: number; reports: number } {
  let transportBytes = 0;
  let pairBytes = 0;
  let hasTransport = false;
  let reports = 0;
  report.forEach((entry) => {
    if (entry.type === 'transport') {
      hasTransport = true;
      transportBytes += entry.bytesReceived ?? 0;
    } else if (entry.type === 'candidate-pair' && entry.nominated) pairBytes += entry.bytesReceived ?? 0;
    else if (entry.type === 'remote-outbound-rtp') reports += entry.reportsSent ?? 0;
    else if (entry.type === 'remote-inbound-rtp') reports += entry.roundTripTimeMeasurements ?? 0;
  });
  return { bytes: hasTransport ? transportBytes : pairBytes, reports };
}

/** One connection's watch: fed a stats report and its time (ms), it says whether the path is dead. */
export class StallWatch {
  private bytes = -1;
  private lastArrival = 0;
  private reports = -1;
  private reportsSeen = 0;
  private lastReportAt: number | null = null;
  /** The longest time between two reports seen on this connection (0 until two have come). */
  longestReportGap = 0;

  /** The silence after which the path counts as dead, or null while no report gap is known. */
  get limitMs(): number | null {
    if (this.reportsSeen < 2) return null;
    return Math.max(STALL_MIN_MS, STALL_REPORT_GAPS * this.longestReportGap);
  }

  /** Reads one report taken at `now`; true when nothing has arrived for longer than the limit. */
  read(report: StatsLike, now: number): boolean {
    const { bytes, reports } = readCounters(report);
    if (bytes !== this.bytes) {
      this.bytes = bytes;
      this.lastArrival = now;
    }
    if (reports !== this.reports) {
      // The first reading only sets the baseline; each later increase is a report that came.
      if (this.reports >= 0 && reports > this.reports) {
        if (this.lastReportAt !== null)
          this.longestReportGap = Math.max(this.longestReportGap, now - this.lastReportAt);
        this.lastReportAt = now;
        this.reportsSeen++;
      }
      this.reports = reports;
    }
    const limit = this.limitMs;
    return limit !== null && now - this.lastArrival > limit;
  }

  /** The current silence (ms since the last byte), for reporting. */
  silentFor(now: number): number {
    return now - this.lastArrival;
  }
}
