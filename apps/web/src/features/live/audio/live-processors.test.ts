import { describe, expect, it } from 'vitest';
import { RING_CALM_SECONDS, RING_MAX_MS, RingBuffer } from './live-processors.js';

const RATE = 48_000;
const block = (value: number, length = 480) => new Float32Array(length).fill(value);

describe("the bridge's ring buffer", () => {
  it('starts at its target, plays in order, and grows the target by half after running dry', () => {
    const ring = new RingBuffer(RATE, 20);
    const left = new Float32Array(128);
    const right = new Float32Array(128);
    ring.push(block(0.1), block(-0.1));
    ring.pull(left, right);
    expect(left.every((x) => x === 0)).toBe(true);
    ring.push(block(0.2), block(-0.2));
    ring.pull(left, right);
    expect([left[0], right[0]]).toEqual([Math.fround(0.1), Math.fround(-0.1)]);
    while (ring.playing) ring.pull(left.fill(0), right.fill(0));
    expect({ underruns: ring.underruns, targetMs: ring.targetMs }).toEqual({ underruns: 1, targetMs: 30 });
  });

  it('stops growing at its ceiling, and comes back to its first target once the feed is calm', () => {
    const ring = new RingBuffer(RATE, 20);
    const out = new Float32Array(128);
    const starve = () => {
      while (ring.filled < (ring.targetMs / 1000) * RATE) ring.push(block(0.5), block(0.5));
      while (ring.playing || ring.filled > 0) ring.pull(out, out);
    };
    for (let i = 0; i < 20; i++) starve();
    expect(ring.targetMs).toBe(RING_MAX_MS);
    const underruns = ring.underruns;
    for (let played = 0; played < RING_CALM_SECONDS * 40 * RATE; played += 128) {
      if (ring.filled < (2 * ring.targetMs * RATE) / 1000) ring.push(block(0.5), block(0.5));
      ring.pull(out, out);
    }
    expect({ targetMs: ring.targetMs, underruns: ring.underruns }).toEqual({ targetMs: 20, underruns });
  });

  it('cuts a burst back to the target, so the delay stays bounded', () => {
    const ring = new RingBuffer(RATE, 20);
    for (let i = 0; i < 7; i++) ring.push(block(i), block(i));
    expect(ring.filled).toBe(960);
    const out = new Float32Array(128);
    ring.pull(out, new Float32Array(128));
    expect(out[0]).toBe(5);
  });
});
