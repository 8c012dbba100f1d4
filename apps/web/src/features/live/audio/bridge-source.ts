import { LIVE_SOCKET_RECONNECT_MS } from '@mixroom/shared';
import type { BridgeAudioCommand, BridgeAudioNews } from './bridge-audio.worker';
import { parseBridgeMessage, type BridgeParameters } from './bridge-protocol';
import { loadWorklets } from './worklets';

export interface BridgePorts {
  messagePort: number;
  audioPort: number;
}

/**
 * One source fed by the local Mixroom bridge: the message socket gets the page's sample rate and
 * answers with parameters; frames from the audio socket go into a ring-buffer worklet whose output
 * is a MediaStreamAudioDestinationNode's stereo stream, the one published. The audio socket lives in
 * a worker (bridge-audio.worker.ts) that feeds the worklet directly: the page's main thread carries
 * none of the audio. Both sockets reconnect every 3 s while the source is on; failures are silent
 * (the bridge may simply not be running).
 */
export class BridgeSource {
  readonly destination: MediaStreamAudioDestinationNode;
  private player: AudioWorkletNode | null = null;
  private messages: WebSocket | null = null;
  private audio: Worker | null = null;
  /** The worker's socket is opening or open. */
  private audioOpen = false;
  /** Which `open` the worker's socket answers to (its news about older ones is stale). */
  private audioId = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private active = false;
  private connectedValue = false;

  constructor(
    private readonly context: AudioContext,
    private readonly ports: BridgePorts,
    private readonly onConnected: (connected: boolean, parameters: BridgeParameters | null) => void,
    private readonly host = 'localhost',
  ) {
    this.destination = context.createMediaStreamDestination();
    this.destination.channelCount = 2;
  }

  get stream(): MediaStream {
    return this.destination.stream;
  }

  get connected(): boolean {
    return this.connectedValue;
  }

  async start(): Promise<void> {
    if (this.active) return;
    this.active = true;
    await loadWorklets(this.context);
    this.player = new AudioWorkletNode(this.context, 'mixroom-ring-player', {
      numberOfInputs: 0,
      numberOfOutputs: 1,
      outputChannelCount: [2],
      processorOptions: { targetMs: 60 },
    });
    this.player.connect(this.destination);
    this.open();
  }

  private url(port: number): string {
    // ws:// to localhost is allowed from https pages in Chrome and Firefox (the bridge's README).
    return `ws://${this.host}:${port}`;
  }

  private open(): void {
    if (!this.active) return;
    try {
      const messages = new WebSocket(this.url(this.ports.messagePort));
      this.messages = messages;
      messages.onopen = () => messages.send(String(this.context.sampleRate));
      messages.onmessage = (event) => {
        const parameters = typeof event.data === 'string' ? parseBridgeMessage(event.data) : null;
        if (!parameters) return;
        this.openAudio();
        this.setConnected(true, parameters);
      };
      messages.onerror = () => undefined;
      messages.onclose = () => this.lost();
    } catch {
      this.lost();
    }
  }

  private openAudio(): void {
    if (this.audioOpen || !this.player) return;
    if (!this.audio) {
      this.audio = new Worker(new URL('./bridge-audio.worker.ts', import.meta.url), { type: 'module' });
      this.audio.onmessage = (event: MessageEvent<BridgeAudioNews>) => {
        if (event.data.type === 'closed' && event.data.id === this.audioId && this.audioOpen) this.lost();
      };
    }
    // A new port per socket: the worklet follows the newest one.
    const feed = new MessageChannel();
    this.player.port.postMessage({ feed: feed.port2 }, [feed.port2]);
    this.audioId += 1;
    const command: BridgeAudioCommand = {
      type: 'open',
      id: this.audioId,
      url: this.url(this.ports.audioPort),
      feed: feed.port1,
    };
    this.audio.postMessage(command, [feed.port1]);
    this.audioOpen = true;
  }

  private setConnected(connected: boolean, parameters: BridgeParameters | null): void {
    if (this.connectedValue === connected && !parameters) return;
    this.connectedValue = connected;
    this.onConnected(connected, parameters);
  }

  /** Either socket closed: drop both and try again in 3 s, quietly. */
  private lost(): void {
    this.closeSockets();
    if (this.connectedValue) this.setConnected(false, null);
    if (!this.active || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.open();
    }, LIVE_SOCKET_RECONNECT_MS);
  }

  private closeSockets(): void {
    const messages = this.messages;
    if (messages) {
      messages.onclose = null;
      messages.onmessage = null;
      messages.close();
    }
    this.messages = null;
    if (this.audioOpen) this.audio?.postMessage({ type: 'close' } satisfies BridgeAudioCommand);
    this.audioOpen = false;
  }

  stop(): void {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.closeSockets();
    this.audio?.terminate();
    this.audio = null;
    this.player?.disconnect();
    this.player = null;
    this.connectedValue = false;
  }
}
