import type { EventData, ServerMessage } from '@mixroom/contracts';
import type { Logger } from 'pino';
import type { RealtimeSender } from '../../platform/realtime/client-handlers';
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
}

/**
 * The media side of live rooms on an `sfu` node: the resources this node's SFU holds, the slot maps
 * it tells subscribers' sockets about (`live.slots`, never through the bus), and what room changes
 * mean for the peers (a session ended or expired closes the room, a guest who left or was replaced
 * by a newer tab is dropped, a co-host disabled stops publishing).
 */
export class LiveMediaHub {
  private readonly resources = new Map<string, Resource>();
  private readonly watchers = new Map<string, Set<RealtimeSender>>();
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

  /** `live.slots` from a socket: follow one's own WHEP resource's slot map (answered at once). */
  watchSlots(sender: RealtimeSender, code: string, resourceId: string): void {
    const resource = this.resources.get(resourceId);
    const slots = this.sfu.subscriberSlots(resourceId);
    if (
      !sender.actor ||
      !sender.topics.has(`live:${code}`) ||
      !resource ||
      resource.kind !== 'subscriber' ||
      resource.room !== code ||
      resource.participant !== sender.actor.userId ||
      !slots
    ) {
      sender.reply({ type: 'error', code: 'NOT_FOUND', message: 'No such listening resource in this room.' });
      return;
    }
    const watching = this.watchers.get(resourceId) ?? new Set<RealtimeSender>();
    watching.add(sender);
    this.watchers.set(resourceId, watching);
    sender.reply({ type: 'live.slots', code, resourceId, slots });
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
    this.watchers.clear();
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
      const message: ServerMessage = {
        type: 'live.slots',
        code: event.room,
        resourceId: event.resourceId,
        slots: event.slots,
      };
      for (const sender of this.watchers.get(event.resourceId) ?? []) this.send(sender, message);
      return;
    }
    if (event.type === 'publisher-started' || (event.type === 'publisher-stopped' && event.reason !== 'replaced'))
      void this.deps.announce(event.room, event.participant);
    if (event.type === 'publisher-stopped' || event.type === 'subscriber-gone') {
      this.resources.delete(event.resourceId);
      this.watchers.delete(event.resourceId);
    }
  }

  private send(sender: RealtimeSender, message: ServerMessage): void {
    try {
      sender.reply(message);
    } catch (error) {
      this.deps.log.debug({ err: error }, 'a live.slots message could not be sent');
    }
  }
}
