import { encodeLosslessFrame, LOSSLESS_FRAME_LENGTH } from '@mixroom/shared';
import { describe, expect, it } from 'vitest';
import { relayBacklogLimitBytes } from './relay-backlog';

function frame(sampleRate: number, channels: number, length = LOSSLESS_FRAME_LENGTH): Uint8Array {
  return encodeLosslessFrame({
    sequence: 7,
    sampleRate,
    channels: Array.from({ length: channels }, () => new Int32Array(length)),
  });
}

describe('how far a lossless listener may fall behind', () => {
  it('is 1.5 s of the stream, whatever its rate and channels', () => {
    // 48 kHz stereo, 10 ms frames of 2,896 bytes: 289,600 bytes a second.
    expect(relayBacklogLimitBytes(frame(48_000, 2))).toBe(434_400);
    // 96 kHz stereo is twice the bytes a second, so twice the bytes for the same 1.5 s.
    expect(relayBacklogLimitBytes(frame(96_000, 2, 960))).toBe(Math.ceil((16 + 960 * 6) * 100 * 1.5));
    expect(relayBacklogLimitBytes(frame(48_000, 1))).toBe(Math.ceil((16 + 480 * 3) * 100 * 1.5));
  });

  it('holds anything that is not a frame to a small fixed budget', () => {
    expect(relayBacklogLimitBytes(new Uint8Array(100))).toBe(512 * 1024);
    const wrongLength = frame(48_000, 2).slice(0, 200);
    expect(relayBacklogLimitBytes(wrongLength)).toBe(512 * 1024);
  });
});
