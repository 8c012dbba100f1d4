/* global AudioWorkletProcessor, registerProcessor, sampleRate */
// AudioWorklet processors of live rooms, served as a same-origin asset (the CSP allows 'self' only).
class RingPlayer extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const opts = (options && options.processorOptions) || {};
    this.channels = 2;
    this.size = sampleRate;
    this.target = Math.round(((opts.targetMs || 60) / 1000) * sampleRate);
    this.ring = [new Float32Array(this.size), new Float32Array(this.size)];
    this.read = 0;
    this.write = 0;
    this.filled = 0;
    this.playing = false;
    this.port.onmessage = (event) => this.push(event.data);
  }
  push(channels) {
    const n = channels[0].length;
    for (let i = 0; i < n; i++) {
      this.ring[0][this.write] = channels[0][i];
      this.ring[1][this.write] = (channels[1] || channels[0])[i];
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
  process(_inputs, outputs) {
    const out = outputs[0];
    const frames = out[0].length;
    if (!this.playing && this.filled >= this.target) this.playing = true;
    if (!this.playing) return true;
    for (let i = 0; i < frames; i++) {
      if (this.filled === 0) {
        this.playing = false;
        break;
      }
      out[0][i] = this.ring[0][this.read];
      if (out[1]) out[1][i] = this.ring[1][this.read];
      this.read = (this.read + 1) % this.size;
      this.filled--;
    }
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
