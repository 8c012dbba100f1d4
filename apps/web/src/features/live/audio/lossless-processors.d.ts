/** What `lossless-processors.js` exports besides its processors (for the tests). */
export interface DecodedFrame {
  sequence: number;
  sampleRate: number;
  left: Float32Array;
  right: Float32Array;
}

export interface JitterStats {
  depthMs: number;
  /** The buffer it aims for now: the first target, grown after dry runs, shrunk back after calm. */
  targetMs: number;
  dropouts: number;
  missingFrames: number;
  skippedMs: number;
  frames: number;
  playing: boolean;
  started: boolean;
}

export function encodeFrame(sequence: number, rate: number, left: Float32Array, right: Float32Array): ArrayBuffer;
export function decodeFrame(buffer: ArrayBuffer): DecodedFrame | null;

export const MAX_TARGET_MS: number;
export const CALM_SECONDS: number;

export class LosslessJitter {
  constructor(rate: number, targetMs: number);
  push(sequence: number, left: Float32Array, right: Float32Array): void;
  pull(left: Float32Array, right: Float32Array): void;
  readonly depthMs: number;
  stats(): JitterStats;
}
