import { LIVE_AUDIO_CHANNELS, LIVE_SOURCES } from '@mixroom/shared';
import { BridgeSource } from './audio/bridge-source';
import { captureInput } from './audio/capture';
import { startAutoMute } from './audio/auto-mute';
import { analyserDb, SILENCE_DB } from './audio/level';
import { LiveRecorder } from './live-recorder';
import { LosslessReceivers, LosslessSender } from './lossless-link';
import { INITIAL_SNAPSHOT, type EngineSnapshot, type LiveSourceKind } from './live-engine-state';
import { type MediaGrant } from './streaming-client';
import { Viewer, type ReceivedSlot } from './whep-viewer';
import { Publisher } from './whip-publisher';
import { rampDuck } from './audio/duck';

interface Slot {
  mid: string;
  element: HTMLAudioElement;
  node: MediaStreamAudioSourceNode;
  analyser: AnalyserNode;
  /** 0 while the slot's publisher is heard through its lossless stream instead (no double audio). */
  gain: GainNode;
  quiet: boolean;
}

type TokenSource = (mode: 'publish' | 'subscribe') => Promise<MediaGrant>;

/**
 * Everything audio in a live room, outside React: the AudioContext (made on the first click), the
 * WHEP listener whose slots play through one master bus, the WHIP publisher and its source,
 * analysers for every meter, the lossless recorder and Auto Mute.
 */
export class LiveEngine {
  readonly context: AudioContext;
  private readonly master: GainNode;
  /** Talkback ducking: the music this user hears dips while someone else talks (1 = no dip). */
  private readonly duck: GainNode;
  private readonly duckedAnalyser: AnalyserNode;
  private readonly recordBus: GainNode;
  private readonly ownAnalyser: AnalyserNode;
  private readonly masterAnalyser: AnalyserNode;
  private readonly slots = new Map<string, Slot>();
  private slotOwners: Map<string, string> | null = null;
  private viewer: Viewer | null = null;
  private publisher: Publisher | null = null;
  private publishStream: MediaStream | null = null;
  private publishNode: MediaStreamAudioSourceNode | null = null;
  private captured: MediaStream | null = null;
  private bridge: BridgeSource | null = null;
  private recorder: LiveRecorder | null = null;
  private readonly losslessOut: LosslessSender;
  private readonly losslessIn: LosslessReceivers;
  private stopAutoMute: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();
  private snap: EngineSnapshot = INITIAL_SNAPSHOT;
  private readonly scratch = new Float32Array(2048);

  constructor(private readonly tokens: TokenSource) {
    this.context = new AudioContext({ sampleRate: 48_000, latencyHint: 'interactive' });
    this.master = this.context.createGain();
    this.master.channelCount = LIVE_AUDIO_CHANNELS;
    // The music goes out through the ducking gain; the recording and the room meter take it before.
    this.duck = this.context.createGain();
    this.duck.channelCount = LIVE_AUDIO_CHANNELS;
    this.master.connect(this.duck).connect(this.context.destination);
    this.recordBus = this.context.createGain();
    this.master.connect(this.recordBus);
    this.masterAnalyser = this.analyser();
    this.master.connect(this.masterAnalyser);
    this.ownAnalyser = this.analyser();
    this.duckedAnalyser = this.analyser();
    this.duck.connect(this.duckedAnalyser);
    // A test seam: an e2e run that defines `__mixroomTaps` reads the graph's levels through it.
    const taps = (window as { __mixroomTaps?: Record<string, unknown> }).__mixroomTaps;
    if (taps) taps.live = this;
    this.losslessOut = new LosslessSender(this.context, () => this.publisher?.losslessChannel ?? null);
    this.losslessIn = new LosslessReceivers(this.context, this.master, (losslessIn) => {
      this.update({ losslessIn });
      this.preferLossless();
    });
    void this.context.resume();
  }

  private analyser(): AnalyserNode {
    const analyser = this.context.createAnalyser();
    analyser.fftSize = 2048;
    analyser.smoothingTimeConstant = 0.3;
    return analyser;
  }

  // --- state for React ---------------------------------------------------------------------------

  get snapshot(): EngineSnapshot {
    return this.snap;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private update(patch: Partial<EngineSnapshot>): void {
    this.snap = { ...this.snap, ...patch };
    for (const listener of this.listeners) listener();
  }

  // --- levels --------------------------------------------------------------------------------------

  /** The level (dBFS) of what this user publishes. */
  ownLevel(): number {
    return this.publishNode ? analyserDb(this.ownAnalyser, this.scratch) : SILENCE_DB;
  }

  /** The level of everything the user hears. */
  masterLevel(): number {
    return analyserDb(this.masterAnalyser, this.scratch);
  }

  /** The level of the music as this user hears it: after the talkback ducking. */
  duckedLevel(): number {
    return analyserDb(this.duckedAnalyser, this.scratch);
  }

  /** Ducks the music by `depthDb` (≤ 0) while someone else talks, or lets it back (null). */
  setDuck(depthDb: number | null): void {
    rampDuck(this.duck, this.context, depthDb);
  }

  /** The level of one received slot. */
  slotLevel(mid: string): number {
    const slot = this.slots.get(mid);
    return slot ? analyserDb(slot.analyser, this.scratch) : SILENCE_DB;
  }

  /**
   * The level of one participant's audio, from the slot map the server sends (`live.slots`): the
   * loudest of the slots that carry them. Null while no map has come (the caller guesses).
   */
  participantLevel(userId: string): number | null {
    if (!this.slotOwners) return null;
    let best = SILENCE_DB;
    for (const [mid, owner] of this.slotOwners) if (owner === userId) best = Math.max(best, this.slotLevel(mid));
    return best;
  }

  /** Who each received slot carries now (only slots with a live publisher count). */
  setSlotOwners(slots: readonly { mid: string; participant: string | null; live: boolean }[]): void {
    this.slotOwners = new Map(
      slots.flatMap((slot) => (slot.live && slot.participant ? [[slot.mid, slot.participant]] : [])),
    );
    this.preferLossless();
  }

  /**
   * A publisher whose lossless stream flows is heard through it, its Opus slot silenced; when the
   * stream stops or stalls, its Opus slot plays again. Before the slot map is known, a flowing
   * lossless stream silences every slot (the usual room has one publisher).
   */
  private preferLossless(): void {
    const any = this.losslessIn.anyPreferred();
    for (const [mid, slot] of this.slots) {
      const owner = this.slotOwners?.get(mid);
      const quiet = owner ? this.losslessIn.preferred(owner) : this.slotOwners === null && any;
      if (quiet === slot.quiet) continue;
      slot.quiet = quiet;
      slot.gain.gain.setTargetAtTime(quiet ? 0 : 1, this.context.currentTime, 0.01);
    }
  }

  /** The loudest received slot (the level of a publisher whose slot is not known). */
  loudestSlotLevel(): number {
    let best = SILENCE_DB;
    for (const mid of this.slots.keys()) best = Math.max(best, this.slotLevel(mid));
    return best;
  }

  // --- listening -----------------------------------------------------------------------------------

  async listen(): Promise<void> {
    if (this.viewer) return;
    this.viewer = new Viewer(
      {
        tokenGenerator: () => this.tokens('subscribe'),
        onState: (viewState) => this.update({ viewState }),
        onError: (error) => this.update({ error: error.message }),
      },
      (slot) => this.addSlot(slot),
      (channel) => void this.losslessIn.attach(channel),
    );
    await this.viewer.view({ slots: 8 });
  }

  get viewerPeer(): RTCPeerConnection | null {
    return this.viewer?.peer ?? null;
  }

  get viewerResourceId(): string | null {
    return this.viewer?.resourceId ?? null;
  }

  private addSlot({ mid, stream }: ReceivedSlot): void {
    this.removeSlot(mid);
    // Chromium feeds a remote track into Web Audio only while a media element also consumes it.
    const element = new Audio();
    element.srcObject = stream;
    element.muted = true;
    void element.play().catch(() => undefined);
    const node = this.context.createMediaStreamSource(stream);
    const analyser = this.analyser();
    node.connect(analyser);
    const gain = this.context.createGain();
    node.connect(gain).connect(this.master);
    this.slots.set(mid, { mid, element, node, analyser, gain, quiet: false });
    this.update({ slots: [...this.slots.keys()] });
    this.preferLossless();
  }

  private removeSlot(mid: string): void {
    const slot = this.slots.get(mid);
    if (!slot) return;
    slot.node.disconnect();
    slot.gain.disconnect();
    slot.element.srcObject = null;
    this.slots.delete(mid);
  }

  // --- publishing ----------------------------------------------------------------------------------

  /** Starts publishing the chosen source (the browser's input unless told otherwise). */
  async publish(bitrate: number): Promise<void> {
    this.update({ bitrate });
    const stream = await this.sourceStream(this.snap.source);
    this.usePublishStream(stream);
    if (!this.publisher) {
      this.publisher = new Publisher(
        {
          tokenGenerator: () => this.tokens('publish'),
          onState: (publishState) => this.update({ publishState }),
          onError: (error) => this.update({ error: error.message }),
        },
        undefined,
        (losslessAllowed) => {
          this.update({ losslessAllowed });
          this.syncLossless();
        },
      );
      await this.publisher.setLossless(this.snap.lossless);
      await this.publisher.publish({ mediaStream: stream, bitrate });
    } else {
      await this.publisher.republish({ mediaStream: stream, bitrate });
    }
  }

  get publisherPeer(): RTCPeerConnection | null {
    return this.publisher?.peer ?? null;
  }

  get publishing(): boolean {
    return this.publisher?.isActive ?? false;
  }

  /** A new quality: the server's answer carries it, so the publisher republishes (same slot). */
  async setBitrate(bitrate: number): Promise<void> {
    this.update({ bitrate });
    if (this.publisher?.isActive) await this.publisher.updateBitrate(bitrate);
  }

  /** A new source (or input device); republishes when publishing. */
  async setSource(source: LiveSourceKind, inputDeviceId?: string | null): Promise<void> {
    this.update({ source, ...(inputDeviceId !== undefined ? { inputDeviceId } : {}) });
    if (!this.publisher?.isActive) return;
    const stream = await this.sourceStream(source);
    this.usePublishStream(stream);
    await this.publisher.republish({ mediaStream: stream, bitrate: this.snap.bitrate });
  }

  /**
   * Lossless mode on or off (host and co-hosts, where the plan allows): the stream republishes with
   * or without its PCM channel; the Opus track goes on either way.
   */
  async setLossless(on: boolean): Promise<void> {
    this.update({ lossless: on });
    this.syncLossless();
    await this.publisher?.setLossless(on);
  }

  private syncLossless(): void {
    if (this.snap.lossless && this.snap.losslessAllowed && this.publishNode)
      void this.losslessOut.start(this.publishNode).catch((error: Error) => this.update({ error: error.message }));
    else this.losslessOut.stop();
  }

  private async sourceStream(source: LiveSourceKind): Promise<MediaStream> {
    if (source === 'input') {
      this.stopBridge();
      this.captured?.getTracks().forEach((track) => track.stop());
      this.captured = await captureInput(this.snap.inputDeviceId);
      return this.captured;
    }
    this.captured?.getTracks().forEach((track) => track.stop());
    this.captured = null;
    this.stopBridge();
    const def = LIVE_SOURCES.find((s) => s.key === source)!;
    const key = source;
    this.bridge = new BridgeSource(this.context, def, (connected) =>
      this.update({ bridgeConnected: { ...this.snap.bridgeConnected, [key]: connected } }),
    );
    await this.bridge.start();
    return this.bridge.stream;
  }

  private stopBridge(): void {
    this.bridge?.stop();
    this.bridge = null;
    this.update({ bridgeConnected: { plugin: false, driver: false } });
  }

  private usePublishStream(stream: MediaStream): void {
    this.publishNode?.disconnect();
    this.publishStream = stream;
    this.publishNode = this.context.createMediaStreamSource(stream);
    this.publishNode.connect(this.ownAnalyser);
    // The recording holds the room as this user makes it: what they hear and what they send.
    this.publishNode.connect(this.recordBus);
    this.applyMute(this.snap.muted);
    this.syncLossless();
  }

  /** Stops publishing (a co-host disabled by the host); the sources stop too. */
  stopPublishing(): void {
    this.publisher?.stop();
    this.publisher = null;
    this.stopBridge();
    this.captured?.getTracks().forEach((track) => track.stop());
    this.captured = null;
    this.publishNode?.disconnect();
    this.publishNode = null;
    this.publishStream = null;
    this.syncLossless();
    // Disabled as co-host: both bridge sources are deselected too.
    this.update({ publishState: 'closed', source: 'input' });
  }

  // --- auto mute -----------------------------------------------------------------------------------

  /**
   * Auto Mute: every 10 ms the level of what the room sends this user is read; while its recent
   * average is above −90 dB the user's own stream is muted (so talk-back never loops back).
   */
  setAutoMute(on: boolean): void {
    this.stopAutoMute?.();
    this.stopAutoMute = null;
    this.update({ autoMute: on });
    if (!on) return this.applyMute(false);
    this.stopAutoMute = startAutoMute(
      () => this.masterLevel(),
      (muted) => this.applyMute(muted),
    );
  }

  private applyMute(muted: boolean): void {
    this.publishStream?.getAudioTracks().forEach((track) => (track.enabled = !muted));
    if (this.snap.muted !== muted) this.update({ muted });
  }

  // --- recording -----------------------------------------------------------------------------------

  /** Records the room losslessly (24-bit PCM) through an AudioWorklet. */
  async startRecording(): Promise<void> {
    if (this.snap.recording !== 'idle') return;
    this.recorder ??= new LiveRecorder(this.context, this.recordBus, (recordedSeconds) =>
      this.update({ recordedSeconds }),
    );
    await this.recorder.start();
    this.update({ recording: 'recording', recordedSeconds: 0 });
  }

  /** Stops and returns the WAV file. */
  async stopRecording(): Promise<Blob> {
    if (!this.recorder || this.snap.recording !== 'recording') throw new Error('Not recording');
    this.update({ recording: 'stopping' });
    const blob = await this.recorder.stop();
    this.update({ recording: 'idle' });
    return blob;
  }

  // --- the end -------------------------------------------------------------------------------------

  destroy(): void {
    this.setAutoMute(false);
    this.stopPublishing();
    this.viewer?.stop();
    this.viewer = null;
    this.losslessIn.destroy();
    for (const mid of [...this.slots.keys()]) this.removeSlot(mid);
    this.listeners.clear();
    void this.context.close().catch(() => undefined);
  }
}
