import { randomUUID } from 'node:crypto';
import { RTCPeerConnection, RTCRtpCodecParameters, type RTCDataChannel, type RtpPacket } from 'werift';
import type { Clock } from '../clock/clock';
import type { DatagramLoss } from './datagram-loss';
import { candidatesOfFragment } from './opus-sdp';
import { PeerWatchdog } from './peer-watchdog';
import { relayBacklogLimitBytes } from './relay-backlog';
import { RtpSlotRewriter } from './rtp-slot-rewriter';
import type { SlotAssignment, StopReason } from './sfu-driver';

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

/** Opus only, stereo: the SFU forwards Opus and nothing else (no RED, no G.711 fallback). */
function opusCodec(): RTCRtpCodecParameters {
  return new RTCRtpCodecParameters({
    mimeType: 'audio/opus',
    clockRate: 48000,
    channels: 2,
    rtcpFeedback: [{ type: 'transport-cc' }],
  });
}

/** A WHIP or WHEP resource: one werift peer connection, its liveness and its end. */
export abstract class SfuPeer {
  readonly resourceId = randomUUID();
  readonly pc: RTCPeerConnection;
  protected readonly watchdog: PeerWatchdog;
  private ended = false;
  private readonly loss: DatagramLoss | undefined;

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
  ) {
    this.loss = settings.datagramLoss;
    this.watchdog = new PeerWatchdog(settings.clock, settings.deadPeerTimeoutMs, () => void this.end('timeout'));
    this.pc = new RTCPeerConnection({
      codecs: { audio: [opusCodec()], video: [] },
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
      if (transceiver.kind === 'audio') transceiver.setDirection(direction);
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
  ) {
    super(room, participant, settings, onEnd, 'media');
    this.pc.onTrack.subscribe((track) => {
      track.onReceiveRtp.subscribe((packet) => {
        if (this.isEnded) return;
        this.watchdog.touch();
        this.packetsIn += 1;
        this.bytesIn += packet.payload.length;
        hooks.onRtp(this, packet);
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
}

interface Slot {
  mid: string;
  send: (packet: RtpPacket) => void;
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
  ) {
    super(room, participant, settings, onEnd, 'any');
  }

  private slots: Slot[] = [];
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
        rewriter: new RtpSlotRewriter(),
        participant: null,
        live: false,
        idleSince: 0,
      }));
    // RTCP receiver reports from the client also prove it is alive.
    for (const t of this.pc.getTransceivers()) t.sender.onRtcp.subscribe(() => this.watchdog.touch());
    return sdp;
  }

  assignments(): SlotAssignment[] {
    return this.slots.map(({ mid, participant, live }) => ({ mid, participant, live }));
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
      return true;
    }
    const slot =
      this.slots.find((s) => s.participant === null) ??
      this.slots.filter((s) => !s.live).sort((a, b) => a.idleSince - b.idleSince)[0];
    if (!slot) return false;
    slot.participant = participant;
    slot.live = true;
    return true;
  }

  /** The publisher stopped for good: its slot goes quiet but stays reserved for its return. */
  quiet(participant: string, nowMs: number): boolean {
    const slot = this.slots.find((s) => s.participant === participant && s.live);
    if (!slot) return false;
    slot.live = false;
    slot.idleSince = nowMs;
    return true;
  }

  forward(participant: string, source: string, packet: RtpPacket, nowMs: number): void {
    const slot = this.slots.find((s) => s.participant === participant && s.live);
    if (!slot) return;
    const out = packet.clone();
    const mapped = slot.rewriter.rewrite(source, out.header.sequenceNumber, out.header.timestamp, nowMs);
    out.header.sequenceNumber = mapped.sequenceNumber;
    out.header.timestamp = mapped.timestamp;
    // The publisher's extension ids mean nothing in this peer's negotiation (it negotiated none).
    out.header.extensions = [];
    out.header.extension = false;
    this.packetsOut += 1;
    this.bytesOut += out.payload.length;
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
