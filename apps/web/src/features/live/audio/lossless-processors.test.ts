import { decodeLosslessFrame, encodeLosslessFrame, floatToInt24, INT24_SCALE } from '@mixroom/shared';
import { describe, expect, it } from 'vitest';
import { CALM_SECONDS, decodeFrame, encodeFrame, LosslessJitter, MAX_TARGET_MS } from './lossless-processors.js';

const RATE = 48_000;
const frame = (value: number, length = 480) => new Float32Array(length).fill(value);

describe('lossless worklets', () => {
  it('write and read the frame format of @mixroom/shared, bit for bit', () => {
    const left = Float32Array.from([0, 0.5, -1, 1, 1 / INT24_SCALE, -3 / INT24_SCALE, 0.123456789]);
    const right = Float32Array.from([0.25, -0.25, 2, -2, 0, 7 / INT24_SCALE, -0.987654321]);
    const bytes = encodeFrame(41, RATE, left, right);
    const shared = decodeLosslessFrame(bytes)!;
    expect(shared.sequence).toBe(41);
    expect(shared.sampleRate).toBe(RATE);
    expect([...shared.channels[0]!]).toEqual([...left].map(floatToInt24));
    expect([...shared.channels[1]!]).toEqual([...right].map(floatToInt24));

    const again = encodeLosslessFrame(shared);
    const decoded = decodeFrame(again.slice().buffer)!;
    // The player's floats are the 24-bit values exactly: scaled back they are the same integers.
    expect([...decoded.left].map((x) => x * INT24_SCALE)).toEqual([...shared.channels[0]!]);
    expect([...decoded.right].map((x) => x * INT24_SCALE)).toEqual([...shared.channels[1]!]);
    expect(decodeFrame(new ArrayBuffer(10))).toBeNull();
  });

  it('buffers to the target, plays in order, and counts a dry buffer and a missing frame as dropouts', () => {
    const jitter = new LosslessJitter(RATE, 20);
    const left = new Float32Array(128);
    const right = new Float32Array(128);
    jitter.push(0, frame(0.1), frame(-0.1));
    jitter.pull(left, right);
    // 10 ms buffered of a 20 ms target: still silent.
    expect(left.every((x) => x === 0)).toBe(true);
    expect(jitter.stats()).toMatchObject({ playing: false, depthMs: 10 });
    jitter.push(1, frame(0.2), frame(-0.2));
    jitter.pull(left, right);
    expect(left[0]).toBeCloseTo(0.1, 6);
    expect(right[0]).toBeCloseTo(-0.1, 6);
    expect(jitter.stats()).toMatchObject({ playing: true, dropouts: 0 });
    // 960 − 128 samples left: seven more blocks drain it, the eighth runs dry.
    for (let i = 0; i < 7; i++) jitter.pull(left, right);
    expect(jitter.stats().dropouts).toBe(1);
    expect(jitter.stats().playing).toBe(false);
    jitter.push(5, frame(0.3), frame(0.3));
    expect(jitter.stats()).toMatchObject({ dropouts: 2, missingFrames: 3 });
    // A repeated or older frame is ignored.
    jitter.push(5, frame(0.9), frame(0.9));
    jitter.push(4, frame(0.9), frame(0.9));
    expect(jitter.stats().frames).toBe(3);
  });

  it('grows its target by half each time it runs dry (up to a ceiling), and shrinks it back after a calm stretch', () => {
    const jitter = new LosslessJitter(RATE, 20);
    const left = new Float32Array(128);
    const right = new Float32Array(128);
    let sequence = 0;
    const feed = () => {
      jitter.push(sequence, frame(0.5), frame(0.5));
      sequence += 1;
    };
    /** Feeds exactly the target, then drains it dry: one dropout. */
    const starve = () => {
      while (jitter.depthMs < jitter.stats().targetMs) feed();
      while (jitter.stats().playing || jitter.depthMs > 0) jitter.pull(left, right);
    };
    expect(jitter.stats().targetMs).toBe(20);
    starve();
    expect(jitter.stats()).toMatchObject({ dropouts: 1, targetMs: 30 });
    starve();
    expect(jitter.stats()).toMatchObject({ dropouts: 2, targetMs: 45 });
    for (let i = 0; i < 12; i++) starve();
    expect(jitter.stats().targetMs).toBe(MAX_TARGET_MS);
    // Twenty seconds played without running dry: a tenth off, and again after the next twenty.
    const steady = (seconds: number) => {
      for (let played = 0; played < seconds * RATE; played += 128) {
        if (jitter.depthMs < 2 * jitter.stats().targetMs) feed();
        jitter.pull(left, right);
      }
    };
    steady(CALM_SECONDS + 1);
    expect(jitter.stats().targetMs).toBe(Math.round(MAX_TARGET_MS * 0.9));
    const dropouts = jitter.stats().dropouts;
    steady(CALM_SECONDS * 40);
    // Back at the first target, never below it, and no dropout on the way.
    expect(jitter.stats()).toMatchObject({ targetMs: 20, dropouts });
  });

  it('skips the oldest audio back to the target when three times the target waits', () => {
    const jitter = new LosslessJitter(RATE, 20);
    for (let sequence = 0; sequence < 7; sequence++) jitter.push(sequence, frame(sequence), frame(sequence));
    expect(jitter.stats()).toMatchObject({ depthMs: 20, skippedMs: 50, dropouts: 1 });
    const left = new Float32Array(128);
    jitter.pull(left, new Float32Array(128));
    expect(left[0]).toBe(5);
  });
});
