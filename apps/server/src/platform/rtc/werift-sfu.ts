import { performance } from 'node:perf_hooks';
import type { RTCDataChannel, RtpPacket } from 'werift';
import type { Clock } from '../clock/clock';
import { DomainError } from '../errors/domain-error';
import type { DatagramLoss } from './datagram-loss';
import { describeOffer, musicAnswerSdp } from './opus-sdp';
import {
  DEFAULT_SLOT_COUNT,
  MAX_OPUS_BITRATE,
  assertOpusBitrate,
  type PublishOptions,
  type SdpExchange,
  type SfuDriver,
  type SfuEvent,
  type SfuStats,
  type SlotAssignment,
  type StopReason,
  type SubscribeOptions,
} from './sfu-driver';
import { type PeerSettings, type SfuPeer, SfuPublisher, SfuSubscriber } from './werift-peers';

export interface WeriftSfuOptions {
  clock: Clock;
  /** Publishers per room, and recvonly transceivers a WHEP offer should bring (default 8). */
  slotCount?: number;
  /** A peer silent this long is freed (default 15 s: libwebrtc sends audio RTCP only every ~5 s). */
  deadPeerTimeoutMs?: number;
  /** STUN/TURN for the SFU's own candidates. Default none: no outside server is asked on a laptop. */
  iceServers?: PeerSettings['iceServers'];
  /** UDP ports for media, for a firewall (min and max must differ). */
  icePortRange?: [number, number];
  /** Addresses to advertise besides the interfaces' own (e.g. a public IP behind 1:1 NAT). */
  iceAdditionalHostAddresses?: string[];
  /** Tests and benches only: every peer drops this share of its datagrams (never set by the app). */
  datagramLoss?: DatagramLoss;
}

export const DEFAULT_DEAD_PEER_TIMEOUT_MS = 15_000;

const roomFull = () => DomainError.conflict('This room already has as many publishers as it can carry.', 'ROOM_FULL');

interface Room {
  /** Every publisher resource, live or taking over. */
  publishers: Map<string, SfuPublisher>;
  /** The stream each publishing participant's listeners hear. */
  active: Map<string, SfuPublisher>;
  /** A republished stream waiting for its first packet to take over from the active one. */
  pending: Map<string, SfuPublisher>;
  subscribers: Map<string, SfuSubscriber>;
}

/** Counters of peers already ended, so stats() stays cumulative. */
interface Totals {
  bytesIn: number;
  bytesOut: number;
  packetsIn: number;
  packetsOut: number;
}

/**
 * The embedded SFU: werift peers, no transcoding. Each publisher's Opus packets go to every other
 * participant's subscriber on the slot reserved for that publisher (see sfu-driver.ts).
 */
export class WeriftSfu implements SfuDriver {
  readonly slotCount: number;
  private readonly settings: PeerSettings;
  private readonly rooms = new Map<string, Room>();
  private readonly peers = new Map<string, SfuPeer>();
  private readonly listeners = new Set<(event: SfuEvent) => void>();
  private readonly ended: Totals = { bytesIn: 0, bytesOut: 0, packetsIn: 0, packetsOut: 0 };

  constructor(options: WeriftSfuOptions) {
    this.slotCount = options.slotCount ?? DEFAULT_SLOT_COUNT;
    this.settings = {
      clock: options.clock,
      deadPeerTimeoutMs: options.deadPeerTimeoutMs ?? DEFAULT_DEAD_PEER_TIMEOUT_MS,
      iceServers: options.iceServers ?? [],
      icePortRange: options.icePortRange,
      iceAdditionalHostAddresses: options.iceAdditionalHostAddresses,
      datagramLoss: options.datagramLoss,
    };
  }

  async publish(room: string, participant: string, offerSdp: string, options: PublishOptions): Promise<SdpExchange> {
    const bitrate = options.maxAverageBitrate;
    assertOpusBitrate(bitrate);
    const audio = describeOffer(offerSdp).filter((m) => m.kind === 'audio' && !m.rejected);
    if (audio.length !== 1 || !audio[0]!.hasOpus || !['sendonly', 'sendrecv'].includes(audio[0]!.direction)) {
      throw DomainError.badRequest('A WHIP offer must send exactly one Opus audio track.');
    }
    const video = options.video === true;
    if (video && describeOffer(offerSdp).filter((m) => m.kind === 'video' && !m.rejected).length > 1)
      throw DomainError.badRequest('A WHIP offer may send at most one camera track.');
    if (this.isFull(room, participant)) throw roomFull();
    const publisher = new SfuPublisher(
      room,
      participant,
      options.lossless === true,
      this.settings,
      {
        onRtp: (p, packet) => this.forwardRtp(p, packet),
        onData: (p, channel, message) => this.forwardData(p, channel, message),
        onDataChannel: (p, channel) => this.openRelays(p, channel),
        onVideoRtp: (p, packet) => this.forwardVideoRtp(p, packet),
      },
      (peer, reason) => this.peerEnded(peer, reason),
      video,
    );
    const answer = await this.negotiate(publisher, () => publisher.negotiate(offerSdp));
    // Another participant may have taken the last slot while this offer was being answered.
    if (this.isFull(room, participant)) {
      await publisher.end('failed');
      throw roomFull();
    }
    const state = this.roomOf(room);
    state.publishers.set(publisher.resourceId, publisher);
    this.peers.set(publisher.resourceId, publisher);
    if (state.active.has(participant)) {
      // Make before break: the old stream plays on until the new one's first packet arrives.
      const superseded = state.pending.get(participant);
      state.pending.set(participant, publisher);
      if (superseded) void superseded.end('replaced');
    } else {
      this.activate(state, publisher);
    }
    return { answerSdp: musicAnswerSdp(answer, { maxAverageBitrate: bitrate }), resourceId: publisher.resourceId };
  }

  async subscribe(
    room: string,
    participant: string,
    offerSdp: string,
    options: SubscribeOptions = {},
  ): Promise<SdpExchange> {
    const audio = describeOffer(offerSdp).filter((m) => m.kind === 'audio' && !m.rejected);
    if (!audio.some((m) => m.hasOpus && ['recvonly', 'sendrecv'].includes(m.direction))) {
      throw DomainError.badRequest('A WHEP offer must receive at least one Opus audio track.');
    }
    const subscriber = new SfuSubscriber(
      room,
      participant,
      this.settings,
      (peer, reason) => this.peerEnded(peer, reason),
      options.video === true,
      (owner) => this.rooms.get(room)?.active.get(owner)?.requestKeyframe(),
    );
    const answer = await this.negotiate(subscriber, () => subscriber.negotiate(offerSdp));
    const state = this.roomOf(room);
    state.subscribers.set(subscriber.resourceId, subscriber);
    this.peers.set(subscriber.resourceId, subscriber);
    for (const publisher of state.active.values()) {
      if (publisher.participant === participant) continue;
      subscriber.assign(publisher.participant);
      for (const channel of publisher.dataChannels) subscriber.openRelay(publisher, channel);
      // A camera's next keyframe may be seconds away: the new viewer asks for one now.
      if (subscriber.video) publisher.requestKeyframe();
    }
    this.emitSlots(subscriber);
    // The subscriber's own offer decides stereo decoding; the answer says what the room sends.
    return {
      answerSdp: musicAnswerSdp(answer, { maxAverageBitrate: MAX_OPUS_BITRATE }),
      resourceId: subscriber.resourceId,
    };
  }

  async addIceCandidates(resourceId: string, sdpFragment: string): Promise<boolean> {
    const peer = this.peers.get(resourceId);
    if (!peer) return false;
    await peer.addIceCandidates(sdpFragment);
    return true;
  }

  async remove(resourceId: string): Promise<boolean> {
    const peer = this.peers.get(resourceId);
    if (!peer) return false;
    await peer.end('deleted');
    return true;
  }

  subscriberSlots(resourceId: string): SlotAssignment[] | undefined {
    const peer = this.peers.get(resourceId);
    return peer instanceof SfuSubscriber ? peer.assignments() : undefined;
  }

  async closeRoom(room: string): Promise<void> {
    await this.endAll(
      [...this.peers.values()].filter((p) => p.room === room),
      'room-closed',
    );
  }

  async dropParticipant(room: string, participant: string): Promise<void> {
    const peers = [...this.peers.values()].filter((p) => p.room === room && p.participant === participant);
    await this.endAll(peers, 'dropped');
  }

  onEvent(listener: (event: SfuEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stats(): SfuStats {
    const totals = { ...this.ended };
    let publishers = 0;
    let subscribers = 0;
    for (const peer of this.peers.values()) {
      if (peer instanceof SfuPublisher) {
        publishers += 1;
        totals.bytesIn += peer.bytesIn;
        totals.packetsIn += peer.packetsIn;
      } else if (peer instanceof SfuSubscriber) {
        subscribers += 1;
        totals.bytesOut += peer.bytesOut;
        totals.packetsOut += peer.packetsOut;
      }
    }
    return { rooms: this.rooms.size, publishers, subscribers, ...totals };
  }

  async close(): Promise<void> {
    await this.endAll([...this.peers.values()], 'shutdown');
  }

  /** Runs the offer/answer; a peer that fails to negotiate is closed and the offer refused. */
  private async negotiate(peer: SfuPeer, run: () => Promise<string>): Promise<string> {
    try {
      const answer = await run();
      // A peer that failed or timed out while its offer was answered must not join the room.
      if (peer.isEnded) throw new Error('the connection ended during negotiation');
      return answer;
    } catch (error) {
      await peer.end('failed');
      if (error instanceof DomainError) throw error;
      throw DomainError.badRequest(`The offer could not be answered: ${(error as Error).message}`);
    }
  }

  private isFull(room: string, participant: string): boolean {
    const state = this.rooms.get(room);
    return state !== undefined && !state.active.has(participant) && state.active.size >= this.slotCount;
  }

  private roomOf(id: string): Room {
    let room = this.rooms.get(id);
    if (!room) {
      room = { publishers: new Map(), active: new Map(), pending: new Map(), subscribers: new Map() };
      this.rooms.set(id, room);
    }
    return room;
  }

  private async endAll(peers: SfuPeer[], reason: StopReason): Promise<void> {
    await Promise.all(peers.map((peer) => peer.end(reason)));
  }

  private emit(event: SfuEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not stop media or the other listeners.
      }
    }
  }

  private emitSlots(subscriber: SfuSubscriber): void {
    const { room, participant, resourceId } = subscriber;
    this.emit({ type: 'slots-changed', room, participant, resourceId, slots: subscriber.assignments() });
  }

  /** The publisher becomes what its participant's listeners hear. */
  private activate(room: Room, publisher: SfuPublisher): void {
    const { participant } = publisher;
    room.active.set(participant, publisher);
    this.emit({ type: 'publisher-started', room: publisher.room, participant, resourceId: publisher.resourceId });
    for (const subscriber of room.subscribers.values()) {
      if (subscriber.participant !== participant && subscriber.assign(participant)) this.emitSlots(subscriber);
    }
  }

  private forwardRtp(publisher: SfuPublisher, packet: RtpPacket): void {
    const room = this.rooms.get(publisher.room);
    if (!room) return;
    const { participant } = publisher;
    if (room.pending.get(participant) === publisher) {
      room.pending.delete(participant);
      const previous = room.active.get(participant);
      room.active.set(participant, publisher);
      if (previous) void previous.end('replaced');
      this.announceTakeover(publisher);
    }
    if (room.active.get(participant) !== publisher) return;
    const source = `${publisher.resourceId}:${packet.header.ssrc}`;
    const nowMs = performance.now();
    for (const subscriber of room.subscribers.values()) {
      if (subscriber.participant !== participant) subscriber.forward(participant, source, packet, nowMs);
    }
  }

  /** A camera's packets follow its publisher's audio: only the active stream is seen. */
  private forwardVideoRtp(publisher: SfuPublisher, packet: RtpPacket): void {
    const room = this.rooms.get(publisher.room);
    const { participant } = publisher;
    if (!room || room.active.get(participant) !== publisher) return;
    const source = `${publisher.resourceId}:${packet.header.ssrc}`;
    const nowMs = performance.now();
    for (const subscriber of room.subscribers.values()) {
      if (subscriber.participant !== participant && subscriber.video)
        subscriber.forwardVideo(participant, source, packet, nowMs);
    }
  }

  private openRelays(publisher: SfuPublisher, channel: RTCDataChannel): void {
    const room = this.rooms.get(publisher.room);
    if (!room || room.active.get(publisher.participant) !== publisher) return;
    for (const subscriber of room.subscribers.values()) {
      if (subscriber.participant !== publisher.participant) subscriber.openRelay(publisher, channel);
    }
  }

  private forwardData(publisher: SfuPublisher, channel: RTCDataChannel, message: Buffer): void {
    const room = this.rooms.get(publisher.room);
    if (!room || room.active.get(publisher.participant) !== publisher) return;
    for (const subscriber of room.subscribers.values()) {
      if (subscriber.participant !== publisher.participant) subscriber.relay(publisher, channel, message);
    }
  }

  /** Called once per peer, whatever ended it: frees its place in the room and says so. */
  private peerEnded(peer: SfuPeer, reason: StopReason): void {
    // A peer that failed its negotiation never joined a room: nothing to free or announce.
    if (!this.peers.delete(peer.resourceId)) return;
    const room = this.rooms.get(peer.room);
    if (!room) return;
    if (peer instanceof SfuPublisher) {
      this.ended.bytesIn += peer.bytesIn;
      this.ended.packetsIn += peer.packetsIn;
      this.publisherEnded(room, peer, reason);
    } else if (peer instanceof SfuSubscriber) {
      this.ended.bytesOut += peer.bytesOut;
      this.ended.packetsOut += peer.packetsOut;
      room.subscribers.delete(peer.resourceId);
      const { participant, resourceId } = peer;
      this.emit({ type: 'subscriber-gone', room: peer.room, participant, resourceId, reason });
    }
    if (room.publishers.size === 0 && room.subscribers.size === 0) this.rooms.delete(peer.room);
  }

  private publisherEnded(room: Room, publisher: SfuPublisher, reason: StopReason): void {
    const { participant, resourceId } = publisher;
    room.publishers.delete(resourceId);
    if (room.pending.get(participant) === publisher) room.pending.delete(participant);
    for (const subscriber of room.subscribers.values()) subscriber.closeRelays(publisher);
    let successor: SfuPublisher | undefined;
    if (room.active.get(participant) === publisher) {
      room.active.delete(participant);
      successor = room.pending.get(participant);
      if (successor) {
        // The old stream ended before the new one sent anything: the new one takes over now.
        room.pending.delete(participant);
        room.active.set(participant, successor);
      } else {
        const nowMs = performance.now();
        for (const subscriber of room.subscribers.values()) {
          if (subscriber.quiet(participant, nowMs)) this.emitSlots(subscriber);
        }
      }
    }
    this.emit({ type: 'publisher-stopped', room: publisher.room, participant, resourceId, reason });
    if (successor) this.announceTakeover(successor);
  }

  private announceTakeover(publisher: SfuPublisher): void {
    const { room, participant, resourceId } = publisher;
    this.emit({ type: 'publisher-started', room, participant, resourceId });
    for (const channel of publisher.dataChannels) this.openRelays(publisher, channel);
  }
}
