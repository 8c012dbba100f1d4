import { describe, expect, it } from 'vitest';
import { readCounters, StallWatch, type StatsEntry } from './stall-watch';

/**
 * The stall rule on its own, fed stats as a publisher sees them (the server's receiver reports)
 * and as a peer without transport stats reports them (the nominated candidate pair's bytes).
 */
describe('StallWatch', () => {
  it("reads a publisher's receiver reports and falls back to the nominated pair's bytes", () => {
    const publisher: StatsEntry[] = [
      { type: 'transport', bytesReceived: 1603 },
      { type: 'remote-inbound-rtp', roundTripTimeMeasurements: 3 },
      { type: 'outbound-rtp', bytesReceived: 99 },
    ];
    expect(readCounters(publisher)).toEqual({ bytes: 1603, reports: 3 });
    const noTransport: StatsEntry[] = [
      { type: 'candidate-pair', nominated: false, bytesReceived: 10 },
      { type: 'candidate-pair', nominated: true, bytesReceived: 500 },
      { type: 'remote-outbound-rtp', reportsSent: 2 },
    ];
    expect(readCounters(noTransport)).toEqual({ bytes: 500, reports: 2 });
  });

  it('judges nothing before two reports; then 2.5 of the longest gap, never under 2.5 s', () => {
    const watch = new StallWatch();
    const at = (t: number, bytes: number, reports: number) =>
      watch.read(
        [
          { type: 'transport', bytesReceived: bytes },
          { type: 'remote-inbound-rtp', roundTripTimeMeasurements: reports },
        ],
        t,
      );
    expect(at(0, 100, 0)).toBe(false);
    // A first report: still no gap known, so even a long silence says nothing.
    expect(at(1000, 150, 1)).toBe(false);
    expect(at(9000, 150, 1)).toBe(false);
    expect(watch.limitMs).toBeNull();
    // Reports 8.2 s apart (the first gap), then 1 s: the limit is 2.5 × the longest.
    expect(at(9200, 200, 2)).toBe(false);
    expect(watch.limitMs).toBe(20_500);
    const quick = new StallWatch();
    const read = (t: number, bytes: number, reports: number) =>
      quick.read(
        [
          { type: 'transport', bytesReceived: bytes },
          { type: 'remote-outbound-rtp', reportsSent: reports },
        ],
        t,
      );
    read(0, 100, 0);
    read(1000, 150, 1);
    read(2200, 200, 2);
    read(3800, 250, 3);
    expect(quick.longestReportGap).toBe(1600);
    expect(quick.limitMs).toBe(4000);
    expect(read(7800, 250, 3)).toBe(false);
    expect(read(7801, 250, 3)).toBe(true);
    expect(quick.silentFor(7801)).toBe(4001);
    // Reports closer than 1 s still leave at least 2.5 s.
    const fast = new StallWatch();
    for (let i = 0; i < 5; i++) fast.read([{ type: 'remote-outbound-rtp', reportsSent: i }], i * 200);
    expect(fast.limitMs).toBe(2500);
    // Bytes without a report (RTP, STUN) are signs of life too.
    expect(read(7900, 260, 3)).toBe(false);
  });
});
