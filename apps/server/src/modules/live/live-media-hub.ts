import type { EventData } from '@mixroom/contracts';
import { LIVE_ROOM_CODE_PATTERN } from '@mixroom/shared';
import type { Logger } from 'pino';
import type { SdpExchange, SfuDriver, SfuEvent } from '../../platform/rtc/sfu-driver';
import type { LiveMediaService, MediaGrant } from './live-media.service';

interface Resource {
  kind: 'publisher' | 'subscriber';
  room: string;
  participant: string;
}

export interface LiveMediaHubDeps {
  sfu: SfuDriver;
  media: LiveMediaService;
  log: Logger;
  /** Tells the room that someone started or stopped publishing (`publishing`, small, on the bus). */
  announce: (room: string, participant: string) => Promise<void>;
  /** Tells every node a followed resource's slot map (`live.slots.changed`, on the bus). */
  tellSlots: (data: EventData<'live.slots.changed'>) => Promise<void>;
}

/**
 * The media side of live rooms on an `sfu` node: the resources this node's SFU holds, the slot maps
 * of those a socket follows (asked for and told on the bus, since the socket may be on any node), and what room changes
 * mean for the peers (a session ended or expired closes the room, a guest who left or was replaced
 * by a newer tab is dropped, a co-host disabled stops publishing).
 */
export class LiveMediaHub {
  private readonly resources = new Map<string, Resource>();
  /** Subscriber resources whose slot map some socket follows (on any node). */
  private readonly followed = new Set<string>();
  private readonly unsubscribe: () => void;
  /** This node's SFU (the routes reach it for ICE candidates and removals). */
  readonly sfu: SfuDriver;

  constructor(private readonly deps: LiveMediaHubDeps) {
    this.sfu = deps.sfu;
    this.unsubscribe = deps.sfu.onEvent((event) => this.onSfuEvent(event));
  }

  async publish(grant: MediaGrant, offerSdp: string): Promise<SdpExchange> {
    const exchange = await this.sfu.publish(grant.room, grant.participant, offerSdp, {
      maxAverageBitrate: grant.bitrate,
      lossless: grant.lossless,
    });
    this.resources.set(exchange.resourceId, { kind: 'publisher', room: grant.room, participant: grant.participant });
    return exchange;
  }

  async subscribe(grant: MediaGrant, offerSdp: string): Promise<SdpExchange> {
    const exchange = await this.sfu.subscribe(grant.room, grant.participant, offerSdp);
    this.resources.set(exchange.resourceId, { kind: 'subscriber', room: grant.room, participant: grant.participant });
    return exchange;
  }

  /** Whether the resource belongs to this grant's participant in its room (PATCH and DELETE). */
  owns(resourceId: string, grant: MediaGrant): boolean {
    const resource = this.resources.get(resourceId);
    const kind = grant.mode === 'publish' ? 'publisher' : 'subscriber';
    return resource?.room === grant.room && resource.participant === grant.participant && resource.kind === kind;
  }

  /**
   * A node asks for a resource's slot map on behalf of its user's socket: answered when the resource
   * is here and is that user's listening resource in that room (anything else is another node's, or
   * nobody's: no answer), and told again at each change until it goes.
   */
  async answerSlots(request: EventData<'live.slots.requested'>): Promise<void> {
    const { code, resourceId, userId } = request;
    const resource = this.resources.get(resourceId);
    if (!resource || resource.kind !== 'subscriber' || resource.room !== code || resource.participant !== userId)
      return;
    const slots = this.sfu.subscriberSlots(resourceId);
    if (!slots) return;
    this.followed.add(resourceId);
    await this.deps.tellSlots({ code, resourceId, userId, slots });
  }

  /** A room change on the bus, as it concerns this node's peers. */
  async onRoomChanged(data: EventData<'live.changed'>): Promise<void> {
    const { code, action, userId } = data;
    if (action === 'ended' || action === 'expired') {
      // The publishers go first (the free time is up), then everyone else in the room.
      for (const participant of this.participants(code, 'publisher')) await this.sfu.dropParticipant(code, participant);
      await this.sfu.closeRoom(code);
      return;
    }
    if (!userId) return;
    if (action === 'left' || action === 'takeover') {
      await this.sfu.dropParticipant(code, userId);
      return;
    }
    if (action === 'cohost' && !(await this.deps.media.mayPublishIn(code, userId))) {
      for (const [resourceId, resource] of this.resources)
        if (resource.kind === 'publisher' && resource.room === code && resource.participant === userId)
          await this.sfu.remove(resourceId);
    }
  }

  async close(): Promise<void> {
    this.unsubscribe();
    this.followed.clear();
    await this.sfu.close();
  }

  private participants(room: string, kind: Resource['kind']): Set<string> {
    const found = new Set<string>();
    for (const resource of this.resources.values())
      if (resource.room === room && resource.kind === kind) found.add(resource.participant);
    return found;
  }

  private onSfuEvent(event: SfuEvent): void {
    if (event.type === 'slots-changed') {
      const resource = this.resources.get(event.resourceId);
      if (resource && this.followed.has(event.resourceId)) this.tell(event.resourceId, resource, event.slots);
      return;
    }
    // The SFU also carries the talkback and broadcast rooms (named with their wing's prefix): only a
    // live room's publishers are told to its topic.
    const announced =
      event.type === 'publisher-started' || (event.type === 'publisher-stopped' && event.reason !== 'replaced');
    if (announced && LIVE_ROOM_CODE_PATTERN.test(event.room)) void this.deps.announce(event.room, event.participant);
    if (event.type === 'publisher-stopped' || event.type === 'subscriber-gone') {
      const resource = this.resources.get(event.resourceId);
      this.resources.delete(event.resourceId);
      // Its followers stop following: the nodes drop their watches.
      if (resource && this.followed.delete(event.resourceId)) this.tell(event.resourceId, resource, null);
    }
  }

  private tell(resourceId: string, resource: Resource, slots: EventData<'live.slots.changed'>['slots']): void {
    void this.deps
      .tellSlots({ code: resource.room, resourceId, userId: resource.participant, slots })
      .catch((error: unknown) => this.deps.log.debug({ err: error }, 'a slot map could not be told'));
  }
}
