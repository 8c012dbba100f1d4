import { describe, expect, it } from 'vitest';
import { RtpSlotRewriter } from './rtp-slot-rewriter';

describe('RtpSlotRewriter', () => {
  it('passes the first source through and keeps its spacing', () => {
    const slot = new RtpSlotRewriter();
    expect(slot.rewrite('a', 100, 5000, 0)).toEqual({ sequenceNumber: 100, timestamp: 5000 });
    expect(slot.rewrite('a', 101, 5960, 20)).toEqual({ sequenceNumber: 101, timestamp: 5960 });
  });

  it('continues the stream at +1 and the wall time since when a new source takes over', () => {
    const slot = new RtpSlotRewriter();
    slot.rewrite('a', 100, 5000, 0);
    slot.rewrite('a', 101, 5960, 20);
    // 100 ms later a republished stream starts at its own random numbers.
    expect(slot.rewrite('b', 40_000, 123_456_789, 120)).toEqual({ sequenceNumber: 102, timestamp: 5960 + 4800 });
    expect(slot.rewrite('b', 40_001, 123_457_749, 140)).toEqual({ sequenceNumber: 103, timestamp: 5960 + 4800 + 960 });
  });

  it('steps at least one frame between sources, and wraps both counters', () => {
    const slot = new RtpSlotRewriter();
    slot.rewrite('a', 65_535, 4_294_967_000, 0);
    expect(slot.rewrite('b', 7, 10, 0)).toEqual({ sequenceNumber: 0, timestamp: (4_294_967_000 + 960) % 2 ** 32 });
    expect(slot.rewrite('b', 8, 970, 20)).toEqual({ sequenceNumber: 1, timestamp: (4_294_967_000 + 1920) % 2 ** 32 });
  });

  it('maps a late packet without moving the end of the stream', () => {
    const slot = new RtpSlotRewriter();
    slot.rewrite('a', 10, 0, 0);
    slot.rewrite('a', 12, 1920, 40);
    expect(slot.rewrite('a', 11, 960, 45)).toEqual({ sequenceNumber: 11, timestamp: 960 });
    expect(slot.rewrite('b', 500, 0, 60)).toEqual({ sequenceNumber: 13, timestamp: 1920 + 960 });
  });

  it("re-bases a camera's slot on the 90 kHz video clock", () => {
    const slot = new RtpSlotRewriter(90);
    slot.rewrite('a', 1, 90_000, 0);
    // A camera that comes back 500 ms later continues 45 000 ticks on, not 24 000.
    expect(slot.rewrite('b', 900, 7, 500)).toEqual({ sequenceNumber: 2, timestamp: 90_000 + 45_000 });
  });
});
