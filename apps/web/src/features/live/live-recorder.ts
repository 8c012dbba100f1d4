import { packPcm24, wavHeader24 } from './audio/wav';
import { loadWorklets } from './audio/worklets';

/**
 * Records what a bus carries losslessly (24-bit PCM WAV) through an AudioWorklet; `onSeconds` hears
 * the whole seconds recorded so far.
 */
export class LiveRecorder {
  private node: AudioWorkletNode | null = null;
  private chunks: Uint8Array[] = [];
  private bytes = 0;
  private seconds = 0;

  constructor(
    private readonly context: AudioContext,
    private readonly bus: AudioNode,
    private readonly onSeconds: (seconds: number) => void,
  ) {}

  async start(): Promise<void> {
    await loadWorklets(this.context);
    this.node ??= new AudioWorkletNode(this.context, 'mixroom-recorder', {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      channelCount: 2,
      channelCountMode: 'explicit',
    });
    this.bus.connect(this.node);
    this.chunks = [];
    this.bytes = 0;
    this.seconds = 0;
    this.node.port.onmessage = (event: MessageEvent<Float32Array[] | 'stopped'>) => {
      if (event.data !== 'stopped') this.add(event.data);
    };
    this.node.port.postMessage('start');
  }

  private add(channels: Float32Array[]): void {
    const chunk = packPcm24(channels);
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    // 24-bit stereo: 6 bytes a frame.
    const seconds = Math.floor(this.bytes / (6 * this.context.sampleRate));
    if (seconds !== this.seconds) {
      this.seconds = seconds;
      this.onSeconds(seconds);
    }
  }

  /** Stops and returns the WAV file (what was still in the worklet included). */
  stop(): Promise<Blob> {
    const node = this.node;
    if (!node) return Promise.reject(new Error('Not recording'));
    return new Promise((resolve) => {
      node.port.onmessage = (event: MessageEvent<Float32Array[] | 'stopped'>) => {
        if (event.data !== 'stopped') return this.add(event.data);
        this.bus.disconnect(node);
        const header = wavHeader24(this.bytes, this.context.sampleRate, 2);
        const blob = new Blob([header, ...this.chunks] as BlobPart[], { type: 'audio/wav' });
        this.chunks = [];
        resolve(blob);
      };
      node.port.postMessage('stop');
    });
  }
}
