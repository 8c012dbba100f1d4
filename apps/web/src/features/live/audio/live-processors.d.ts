/** What `live-processors.js` exports besides its processors (for the tests). */
export const RING_MAX_MS: number;
export const RING_CALM_SECONDS: number;

export class RingBuffer {
  constructor(rate: number, targetMs: number);
  push(left: Float32Array, right?: Float32Array): void;
  pull(left: Float32Array, right?: Float32Array): void;
  readonly targetMs: number;
  readonly underruns: number;
  readonly playing: boolean;
  readonly filled: number;
}
