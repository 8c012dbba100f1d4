import type { TalkbackToken } from '@mixroom/contracts';
import { analyserDb, SILENCE_DB, type StreamState } from '../live';
import { talkbackApi } from './api';
import { SpeakingDetector } from './speaking';
import { TalkPublisher } from './talk-publisher';
import { TalkViewer, type TalkSlot } from './talk-viewer';

export interface TalkbackSnapshot {
  talkState: StreamState;
  hearState: StreamState;
  muted: boolean;
  /** This user's camera is on. */
  camera: boolean;
  /** Whose cameras show now: user id → the stream to draw (this user's own preview included). */
  cameras: ReadonlyMap<string, MediaStream>;
  /** Who is speaking now, this user included (user ids). */
  speaking: ReadonlySet<string>;
  error: string | null;
}

export const INITIAL_TALKBACK: TalkbackSnapshot = {
  talkState: 'new',
  hearState: 'new',
  muted: false,
  camera: false,
  cameras: new Map(),
  speaking: new Set(),
  error: null,
};

interface VideoSlot {
  stream: MediaStream;
  receiver: RTCRtpReceiver;
  framesDecoded: number;
  /** Frames kept coming since the last look: the camera is on. */
  live: boolean;
}

interface Slot {
  element: HTMLAudioElement;
  node: MediaStreamAudioSourceNode;
  analyser: AnalyserNode;
  vad: SpeakingDetector;
}

export interface TalkbackEngineOptions {
  context: AudioContext;
  code: string;
  selfId: string;
  /** Dips the music (depth in dB) while someone else talks, or lets it back (null). */
  duck: (depthDb: number | null) => void;
  duckDepthDb: () => number;
}

/** How often speaking is read (ms), and how often the slot map is asked for (ms). */
const VAD_INTERVAL_MS = 25;
const SLOTS_INTERVAL_MS = 1000;

/**
 * The talkback of a live room, outside React: this user's microphone captured WITH echo
 * cancellation, noise suppression and gain control (unlike the music) on a WHIP connection of its
 * own, everyone else's talkback on a WHEP connection of its own played straight to the speakers
 * (never through the music's ducking), voice activity for every participant, and the music's ducking
 * while anyone else speaks.
 */
export class TalkbackEngine {
  private publisher: TalkPublisher | null = null;
  private viewer: TalkViewer | null = null;
  private cameraTrack: MediaStream | null = null;
  private readonly videoSlots = new Map<string, VideoSlot>();
  private mic: MediaStream | null = null;
  private micNode: MediaStreamAudioSourceNode | null = null;
  private readonly micAnalyser: AnalyserNode;
  private readonly micVad = new SpeakingDetector();
  private readonly out: GainNode;
  private readonly slots = new Map<string, Slot>();
  private owners = new Map<string, string>();
  private hearGrant: TalkbackToken | null = null;
  private vadTimer: ReturnType<typeof setInterval> | null = null;
  private slotsTimer: ReturnType<typeof setInterval> | null = null;
  private ducking = false;
  private stopped = false;
  private readonly scratch = new Float32Array(1024);
  private snap: TalkbackSnapshot = INITIAL_TALKBACK;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: TalkbackEngineOptions) {
    const { context } = options;
    this.micAnalyser = context.createAnalyser();
    this.micAnalyser.fftSize = 1024;
    this.out = context.createGain();
    this.out.connect(context.destination);
    const taps = (window as { __mixroomTaps?: Record<string, unknown> }).__mixroomTaps;
    if (taps) taps.talkback = this;
  }

  get snapshot(): TalkbackSnapshot {
    return this.snap;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private update(patch: Partial<TalkbackSnapshot>): void {
    this.snap = { ...this.snap, ...patch };
    for (const listener of this.listeners) listener();
  }

  async start(): Promise<void> {
    const { code } = this.options;
    this.viewer = new TalkViewer(
      {
        tokenGenerator: async () => {
          const grant = await talkbackApi.token(code, 'subscribe');
          this.hearGrant = grant;
          return { url: grant.url, token: grant.token, iceServers: grant.iceServers, slotCount: grant.slotCount };
        },
        onState: (hearState) => {
          this.update({ hearState });
          if (hearState === 'connected') void this.readSlots();
        },
        onError: (error) => this.update({ error: error.message }),
      },
      (slot) => this.addSlot(slot),
    );
    this.vadTimer = setInterval(() => this.readVoices(), VAD_INTERVAL_MS);
    this.slotsTimer = setInterval(() => void this.readSlots(), SLOTS_INTERVAL_MS);
    await Promise.all([this.viewer.view(), this.talk()]);
  }

  private async talk(): Promise<void> {
    try {
      this.mic = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
      });
    } catch (error) {
      this.update({ talkState: 'failed', error: `Microphone: ${(error as Error).message}` });
      return;
    }
    if (this.stopped) return this.mic.getTracks().forEach((t) => t.stop());
    this.micNode = this.options.context.createMediaStreamSource(this.mic);
    this.micNode.connect(this.micAnalyser);
    this.applyMute();
    this.publisher = new TalkPublisher(this.mic, {
      tokenGenerator: async () => {
        const grant = await talkbackApi.token(this.options.code, 'publish');
        return { url: grant.url, token: grant.token, iceServers: grant.iceServers };
      },
      onState: (talkState) => this.update({ talkState }),
      onError: (error) => this.update({ error: error.message }),
    });
    await this.publisher.publish();
  }

  /** Shows this user's camera to everyone (or stops), on the running talkback connection. */
  async setCamera(on: boolean): Promise<void> {
    if (on === this.snap.camera) return;
    if (!on) {
      this.cameraTrack?.getTracks().forEach((track) => track.stop());
      this.cameraTrack = null;
      this.update({ camera: false });
      this.showCameras();
      await this.publisher?.setCamera(null);
      return;
    }
    try {
      this.cameraTrack = await navigator.mediaDevices.getUserMedia({
        video: { width: { ideal: 640 }, height: { ideal: 360 }, frameRate: { ideal: 15 } },
      });
    } catch (error) {
      this.update({ error: `Camera: ${(error as Error).message}` });
      return;
    }
    if (this.stopped) return this.cameraTrack.getTracks().forEach((t) => t.stop());
    this.update({ camera: true });
    this.showCameras();
    await this.publisher?.setCamera(this.cameraTrack.getVideoTracks()[0] ?? null);
  }

  get talkPeer(): RTCPeerConnection | null {
    return this.publisher?.peer ?? null;
  }

  get hearPeer(): RTCPeerConnection | null {
    return this.viewer?.peer ?? null;
  }

  setMuted(muted: boolean): void {
    this.update({ muted });
    this.applyMute();
  }

  private applyMute(): void {
    this.mic?.getAudioTracks().forEach((track) => (track.enabled = !this.snap.muted));
  }

  /** The level of this user's own talkback microphone (silence while muted). */
  ownLevel(): number {
    return this.micNode && !this.snap.muted ? analyserDb(this.micAnalyser, this.scratch) : SILENCE_DB;
  }

  /** The level of what this user hears of one participant's talkback. */
  participantLevel(userId: string): number {
    let best = SILENCE_DB;
    for (const [mid, owner] of this.owners) {
      const slot = this.slots.get(mid);
      if (owner === userId && slot) best = Math.max(best, analyserDb(slot.analyser, this.scratch));
    }
    return best;
  }

  private addSlot({ mid, kind, stream, receiver }: TalkSlot): void {
    if (kind === 'video') {
      this.videoSlots.set(mid, { stream, receiver, framesDecoded: 0, live: false });
      return;
    }
    this.removeSlot(mid);
    const { context } = this.options;
    // Chromium feeds a remote track into Web Audio only while a media element also consumes it.
    const element = new Audio();
    element.srcObject = stream;
    element.muted = true;
    void element.play().catch(() => undefined);
    const node = context.createMediaStreamSource(stream);
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    node.connect(analyser);
    node.connect(this.out);
    this.slots.set(mid, { element, node, analyser, vad: new SpeakingDetector() });
  }

  private removeSlot(mid: string): void {
    const slot = this.slots.get(mid);
    if (!slot) return;
    slot.node.disconnect();
    slot.element.srcObject = null;
    this.slots.delete(mid);
  }

  /**
   * Who owns each received slot, from the server. Only live publishers count, so someone who left
   * the room (dropped from the talkback by the server) stops showing as speaking.
   */
  private async readSlots(): Promise<void> {
    const resourceId = this.viewer?.resourceId;
    const grant = this.hearGrant;
    if (!resourceId || !grant) return;
    const answer = await talkbackApi.slots(grant, resourceId).catch(() => null);
    if (!answer) {
      if (grant.expiresAt - Date.now() < 60_000 && this.hearGrant === grant)
        this.hearGrant = await talkbackApi.token(this.options.code, 'subscribe').catch(() => grant);
      return;
    }
    this.owners = new Map(answer.slots.flatMap((s) => (s.live && s.participant ? [[s.mid, s.participant]] : [])));
    await this.readCameras();
  }

  /** A camera shows while its slot keeps decoding frames (a camera turned off sends none). */
  private async readCameras(): Promise<void> {
    for (const slot of this.videoSlots.values()) {
      let frames = 0;
      (await slot.receiver.getStats().catch(() => new Map())).forEach(
        (stat: { type?: string; framesDecoded?: number }) => {
          if (stat.type === 'inbound-rtp') frames = stat.framesDecoded ?? 0;
        },
      );
      slot.live = frames > slot.framesDecoded;
      slot.framesDecoded = frames;
    }
    this.showCameras();
  }

  private showCameras(): void {
    const cameras = new Map<string, MediaStream>();
    if (this.cameraTrack) cameras.set(this.options.selfId, this.cameraTrack);
    for (const [mid, slot] of this.videoSlots) {
      const owner = this.owners.get(mid);
      if (slot.live && owner && owner !== this.options.selfId) cameras.set(owner, slot.stream);
    }
    const before = this.snap.cameras;
    if (before.size !== cameras.size || [...cameras].some(([id, stream]) => before.get(id) !== stream))
      this.update({ cameras });
  }

  /** Voice activity of everyone, and the music's ducking while anyone else speaks. */
  private readVoices(): void {
    const now = performance.now();
    const speaking = new Set<string>();
    if (this.micVad.update(this.ownLevel(), now)) speaking.add(this.options.selfId);
    let othersSpeak = false;
    for (const [mid, slot] of this.slots) {
      if (!slot.vad.update(analyserDb(slot.analyser, this.scratch), now)) continue;
      const owner = this.owners.get(mid);
      // A slot no live participant owns (someone who left) neither shows nor ducks.
      if (!owner || owner === this.options.selfId) continue;
      othersSpeak = true;
      speaking.add(owner);
    }
    if (othersSpeak !== this.ducking) {
      this.ducking = othersSpeak;
      this.options.duck(othersSpeak ? this.options.duckDepthDb() : null);
    }
    const before = this.snap.speaking;
    if (before.size !== speaking.size || [...speaking].some((id) => !before.has(id))) this.update({ speaking });
  }

  /** A new ducking depth applies at once while someone talks. */
  refreshDuck(): void {
    if (this.ducking) this.options.duck(this.options.duckDepthDb());
  }

  stop(): void {
    this.stopped = true;
    if (this.vadTimer) clearInterval(this.vadTimer);
    if (this.slotsTimer) clearInterval(this.slotsTimer);
    this.publisher?.stop();
    this.viewer?.stop();
    this.publisher = null;
    this.viewer = null;
    this.mic?.getTracks().forEach((track) => track.stop());
    this.cameraTrack?.getTracks().forEach((track) => track.stop());
    this.videoSlots.clear();
    this.micNode?.disconnect();
    for (const mid of [...this.slots.keys()]) this.removeSlot(mid);
    this.out.disconnect();
    if (this.ducking) this.options.duck(null);
    this.ducking = false;
    this.listeners.clear();
  }
}
