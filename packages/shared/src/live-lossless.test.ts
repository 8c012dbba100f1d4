import { describe, expect, it } from 'vitest';
import {
  decodeLosslessFrame,
  encodeLosslessFrame,
  floatToInt24,
  INT24_SCALE,
  LOSSLESS_HEADER_BYTES,
} from './live-lossless';

describe('lossless frames', () => {
  it('carry 24-bit samples, both extremes and the sign included, bit for bit', () => {
    const left = Int32Array.from([0, 1, -1, INT24_SCALE - 1, -INT24_SCALE, 0x123456, -0x123456]);
    const right = Int32Array.from([7, -7, 255, -256, 65_536, -65_537, 42]);
    const bytes = encodeLosslessFrame({ sequence: 0xfffffffe, sampleRate: 48_000, channels: [left, right] });
    expect(bytes.length).toBe(LOSSLESS_HEADER_BYTES + 7 * 2 * 3);
    expect([...bytes.slice(0, 4)]).toEqual([0x4d, 1, 1, 2]);
    const frame = decodeLosslessFrame(bytes.slice().buffer)!;
    expect(frame.sequence).toBe(0xfffffffe);
    expect(frame.sampleRate).toBe(48_000);
    expect(frame.channels).toEqual([left, right]);
    // Interleaved little-endian: the first right sample follows the first left one.
    expect([...bytes.slice(LOSSLESS_HEADER_BYTES, LOSSLESS_HEADER_BYTES + 6)]).toEqual([0, 0, 0, 7, 0, 0]);
  });

  it('refuses what is not a whole frame of this version', () => {
    const bytes = encodeLosslessFrame({ sequence: 1, sampleRate: 48_000, channels: [new Int32Array(4)] });
    expect(decodeLosslessFrame(bytes.slice(0, bytes.length - 1))).toBeNull();
    expect(decodeLosslessFrame(new Uint8Array(8))).toBeNull();
    const other = bytes.slice();
    other[1] = 2;
    expect(decodeLosslessFrame(other)).toBeNull();
    expect(() => encodeLosslessFrame({ sequence: 1, sampleRate: 48_000, channels: [] })).toThrow(RangeError);
    expect(() =>
      encodeLosslessFrame({ sequence: 1, sampleRate: 48_000, channels: [new Int32Array(2), new Int32Array(3)] }),
    ).toThrow(RangeError);
  });

  it('quantises floats to 24 bits, clipped; every 24-bit value comes back exactly through a float32', () => {
    expect(floatToInt24(1)).toBe(INT24_SCALE - 1);
    expect(floatToInt24(-1.5)).toBe(-INT24_SCALE);
    expect(floatToInt24(0.5)).toBe(INT24_SCALE / 2);
    const floats = new Float32Array(1);
    for (const value of [INT24_SCALE - 1, -INT24_SCALE, 1, -1, 0x3abcde]) {
      floats[0] = value / INT24_SCALE;
      expect(floatToInt24(floats[0])).toBe(value);
    }
  });
});
