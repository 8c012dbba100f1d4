import { randomUUID } from 'node:crypto';
import { DomainError } from '../errors/domain-error';
import { musicAnswerSdp } from './opus-sdp';
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
} from './sfu-driver';

export interface ExternalWhipWhepOptions {
  /**
   * WHIP endpoint; `{room}` and `{participant}` are replaced (URL-encoded), e.g.
   * `https://media.example.com/whip/{room}-{participant}` (MediaMTX: `http://host:8889/{room}/{participant}/whip`).
   */
  whipUrl: string;
  /** WHEP endpoint, with the same placeholders. */
  whepUrl: string;
  /** Sent as `Authorization: Bearer …` on every request. */
  bearerToken?: string;
  /** The room's publisher cap, as the live module should announce it (default 8). */
  slotCount?: number;
}

interface Resource {
  kind: 'publisher' | 'subscriber';
  room: string;
  participant: string;
  /** The absolute URL the media server named in its Location header. */
  location: string;
}

/**
 * Forwards WHIP/WHEP offers to an external media server (a cluster for many listeners) and DELETEs
 * its resources. The server does the media, so this driver sees no packets: stats count only the
 * resources it holds and carry no bytes, and dead peers are the media server's to notice. Answers
 * still get the stereo Opus parameters (they tell the publisher how to encode, whoever forwards).
 * How a subscriber hears several publishers is the media server's design; slots are not reported.
 */
export class ExternalWhipWhepDriver implements SfuDriver {
  readonly slotCount: number;
  private readonly resources = new Map<string, Resource>();
  private readonly listeners = new Set<(event: SfuEvent) => void>();

  constructor(private readonly options: ExternalWhipWhepOptions) {
    this.slotCount = options.slotCount ?? DEFAULT_SLOT_COUNT;
  }

  async publish(room: string, participant: string, offerSdp: string, options: PublishOptions): Promise<SdpExchange> {
    const bitrate = options.maxAverageBitrate;
    assertOpusBitrate(bitrate);
    const previous = [...this.resources].filter(
      ([, r]) => r.kind === 'publisher' && r.room === room && r.participant === participant,
    );
    const exchange = await this.post('publisher', this.options.whipUrl, room, participant, offerSdp);
    // The media server has no notion of takeover: the new stream is up, so the old one goes.
    await Promise.all(previous.map(([id]) => this.end(id, 'replaced')));
    this.emit({ type: 'publisher-started', room, participant, resourceId: exchange.resourceId });
    return { ...exchange, answerSdp: musicAnswerSdp(exchange.answerSdp, { maxAverageBitrate: bitrate }) };
  }

  async subscribe(room: string, participant: string, offerSdp: string): Promise<SdpExchange> {
    const exchange = await this.post('subscriber', this.options.whepUrl, room, participant, offerSdp);
    return { ...exchange, answerSdp: musicAnswerSdp(exchange.answerSdp, { maxAverageBitrate: MAX_OPUS_BITRATE }) };
  }

  async addIceCandidates(resourceId: string, sdpFragment: string): Promise<boolean> {
    const resource = this.resources.get(resourceId);
    if (!resource) return false;
    const response = await this.request(resource.location, {
      method: 'PATCH',
      headers: { 'content-type': 'application/trickle-ice-sdpfrag' },
      body: sdpFragment,
    });
    await response.body?.cancel();
    return response.ok;
  }

  async remove(resourceId: string): Promise<boolean> {
    if (!this.resources.has(resourceId)) return false;
    await this.end(resourceId, 'deleted');
    return true;
  }

  subscriberSlots(resourceId: string): SlotAssignment[] | undefined {
    return this.resources.get(resourceId)?.kind === 'subscriber' ? [] : undefined;
  }

  async closeRoom(room: string): Promise<void> {
    await this.endWhere((r) => r.room === room, 'room-closed');
  }

  async dropParticipant(room: string, participant: string): Promise<void> {
    await this.endWhere((r) => r.room === room && r.participant === participant, 'dropped');
  }

  onEvent(listener: (event: SfuEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stats(): SfuStats {
    const all = [...this.resources.values()];
    return {
      rooms: new Set(all.map((r) => r.room)).size,
      publishers: all.filter((r) => r.kind === 'publisher').length,
      subscribers: all.filter((r) => r.kind === 'subscriber').length,
      bytesIn: 0,
      bytesOut: 0,
      packetsIn: 0,
      packetsOut: 0,
    };
  }

  async close(): Promise<void> {
    await this.endWhere(() => true, 'shutdown');
  }

  private async post(
    kind: Resource['kind'],
    template: string,
    room: string,
    participant: string,
    offerSdp: string,
  ): Promise<SdpExchange> {
    const url = template
      .replaceAll('{room}', encodeURIComponent(room))
      .replaceAll('{participant}', encodeURIComponent(participant));
    const response = await this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: offerSdp,
    });
    const text = await response.text();
    const location = response.headers.get('location');
    if (response.status !== 201 || !location) {
      // The media server's refusals of the offer are the client's (4xx); anything else is ours to report.
      const status = response.status >= 400 && response.status < 500 ? response.status : 502;
      throw new DomainError(status, 'MEDIA_SERVER', `The media server refused the offer (${response.status}).`);
    }
    const resourceId = randomUUID();
    this.resources.set(resourceId, { kind, room, participant, location: new URL(location, url).toString() });
    return { answerSdp: text, resourceId };
  }

  private async request(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.options.bearerToken) headers.set('authorization', `Bearer ${this.options.bearerToken}`);
    try {
      return await fetch(url, { ...init, headers });
    } catch (error) {
      throw new DomainError(502, 'MEDIA_SERVER', `The media server could not be reached: ${(error as Error).message}`);
    }
  }

  private async endWhere(match: (r: Resource) => boolean, reason: StopReason): Promise<void> {
    const ids = [...this.resources].filter(([, r]) => match(r)).map(([id]) => id);
    await Promise.all(ids.map((id) => this.end(id, reason)));
  }

  /** Forgets the resource, DELETEs it on the media server (best effort: it may be gone) and says so. */
  private async end(resourceId: string, reason: StopReason): Promise<void> {
    const resource = this.resources.get(resourceId);
    if (!resource) return;
    this.resources.delete(resourceId);
    await this.request(resource.location, { method: 'DELETE' })
      .then((response) => response.body?.cancel())
      .catch(() => undefined);
    const { room, participant } = resource;
    this.emit(
      resource.kind === 'publisher'
        ? { type: 'publisher-stopped', room, participant, resourceId, reason }
        : { type: 'subscriber-gone', room, participant, resourceId, reason },
    );
  }

  private emit(event: SfuEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not stop the others.
      }
    }
  }
}
