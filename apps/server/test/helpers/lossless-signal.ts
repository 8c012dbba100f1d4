import { performance } from 'node:perf_hooks';
import {
  decodeLosslessFrame,
  encodeLosslessFrame,
  INT24_SCALE,
  LOSSLESS_FRAME_LENGTH,
  LOSSLESS_SAMPLE_RATE,
  type LosslessFrame,
} from '@mixroom/shared';
import type { WrtcDataChannel } from './rtc-wrtc';

/**
 * A known 24-bit stereo signal for the lossless path: every sample of frame `sequence` is drawn
 * from a generator seeded by the sequence and channel, over the whole 24-bit range, so any bit
 * changed, any frame swapped or repeated shows.
 */
export function knownFrame(sequence: number): LosslessFrame {
  const channels = [0, 1].map((channel) => {
    let state = (Math.imul(sequence + 1, 2_654_435_761) ^ (channel ? 0x9e3779b9 : 0x7f4a7c15)) >>> 0;
    const samples = new Int32Array(LOSSLESS_FRAME_LENGTH);
    for (let i = 0; i < samples.length; i++) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      samples[i] = (state >>> 8) - INT24_SCALE;
    }
    return samples;
  });
  return { sequence, sampleRate: LOSSLESS_SAMPLE_RATE, channels };
}

/** Sends the known signal in real time (10 ms a frame), catching up after a busy moment. */
export class LosslessSender {
  sent = 0;
  readonly sentAtMs = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly channel: WrtcDataChannel) {}

  start(): void {
    const startedAt = performance.now();
    const frameMs = (LOSSLESS_FRAME_LENGTH / LOSSLESS_SAMPLE_RATE) * 1000;
    this.timer = setInterval(() => {
      const due = Math.floor((performance.now() - startedAt) / frameMs);
      while (this.sent < due && this.channel.readyState === 'open') {
        this.sentAtMs.set(this.sent, performance.now());
        this.channel.send(encodeLosslessFrame(knownFrame(this.sent)));
        this.sent += 1;
      }
    }, 5);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export interface ReceivedFrame {
  frame: LosslessFrame;
  atMs: number;
}

/** The frames a listener's data-channel messages decode to, with their arrival times. */
export function decodeMessages(messages: { data: Buffer; atMs: number }[]): ReceivedFrame[] {
  return messages.flatMap(({ data, atMs }) => {
    const frame = decodeLosslessFrame(data);
    return frame ? [{ frame, atMs }] : [];
  });
}

/** Whether a received frame is exactly the frame of its sequence number: every sample, every bit. */
export function identicalToSent(frame: LosslessFrame): boolean {
  const sent = knownFrame(frame.sequence);
  if (frame.sampleRate !== sent.sampleRate || frame.channels.length !== sent.channels.length) return false;
  return frame.channels.every((samples, c) => {
    const expected = sent.channels[c]!;
    return samples.length === expected.length && samples.every((value, i) => value === expected[i]);
  });
}
