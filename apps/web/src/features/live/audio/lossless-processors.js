/* global AudioWorkletProcessor, registerProcessor, sampleRate */
// AudioWorklet processors of lossless mode, served as a same-origin asset (the CSP allows 'self'
// only). A worklet module can't import the app's code, so the frame format (see
// packages/shared/src/live-lossless.ts, which the tests hold this copy to) is written out here.

const HEADER = 16;
const SCALE = 8388608; // 2^23

/** One frame: 16-byte header, then interleaved signed 24-bit little-endian samples. */
export function encodeFrame(sequence, rate, left, right) {
  const length = left.length;
  const buffer = new ArrayBuffer(HEADER + length * 6);
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  bytes[0] = 0x4d;
  bytes[1] = 1;
  bytes[2] = 1;
  bytes[3] = 2;
  view.setUint32(4, sequence >>> 0, true);
  view.setUint32(8, rate, true);
  view.setUint16(12, length, true);
  let at = HEADER;
  for (let i = 0; i < length; i++) {
    for (const channel of [left, right]) {
      let value = Math.round(channel[i] * SCALE);
      if (value > SCALE - 1) value = SCALE - 1;
      else if (value < -SCALE) value = -SCALE;
      bytes[at] = value & 0xff;
      bytes[at + 1] = (value >> 8) & 0xff;
      bytes[at + 2] = (value >> 16) & 0xff;
      at += 3;
    }
  }
  return buffer;
}

/** A frame as planar float samples (each 24-bit value / 2^23, exact in a float32); null if not one. */
export function decodeFrame(buffer) {
  if (buffer.byteLength < HEADER) return null;
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  if (bytes[0] !== 0x4d || bytes[1] !== 1 || bytes[2] !== 1) return null;
  const channels = bytes[3];
  const length = view.getUint16(12, true);
  if (channels < 1 || length < 1 || buffer.byteLength !== HEADER + length * channels * 3) return null;
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  let at = HEADER;
  for (let i = 0; i < length; i++) {
    for (let c = 0; c < channels; c++) {
      const value = ((bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16)) << 8) >> 8;
      if (c === 0) left[i] = value / SCALE;
      if (c === 1 || channels === 1) right[i] = value / SCALE;
      at += 3;
    }
  }
  return { sequence: view.getUint32(4, true), sampleRate: view.getUint32(8, true), left, right };
}

/**
 * The listener's jitter buffer. It starts playing once `targetMs` are buffered; when it runs dry
 * while playing that is a dropout (silence until `targetMs` are buffered again). A missing sequence
 * number is a dropout too. When more than three times the target waits (a burst after a stall, or
 * the sender's clock running faster than the listener's), the oldest audio is skipped back to the
 * target, so latency stays bounded; that jump is a dropout as well.
 *
 * The target adapts to the network it meets: each time the buffer runs dry it grows by half (up to
 * `MAX_TARGET_MS`), so a jittery path stops dropping out after a stall or two; after
 * `CALM_SECONDS` played without running dry it shrinks by a tenth back towards the first target, so
 * a path that calmed down gets its low latency back.
 */
export const MAX_TARGET_MS = 400;
export const CALM_SECONDS = 20;

export class LosslessJitter {
  constructor(rate, targetMs) {
    this.rate = rate;
    this.base = Math.max(1, Math.round((targetMs / 1000) * rate));
    this.max = Math.max(this.base, Math.round((MAX_TARGET_MS / 1000) * rate));
    this.target = this.base;
    this.calm = 0;
    this.size = rate * 2;
    this.ring = [new Float32Array(this.size), new Float32Array(this.size)];
    this.read = 0;
    this.write = 0;
    this.filled = 0;
    this.playing = false;
    this.started = false;
    this.lastSequence = null;
    this.dropouts = 0;
    this.missingFrames = 0;
    this.skippedMs = 0;
    this.frames = 0;
  }

  push(sequence, left, right) {
    if (this.lastSequence !== null) {
      const step = (sequence - this.lastSequence) >>> 0;
      // A repeat or an old frame: nothing to play.
      if (step === 0 || step > 0x7fffffff) return;
      if (step > 1) {
        this.missingFrames += step - 1;
        this.dropouts += 1;
      }
    }
    this.lastSequence = sequence;
    this.frames += 1;
    const n = left.length;
    for (let i = 0; i < n; i++) {
      this.ring[0][this.write] = left[i];
      this.ring[1][this.write] = right[i];
      this.write = (this.write + 1) % this.size;
    }
    this.filled += n;
    const excess = this.filled > this.target * 3 ? this.filled - this.target : Math.max(0, this.filled - this.size);
    if (excess > 0) {
      // Skipped audio is a jump the listener hears: it counts as a dropout too.
      this.read = (this.read + excess) % this.size;
      this.filled -= excess;
      this.skippedMs += (excess / this.rate) * 1000;
      this.dropouts += 1;
    }
  }

  /** Fills both outputs (zeros while buffering). */
  pull(left, right) {
    const n = left.length;
    if (!this.playing && this.filled >= this.target) {
      this.playing = true;
      this.started = true;
    }
    let i = 0;
    if (this.playing) {
      for (; i < n; i++) {
        if (this.filled === 0) {
          this.playing = false;
          this.dropouts += 1;
          this.target = Math.min(this.max, Math.round(this.target * 1.5));
          this.calm = 0;
          break;
        }
        left[i] = this.ring[0][this.read];
        right[i] = this.ring[1][this.read];
        this.read = (this.read + 1) % this.size;
        this.filled -= 1;
      }
    }
    if (this.playing) {
      this.calm += n;
      if (this.calm >= CALM_SECONDS * this.rate && this.target > this.base) {
        this.target = Math.max(this.base, Math.round(this.target * 0.9));
        this.calm = 0;
      }
    }
    for (; i < n; i++) {
      left[i] = 0;
      right[i] = 0;
    }
  }

  get depthMs() {
    return (this.filled / this.rate) * 1000;
  }

  stats() {
    return {
      depthMs: Math.round(this.depthMs),
      targetMs: Math.round((this.target / this.rate) * 1000),
      dropouts: this.dropouts,
      missingFrames: this.missingFrames,
      skippedMs: Math.round(this.skippedMs),
      frames: this.frames,
      playing: this.playing,
      started: this.started,
    };
  }
}

if (typeof registerProcessor === 'function') {
  /** Publisher: the source's PCM in frames of `frameLength`, posted as encoded messages. */
  class LosslessTap extends AudioWorkletProcessor {
    constructor(options) {
      super();
      const opts = (options && options.processorOptions) || {};
      this.length = opts.frameLength || 480;
      this.sequence = 0;
      this.on = false;
      this.left = new Float32Array(this.length);
      this.right = new Float32Array(this.length);
      this.at = 0;
      this.port.onmessage = (event) => {
        this.on = event.data === 'start';
        this.at = 0;
      };
    }
    process(inputs) {
      if (!this.on) return true;
      const input = inputs[0] || [];
      const frames = input.length ? input[0].length : 128;
      for (let i = 0; i < frames; i++) {
        this.left[this.at] = input[0] ? input[0][i] : 0;
        this.right[this.at] = input[1] ? input[1][i] : input[0] ? input[0][i] : 0;
        this.at += 1;
        if (this.at === this.length) {
          const frame = encodeFrame(this.sequence, sampleRate, this.left, this.right);
          this.sequence = (this.sequence + 1) >>> 0;
          this.at = 0;
          this.port.postMessage(frame, [frame]);
        }
      }
      return true;
    }
  }
  registerProcessor('mixroom-lossless-tap', LosslessTap);

  /** Listener: encoded frames posted on the port play through the jitter buffer; stats go back. */
  class LosslessPlayer extends AudioWorkletProcessor {
    constructor(options) {
      super();
      const opts = (options && options.processorOptions) || {};
      this.jitter = new LosslessJitter(sampleRate, opts.targetMs || 80);
      this.blocks = 0;
      this.statsEvery = Math.max(1, Math.round((sampleRate * 0.25) / 128));
      this.port.onmessage = (event) => {
        const frame = event.data instanceof ArrayBuffer ? decodeFrame(event.data) : null;
        // A frame at another rate would play at the wrong pitch: it is dropped, and counts as missing.
        if (frame && frame.sampleRate === sampleRate) this.jitter.push(frame.sequence, frame.left, frame.right);
      };
    }
    process(_inputs, outputs) {
      const out = outputs[0];
      this.jitter.pull(out[0], out[1] || new Float32Array(out[0].length));
      this.blocks += 1;
      if (this.blocks % this.statsEvery === 0) this.port.postMessage(this.jitter.stats());
      return true;
    }
  }
  registerProcessor('mixroom-lossless-player', LosslessPlayer);
}
