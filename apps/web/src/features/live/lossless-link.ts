import { LOSSLESS_FRAME_LENGTH, LOSSLESS_TARGET_MS } from '@mixroom/shared';
import type { JitterStats } from './audio/lossless-processors.js';
import { loadWorklets } from './audio/worklets';

/**
 * Lossless mode in the page: the publisher's PCM goes out as frames on its WHIP peer's data channel
 * (`LosslessSender`); each lossless publisher's relayed channel plays through its own jitter-buffer
 * worklet (`LosslessReceivers`). The Opus track keeps flowing beside it: it is what a listener hears
 * whenever the lossless stream is not flowing.
 */

/** More than about a second of PCM waiting in the channel: frames are skipped rather than queued. */
const MAX_BUFFERED_BYTES = 300_000;
/** A lossless stream with no frame for this long is not flowing: its listeners hear Opus again. */
export const LOSSLESS_STALE_MS = 1000;

export class LosslessSender {
  private tap: AudioWorkletNode | null = null;
  private input: AudioNode | null = null;
  /** Frames not sent: no open channel yet (a republish), or the channel too far behind. */
  skipped = 0;
  sent = 0;

  constructor(
    private readonly context: AudioContext,
    private readonly channel: () => RTCDataChannel | null,
  ) {}

  get running(): boolean {
    return this.tap !== null;
  }

  /** Taps `input` (the published source) into frames; again with a new source replaces it. */
  async start(input: AudioNode): Promise<void> {
    await loadWorklets(this.context);
    if (!this.tap) {
      this.tap = new AudioWorkletNode(this.context, 'mixroom-lossless-tap', {
        numberOfInputs: 1,
        numberOfOutputs: 0,
        channelCount: 2,
        channelCountMode: 'explicit',
        processorOptions: { frameLength: LOSSLESS_FRAME_LENGTH },
      });
      this.tap.port.onmessage = (event: MessageEvent<ArrayBuffer>) => this.send(event.data);
      this.tap.port.postMessage('start');
    }
    if (this.input !== input) {
      this.input?.disconnect(this.tap);
      input.connect(this.tap);
      this.input = input;
    }
  }

  private send(frame: ArrayBuffer): void {
    const channel = this.channel();
    if (!channel || channel.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.skipped += 1;
      return;
    }
    channel.send(frame);
    this.sent += 1;
  }

  stop(): void {
    if (!this.tap) return;
    this.tap.port.postMessage('stop');
    this.tap.port.onmessage = null;
    this.input?.disconnect(this.tap);
    this.tap = null;
    this.input = null;
  }
}

/** What a listener shows of one lossless publisher. */
export interface LosslessListening {
  participant: string;
  /** Heard instead of the publisher's Opus track now (it flows and has started playing). */
  preferred: boolean;
  playing: boolean;
  depthMs: number;
  /** What the buffer aims for now (it grows after dropouts, shrinks back once the path is calm). */
  targetMs: number;
  dropouts: number;
}

interface Player {
  node: AudioWorkletNode;
  lastFrameAt: number;
  stats: JitterStats | null;
}

export class LosslessReceivers {
  private readonly players = new Map<string, Player>();

  constructor(
    private readonly context: AudioContext,
    private readonly output: AudioNode,
    private readonly onChange: (listening: LosslessListening[]) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A relayed channel: its protocol names the publisher. A republished stream reuses the player. */
  async attach(channel: RTCDataChannel): Promise<void> {
    const participant = channel.protocol;
    await loadWorklets(this.context);
    let player = this.players.get(participant);
    if (!player) {
      const node = new AudioWorkletNode(this.context, 'mixroom-lossless-player', {
        numberOfInputs: 0,
        numberOfOutputs: 1,
        outputChannelCount: [2],
        processorOptions: { targetMs: LOSSLESS_TARGET_MS },
      });
      node.connect(this.output);
      const created: Player = { node, lastFrameAt: 0, stats: null };
      node.port.onmessage = (event: MessageEvent<JitterStats>) => {
        created.stats = event.data;
        this.onChange(this.listening());
      };
      this.players.set(participant, created);
      player = created;
    }
    const target = player;
    channel.addEventListener('message', (event: MessageEvent<ArrayBuffer | string>) => {
      if (!(event.data instanceof ArrayBuffer)) return;
      target.lastFrameAt = this.now();
      // Copied, not transferred: the message event may have other listeners.
      target.node.port.postMessage(event.data);
    });
  }

  /** Whether this publisher's lossless stream is what the listener hears. */
  preferred(participant: string): boolean {
    const player = this.players.get(participant);
    return Boolean(player?.stats?.started) && this.now() - player!.lastFrameAt < LOSSLESS_STALE_MS;
  }

  anyPreferred(): boolean {
    return [...this.players.keys()].some((participant) => this.preferred(participant));
  }

  listening(): LosslessListening[] {
    return [...this.players].map(([participant, player]) => ({
      participant,
      preferred: this.preferred(participant),
      playing: player.stats?.playing ?? false,
      depthMs: player.stats?.depthMs ?? 0,
      targetMs: player.stats?.targetMs ?? LOSSLESS_TARGET_MS,
      dropouts: player.stats?.dropouts ?? 0,
    }));
  }

  destroy(): void {
    for (const player of this.players.values()) {
      player.node.port.onmessage = null;
      player.node.disconnect();
    }
    this.players.clear();
  }
}
