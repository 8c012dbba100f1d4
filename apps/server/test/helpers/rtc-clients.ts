import { performance } from 'node:perf_hooks';
import { preferStereoOpus } from '../../src/platform/rtc/opus-sdp';
import {
  gatheredOffer,
  wrtc,
  type WrtcAudioSink,
  type WrtcAudioSource,
  type WrtcDataChannel,
  type WrtcPeerConnection,
  type WrtcTrack,
} from './rtc-wrtc';

/** Sends an offer to a WHIP or WHEP endpoint (directly to a driver, or over HTTP). */
export type Exchange = (offerSdp: string) => Promise<{ answerSdp: string; resourceId: string }>;

const RATE = 48_000;
const CHUNK = RATE / 100; // wrtc's audio source takes 10 ms chunks

/** Power of one frequency in one channel of interleaved samples (Goertzel). */
export function tonePower(samples: Int16Array, channels: number, channel: number, hz: number): number {
  const frames = Math.floor(samples.length / channels);
  const coeff = 2 * Math.cos((2 * Math.PI * hz) / RATE);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < frames; i++) {
    const s0 = samples[i * channels + channel]! / 32768 + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return s1 * s1 + s2 * s2 - coeff * s1 * s2;
}

/** A headless publisher: a distinct sine tone on each channel, 48 kHz stereo, in real time. */
export class TonePublisher {
  private timer: NodeJS.Timeout | undefined;
  private sent = 0;
  private startedAt = performance.now();
  readonly channel: WrtcDataChannel | undefined;

  private constructor(
    readonly pc: WrtcPeerConnection,
    private readonly source: WrtcAudioSource,
    private tone: { leftHz: number; rightHz: number },
    withData: boolean,
  ) {
    this.channel = withData ? pc.createDataChannel('lossless', { ordered: true }) : undefined;
    if (this.channel) this.channel.binaryType = 'arraybuffer';
  }

  resourceId = '';

  static async start(
    exchange: Exchange,
    tone: { leftHz: number; rightHz: number },
    options: { dataChannel?: boolean } = {},
  ): Promise<TonePublisher> {
    const pc = new wrtc.RTCPeerConnection();
    const source = new wrtc.nonstandard.RTCAudioSource();
    pc.addTransceiver(source.createTrack(), { direction: 'sendonly' });
    const publisher = new TonePublisher(pc, source, tone, options.dataChannel === true);
    try {
      await publisher.connect(exchange);
    } catch (error) {
      pc.close();
      throw error;
    }
    publisher.play();
    return publisher;
  }

  /** Republishes on a new peer connection (quality or source change), as the live page would. */
  static async restart(previous: TonePublisher, exchange: Exchange, tone: { leftHz: number; rightHz: number }) {
    const next = await TonePublisher.start(exchange, tone);
    previous.close();
    return next;
  }

  private async connect(exchange: Exchange): Promise<void> {
    const { answerSdp, resourceId } = await exchange(await gatheredOffer(this.pc));
    this.resourceId = resourceId;
    this.answerSdp = answerSdp;
    await this.pc.setRemoteDescription({ type: 'answer', sdp: answerSdp });
  }

  answerSdp = '';

  /** Feeds the source by the wall clock, catching up after a busy moment (the machine is shared). */
  private play(): void {
    this.startedAt = performance.now();
    this.timer = setInterval(() => {
      const due = Math.floor(((performance.now() - this.startedAt) * RATE) / 1000 / CHUNK);
      for (let n = 0; n < 10 && this.sent < due; n++) this.sendChunk();
      this.sent = Math.max(this.sent, due - 10);
    }, 10);
  }

  private sendChunk(): void {
    const samples = new Int16Array(CHUNK * 2);
    for (let i = 0; i < CHUNK; i++) {
      const t = (this.sent * CHUNK + i) / RATE;
      samples[2 * i] = Math.round(8000 * Math.sin(2 * Math.PI * this.tone.leftHz * t));
      samples[2 * i + 1] = Math.round(8000 * Math.sin(2 * Math.PI * this.tone.rightHz * t));
    }
    this.sent += 1;
    this.source.onData({ samples, sampleRate: RATE, bitsPerSample: 16, channelCount: 2, numberOfFrames: CHUNK });
  }

  /** Stops sending audio but keeps the connection up (a publisher that went silent). */
  silence(): void {
    clearInterval(this.timer);
  }

  close(): void {
    clearInterval(this.timer);
    this.pc.close();
  }
}

export interface SlotListening {
  frames: number;
  /** Frames carrying sound (not all zero). */
  audibleFrames: number;
  stereoFrames: number;
  /** Tone power summed over the last frames, per channel, for the probed frequencies. */
  power: { left: Map<number, number>; right: Map<number, number> };
  firstAudibleAtMs: number | undefined;
}

/** A headless WHEP listener with K recvonly slots, decoding each one like a browser would. */
export class Listener {
  readonly slots = new Map<string, SlotListening>();
  readonly messages: { label: string; protocol: string; data: Buffer; atMs: number }[] = [];
  private readonly sinks: WrtcAudioSink[] = [];
  resourceId = '';
  answerSdp = '';
  readonly startedAtMs = performance.now();

  private constructor(
    readonly pc: WrtcPeerConnection,
    private readonly probeHz: number[],
  ) {}

  static async start(
    exchange: Exchange,
    options: { slots: number; probeHz?: number[]; dataChannel?: boolean; stereo?: boolean },
  ): Promise<Listener> {
    const pc = new wrtc.RTCPeerConnection();
    const listener = new Listener(pc, options.probeHz ?? []);
    for (let i = 0; i < options.slots; i++) pc.addTransceiver('audio', { direction: 'recvonly' });
    if (options.dataChannel) pc.createDataChannel('probe');
    pc.ondatachannel = ({ channel }) => {
      channel.binaryType = 'arraybuffer';
      channel.onmessage = ({ data }) => {
        const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
        listener.messages.push({
          label: channel.label,
          protocol: channel.protocol,
          data: bytes,
          atMs: performance.now(),
        });
      };
    };
    pc.ontrack = ({ track, transceiver }) => listener.listen(transceiver.mid ?? '?', track);
    try {
      const offer = await gatheredOffer(pc, options.stereo === false ? undefined : preferStereoOpus);
      const { answerSdp, resourceId } = await exchange(offer);
      listener.resourceId = resourceId;
      listener.answerSdp = answerSdp;
      await pc.setRemoteDescription({ type: 'answer', sdp: answerSdp });
    } catch (error) {
      listener.close();
      throw error;
    }
    return listener;
  }

  private listen(mid: string, track: WrtcTrack): void {
    const slot: SlotListening = {
      frames: 0,
      audibleFrames: 0,
      stereoFrames: 0,
      power: { left: new Map(), right: new Map() },
      firstAudibleAtMs: undefined,
    };
    this.slots.set(mid, slot);
    const sink = new wrtc.nonstandard.RTCAudioSink(track);
    this.sinks.push(sink);
    sink.ondata = ({ samples, channelCount }) => {
      slot.frames += 1;
      if (channelCount === 2) slot.stereoFrames += 1;
      if (!samples.some((s) => s !== 0)) return;
      slot.audibleFrames += 1;
      slot.firstAudibleAtMs ??= performance.now();
      for (const hz of this.probeHz) {
        // A decaying sum: the latest half second decides, so a republished tone shows quickly.
        const decay = (m: Map<number, number>, p: number) => m.set(hz, (m.get(hz) ?? 0) * 0.98 + p);
        decay(slot.power.left, tonePower(samples, channelCount, 0, hz));
        decay(slot.power.right, tonePower(samples, channelCount, channelCount === 2 ? 1 : 0, hz));
      }
    };
  }

  /** The slot carrying sound whose left channel is dominated by `hz`, if any. */
  slotHearing(hz: number, side: 'left' | 'right' = 'left'): string | undefined {
    for (const [mid, slot] of this.slots) {
      const powers = slot.power[side];
      const mine = powers.get(hz) ?? 0;
      const others = [...powers].filter(([f]) => f !== hz).map(([, p]) => p);
      if (mine > 0 && others.every((p) => mine > 10 * p)) return mid;
    }
    return undefined;
  }

  /**
   * Stops decoding into JavaScript (the sinks and their analysis); the connection stays and keeps
   * receiving and reporting. Benches call it once a listener was heard, so that their own clients
   * take less of the machine they measure the server on.
   */
  stopListening(): void {
    for (const sink of this.sinks.splice(0)) sink.stop();
  }

  close(): void {
    this.stopListening();
    this.pc.close();
  }
}
