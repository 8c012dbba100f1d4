/* global AudioWorkletProcessor, registerProcessor, sampleRate */
// AudioWorklet processors of live rooms, served as a same-origin asset (the CSP allows 'self' only).
/**
 * The bridge's audio on its way into the page's graph: blocks from the socket go in, the audio clock
 * pulls them out once `targetMs` are buffered. More than three times the target waiting (a burst
 * after a stall) is cut back to the target, so the delay stays bounded. Like the lossless listener's
 * buffer, the target adapts: half again each time it runs dry while playing (up to `RING_MAX_MS`),
 * a tenth back after `RING_CALM_SECONDS` played without (never below the first target).
 */
export const RING_MAX_MS = 300;
export const RING_CALM_SECONDS = 20;

export class RingBuffer {
  constructor(rate, targetMs) {
    this.rate = rate;
    this.size = rate;
    this.base = Math.max(1, Math.round((targetMs / 1000) * rate));
    this.max = Math.max(this.base, Math.round((RING_MAX_MS / 1000) * rate));
    this.target = this.base;
    this.calm = 0;
    this.underruns = 0;
    this.ring = [new Float32Array(this.size), new Float32Array(this.size)];
    this.read = 0;
    this.write = 0;
    this.filled = 0;
    this.playing = false;
  }
  push(left, right) {
    const n = left.length;
    for (let i = 0; i < n; i++) {
      this.ring[0][this.write] = left[i];
      this.ring[1][this.write] = (right || left)[i];
      this.write = (this.write + 1) % this.size;
    }
    this.filled = Math.min(this.size, this.filled + n);
    if (this.filled > this.target * 3) {
      const drop = this.filled - this.target;
      this.read = (this.read + drop) % this.size;
      this.filled -= drop;
    }
    if (this.filled === this.size) this.read = this.write;
  }
  pull(left, right) {
    const frames = left.length;
    if (!this.playing && this.filled >= this.target) this.playing = true;
    if (!this.playing) return;
    for (let i = 0; i < frames; i++) {
      if (this.filled === 0) {
        this.playing = false;
        this.underruns += 1;
        this.target = Math.min(this.max, Math.round(this.target * 1.5));
        this.calm = 0;
        return;
      }
      left[i] = this.ring[0][this.read];
      if (right) right[i] = this.ring[1][this.read];
      this.read = (this.read + 1) % this.size;
      this.filled--;
    }
    this.calm += frames;
    if (this.calm >= RING_CALM_SECONDS * this.rate && this.target > this.base) {
      this.target = Math.max(this.base, Math.round(this.target * 0.9));
      this.calm = 0;
    }
  }
  get targetMs() {
    return Math.round((this.target / this.rate) * 1000);
  }
}

if (typeof registerProcessor === 'function') {
  class RingPlayer extends AudioWorkletProcessor {
    constructor(options) {
      super();
      const opts = (options && options.processorOptions) || {};
      this.buffer = new RingBuffer(sampleRate, opts.targetMs || 60);
      // Blocks come on this port, or on a port handed over in `{ feed }` (the bridge's socket
      // worker posts there directly, past the page's main thread); the newest feed replaces the last.
      const push = (event) => this.buffer.push(event.data[0], event.data[1]);
      this.port.onmessage = (event) => {
        if (event.data && event.data.feed) {
          if (this.feed) this.feed.close();
          this.feed = event.data.feed;
          this.feed.onmessage = push;
          return;
        }
        push(event);
      };
    }
    process(_inputs, outputs) {
      const out = outputs[0];
      this.buffer.pull(out[0], out[1]);
      return true;
    }
  }
  registerProcessor('mixroom-ring-player', RingPlayer);

  class Recorder extends AudioWorkletProcessor {
    constructor() {
      super();
      this.recording = false;
      this.block = 4096;
      this.reset();
      this.port.onmessage = (event) => {
        if (event.data === 'start') {
          this.reset();
          this.recording = true;
        }
        if (event.data === 'stop') {
          this.flush();
          this.recording = false;
          this.port.postMessage('stopped');
        }
      };
    }
    reset() {
      this.buffers = [new Float32Array(this.block), new Float32Array(this.block)];
      this.at = 0;
    }
    flush() {
      if (this.at === 0) return;
      this.port.postMessage(this.buffers.map((b) => b.slice(0, this.at)));
      this.reset();
    }
    process(inputs) {
      if (!this.recording) return true;
      const input = inputs[0];
      const frames = input.length ? input[0].length : 128;
      for (let i = 0; i < frames; i++) {
        this.buffers[0][this.at] = input[0] ? input[0][i] : 0;
        this.buffers[1][this.at] = input[1] ? input[1][i] : input[0] ? input[0][i] : 0;
        this.at++;
        if (this.at === this.block) {
          this.port.postMessage(this.buffers, [this.buffers[0].buffer, this.buffers[1].buffer]);
          this.reset();
        }
      }
      return true;
    }
  }
  registerProcessor('mixroom-recorder', Recorder);
}
