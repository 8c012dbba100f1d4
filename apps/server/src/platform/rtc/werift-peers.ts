import { randomUUID } from 'node:crypto';
import {
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RtcpPayloadSpecificFeedback,
  useVP8,
  type RTCDataChannel,
  type RtpPacket,
} from 'werift';
import type { Clock } from '../clock/clock';
import type { DatagramLoss } from './datagram-loss';
import { candidatesOfFragment } from './opus-sdp';
import { PeerWatchdog } from './peer-watchdog';
import { relayBacklogLimitBytes } from './relay-backlog';
import { RtpFastSender } from './rtp-fast-sender';
import { RtpSlotRewriter } from './rtp-slot-rewriter';
import type { SlotAssignment, StopReason } from './sfu-driver';
import { keepSrtpKeysAsObjects } from './srtp-key-objects';

/** What every peer of the embedded SFU is built from. */
export interface PeerSettings {
  clock: Clock;
  deadPeerTimeoutMs: number;
  iceServers: { urls: string | string[]; username?: string; credential?: string }[];
  icePortRange: [number, number] | undefined;
  iceAdditionalHostAddresses: string[] | undefined;
  /** Tests and benches only: datagrams dropped on purpose (see datagram-loss.ts). */
  datagramLoss: DatagramLoss | undefined;
}

/** VP8 runs a 90 kHz RTP clock. */
const VIDEO_TICKS_PER_MS = 90;

/** Opus only, stereo: the SFU forwards Opus and nothing else (no RED, no G.711 fallback). */
function opusCodec(): RTCRtpCodecParameters {
  return new RTCRtpCodecParameters({
    mimeType: 'audio/opus',
    clockRate: 48000,
    channels: 2,
    rtcpFeedback: [{ type: 'transport-cc' }],
  });
}

/**
 * VP8 for the optional camera of a talkback peer: NACK and PLI so a receiver can ask for what it
 * lost and for a keyframe when it starts or switches publisher.
 */
function vp8Codec(): RTCRtpCodecParameters {
  return useVP8({
    rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'transport-cc' }],
  });
}

/** A WHIP or WHEP resource: one werift peer connection, its liveness and its end. */
export abstract class SfuPeer {
  readonly resourceId = randomUUID();
  readonly pc: RTCPeerConnection;
  protected readonly watchdog: PeerWatchdog;
  private ended = false;
  protected readonly loss: DatagramLoss | undefined;

  constructor(
    readonly room: string,
    readonly participant: string,
    settings: PeerSettings,
    private readonly onEnd: (peer: SfuPeer, reason: StopReason) => void,
    /**
     * Publishers live by their media: one that stays connected but sends nothing is as good as
     * gone. Listeners send no media, so their STUN checks and RTCP reports are what counts.
     */
    signsOfLife: 'media' | 'any',
    /** Also negotiate VP8 video m-lines (talkback cameras); music peers have none. */
    readonly video = false,
  ) {
    this.loss = settings.datagramLoss;
    this.watchdog = new PeerWatchdog(settings.clock, settings.deadPeerTimeoutMs, () => void this.end('timeout'));
    this.pc = new RTCPeerConnection({
      codecs: { audio: [opusCodec()], video: video ? [vp8Codec()] : [] },
      headerExtensions: { audio: [], video: [] },
      iceServers: settings.iceServers,
      icePortRange: settings.icePortRange,
      iceAdditionalHostAddresses: settings.iceAdditionalHostAddresses,
      // Every STUN check the client sends (libwebrtc: every ~2.5 s) proves it is still there.
      iceFilterStunResponse: () => {
        if (signsOfLife === 'any') this.watchdog.touch();
        return true;
      },
    });
    this.pc.connectionStateChange.subscribe((state) => {
      // Its SRTP keys exist from here: as KeyObjects, each packet's cipher costs a fifth (srtp-key-objects).
      if (state === 'connected') keepSrtpKeysAsObjects(this.pc);
      if (state === 'failed' || state === 'closed') void this.end('failed');
    });
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Applies the client's offer and returns werift's answer (ICE candidates included). */
  protected async answer(offerSdp: string, direction: 'sendonly' | 'recvonly'): Promise<string> {
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    for (const transceiver of this.pc.getTransceivers()) {
      if (transceiver.kind === 'audio' || (this.video && transceiver.kind === 'video'))
        transceiver.setDirection(direction);
    }
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    this.loss?.attach(this.pc);
    const sdp = this.pc.localDescription?.sdp;
    if (!sdp) throw new Error('werift produced no answer');
    return sdp;
  }

  async addIceCandidates(fragment: string): Promise<void> {
    for (const { candidate, sdpMid } of candidatesOfFragment(fragment)) {
      await this.pc.addIceCandidate({ candidate, sdpMid: sdpMid ?? '0' });
    }
  }

  /** Ends the peer once: stops its watchdog, closes the connection, tells the room. */
  async end(reason: StopReason): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.watchdog.stop();
    this.onEnd(this, reason);
    await this.pc.close().catch(() => undefined);
  }
}

export interface PublisherHooks {
  onRtp(publisher: SfuPublisher, packet: RtpPacket): void;
  /** A video packet (a talkback camera); only peers made with video receive any. */
  onVideoRtp?(publisher: SfuPublisher, packet: RtpPacket): void;
  onData(publisher: SfuPublisher, channel: RTCDataChannel, message: Buffer): void;
  onDataChannel(publisher: SfuPublisher, channel: RTCDataChannel): void;
}

/** WHIP: receives one audio track (and, lossless, data channels) from a client. */
export class SfuPublisher extends SfuPeer {
  readonly dataChannels: RTCDataChannel[] = [];
  packetsIn = 0;
  bytesIn = 0;

  constructor(
    room: string,
    participant: string,
    readonly lossless: boolean,
    settings: PeerSettings,
    hooks: PublisherHooks,
    onEnd: (peer: SfuPeer, reason: StopReason) => void,
    video = false,
  ) {
    super(room, participant, settings, onEnd, 'media', video);
    this.pc.onTrack.subscribe((track) => {
      track.onReceiveRtp.subscribe((packet) => {
        if (this.isEnded) return;
        this.watchdog.touch();
        this.packetsIn += 1;
        this.bytesIn += packet.payload.length;
        if (track.kind === 'video') hooks.onVideoRtp?.(this, packet);
        else hooks.onRtp(this, packet);
      });
    });
    this.pc.onDataChannel.subscribe((channel) => {
      if (!this.lossless) return;
      this.dataChannels.push(channel);
      hooks.onDataChannel(this, channel);
      channel.onMessage.subscribe((message) => {
        if (this.isEnded) return;
        this.watchdog.touch();
        const bytes = typeof message === 'string' ? Buffer.from(message) : message;
        this.bytesIn += bytes.length;
        hooks.onData(this, channel, bytes);
      });
    });
  }

  negotiate(offerSdp: string): Promise<string> {
    return this.answer(offerSdp, 'recvonly');
  }

  /** Asks the camera for a keyframe (PLI): a receiver that starts or switches needs one to decode. */
  requestKeyframe(): void {
    if (!this.video || this.isEnded) return;
    for (const transceiver of this.pc.getTransceivers()) {
      if (transceiver.kind !== 'video') continue;
      for (const track of transceiver.receiver.tracks)
        if (track.ssrc !== undefined) void transceiver.receiver.sendRtcpPLI(track.ssrc).catch(() => undefined);
    }
  }
}

interface Slot {
  mid: string;
  send: (packet: RtpPacket) => void;
  /** Audio slots: werift's sender without its per-packet path (rtp-fast-sender.ts). */
  fast?: RtpFastSender;
  rewriter: RtpSlotRewriter;
  participant: string | null;
  live: boolean;
  /** When the slot's publisher stopped, so the longest-idle slot is reused first. */
  idleSince: number;
}

/** WHEP: sends each publisher of the room on one of the client's recvonly transceivers. */
export class SfuSubscriber extends SfuPeer {
  constructor(
    room: string,
    participant: string,
    settings: PeerSettings,
    onEnd: (peer: SfuPeer, reason: StopReason) => void,
    video = false,
    /** A receiver asked for a keyframe of the participant its video slot carries. */
    private readonly onKeyframeWanted: (participant: string) => void = () => undefined,
  ) {
    super(room, participant, settings, onEnd, 'any', video);
  }

  private slots: Slot[] = [];
  /** Video slots (talkback cameras): the i-th carries the camera of whoever the i-th audio slot carries. */
  private videoSlots: Slot[] = [];
  /** Relay channels by the publisher's resource and channel id. */
  private readonly relays = new Map<string, RTCDataChannel>();
  private hasSctp = false;
  packetsOut = 0;
  bytesOut = 0;

  async negotiate(offerSdp: string): Promise<string> {
    this.hasSctp = /^m=application /m.test(offerSdp);
    const sdp = await this.answer(offerSdp, 'sendonly');
    this.slots = this.pc
      .getTransceivers()
      .filter((t) => t.kind === 'audio' && t.mid !== null)
      .map((t) => ({
        mid: t.mid!,
        send: (packet: RtpPacket) => void t.sender.sendRtp(packet).catch(() => undefined),
        fast: new RtpFastSender(t.sender, this.loss, () => this.pc.connectionState === 'connected'),
        rewriter: new RtpSlotRewriter(),
        participant: null,
        live: false,
        idleSince: 0,
      }));
    this.videoSlots = this.pc
      .getTransceivers()
      .filter((t) => t.kind === 'video' && t.mid !== null)
      .map((t) => ({
        mid: t.mid!,
        send: (packet: RtpPacket) => void t.sender.sendRtp(packet).catch(() => undefined),
        rewriter: new RtpSlotRewriter(VIDEO_TICKS_PER_MS),
        participant: null,
        live: false,
        idleSince: 0,
      }));
    // RTCP receiver reports from the client also prove it is alive; a video PLI asks for a keyframe.
    for (const t of this.pc.getTransceivers())
      t.sender.onRtcp.subscribe((packet) => {
        this.watchdog.touch();
        if (t.kind !== 'video' || packet.type !== RtcpPayloadSpecificFeedback.type) return;
        const owner = this.videoSlots.find((slot) => slot.mid === t.mid)?.participant;
        if (owner) this.onKeyframeWanted(owner);
      });
    return sdp;
  }

  /** The audio slots, then the video slots (each paired with the audio slot of the same index). */
  assignments(): SlotAssignment[] {
    return [...this.slots, ...this.videoSlots.slice(0, this.slots.length)].map(({ mid, participant, live }) => ({
      mid,
      participant,
      live,
    }));
  }

  /** Keeps each video slot on the participant of its audio slot. */
  private pairVideo(): void {
    this.videoSlots.forEach((video, index) => {
      const audio = this.slots[index];
      if (!audio) return;
      video.participant = audio.participant;
      video.live = audio.live;
      video.idleSince = audio.idleSince;
    });
  }

  /**
   * Gives a live publisher a slot: its reserved one, else a never-used one, else the longest idle.
   * Returns whether the mapping changed (false also when every slot carries someone live).
   */
  assign(participant: string): boolean {
    const own = this.slots.find((s) => s.participant === participant);
    if (own) {
      if (own.live) return false;
      own.live = true;
      this.pairVideo();
      return true;
    }
    const slot =
      this.slots.find((s) => s.participant === null) ??
      this.slots.filter((s) => !s.live).sort((a, b) => a.idleSince - b.idleSince)[0];
    if (!slot) return false;
    slot.participant = participant;
    slot.live = true;
    this.pairVideo();
    return true;
  }

  /** The publisher stopped for good: its slot goes quiet but stays reserved for its return. */
  quiet(participant: string, nowMs: number): boolean {
    const slot = this.slots.find((s) => s.participant === participant && s.live);
    if (!slot) return false;
    slot.live = false;
    slot.idleSince = nowMs;
    this.pairVideo();
    return true;
  }

  forward(participant: string, source: string, packet: RtpPacket, nowMs: number): void {
    this.forwardOnto(this.slots, participant, source, packet, nowMs);
  }

  /** A camera packet onto the video slot paired with the participant's audio slot. */
  forwardVideo(participant: string, source: string, packet: RtpPacket, nowMs: number): void {
    this.forwardOnto(this.videoSlots, participant, source, packet, nowMs);
  }

  private forwardOnto(
    slots: readonly Slot[],
    participant: string,
    source: string,
    packet: RtpPacket,
    nowMs: number,
  ): void {
    const slot = slots.find((s) => s.participant === participant && s.live);
    if (!slot) return;
    const { header, payload } = packet;
    const mapped = slot.rewriter.rewrite(source, header.sequenceNumber, header.timestamp, nowMs);
    this.packetsOut += 1;
    this.bytesOut += payload.length;
    if (slot.fast?.send(header.marker, mapped.sequenceNumber, mapped.timestamp, payload, nowMs)) return;
    const out = packet.clone();
    out.header.sequenceNumber = mapped.sequenceNumber;
    out.header.timestamp = mapped.timestamp;
    // The publisher's extension ids mean nothing in this peer's negotiation (it negotiated none).
    out.header.extensions = [];
    out.header.extension = false;
    slot.send(out);
  }

  /** Opens a relay channel toward this client for a lossless publisher's channel. */
  openRelay(publisher: SfuPublisher, channel: RTCDataChannel): void {
    if (!this.hasSctp || this.isEnded) return;
    const key = `${publisher.resourceId}:${channel.id}`;
    if (this.relays.has(key)) return;
    const relay = this.pc.createDataChannel(channel.label, {
      ordered: channel.ordered,
      protocol: publisher.participant,
      ...(channel.maxRetransmits !== null ? { maxRetransmits: channel.maxRetransmits } : {}),
      ...(channel.maxPacketLifeTime !== null ? { maxPacketLifeTime: channel.maxPacketLifeTime } : {}),
    });
    this.relays.set(key, relay);
  }

  relay(publisher: SfuPublisher, channel: RTCDataChannel, message: Buffer): void {
    const relay = this.relays.get(`${publisher.resourceId}:${channel.id}`);
    if (!relay || relay.readyState !== 'open' || relay.bufferedAmount > relayBacklogLimitBytes(message)) return;
    relay.send(message);
    this.bytesOut += message.length;
  }

  closeRelays(publisher: SfuPublisher): void {
    for (const [key, relay] of this.relays) {
      if (!key.startsWith(`${publisher.resourceId}:`)) continue;
      this.relays.delete(key);
      relay.close();
    }
  }
}
