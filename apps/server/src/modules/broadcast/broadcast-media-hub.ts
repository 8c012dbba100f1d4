import type { EventData } from '@mixroom/contracts';
import { BROADCAST_PUBLISHER } from '@mixroom/shared';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock/clock';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { SdpExchange, SfuDriver, SfuEvent } from '../../platform/rtc/sfu-driver';
import type { BroadcastMediaGrant } from './broadcast-public.service';
import { ownerOfRoom } from './broadcast-tokens';
import type { BroadcastRepository } from './broadcast.repository';

interface Resource {
  kind: 'publisher' | 'subscriber';
  room: string;
  code: string;
  ownerId: string;
  participant: string;
}

export interface BroadcastMediaHubDeps {
  /** The node's SFU, shared with live rooms (one ICE port range, one set of peers). */
  sfu: () => SfuDriver;
  repository: BroadcastRepository;
  bus: EventBus;
  clock: Clock;
  log: Logger;
}

/**
 * The media side of broadcasts on an `sfu` node: the resources its SFU holds for broadcasts, the
 * listener count (kept in the room's row and told to `broadcast:{code}`), the live/ended status
 * that follows the publisher, and what a room change means for the peers (a replaced viewer code
 * drops the listeners it admitted; an ended broadcast drops its publisher).
 */
export class BroadcastMediaHub {
  private readonly resources = new Map<string, Resource>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: BroadcastMediaHubDeps) {}

  get sfu(): SfuDriver {
    return this.deps.sfu();
  }

  start(): void {
    this.unsubscribe ??= this.sfu.onEvent(
      (event) => void this.onSfuEvent(event).catch((error: unknown) => this.fail(error)),
    );
  }

  async publish(grant: BroadcastMediaGrant, offerSdp: string): Promise<SdpExchange> {
    this.start();
    const exchange = await this.sfu.publish(grant.room, BROADCAST_PUBLISHER, offerSdp, {
      maxAverageBitrate: grant.bitrate,
    });
    this.remember(exchange.resourceId, 'publisher', grant, BROADCAST_PUBLISHER);
    return exchange;
  }

  async subscribe(grant: BroadcastMediaGrant, participant: string, offerSdp: string): Promise<SdpExchange> {
    this.start();
    const exchange = await this.sfu.subscribe(grant.room, participant, offerSdp);
    this.remember(exchange.resourceId, 'subscriber', grant, participant);
    await this.countListeners(grant.ownerId, grant.room);
    return exchange;
  }

  /** Whether the resource was made in this room with this mode (PATCH and DELETE). */
  owns(resourceId: string, room: string, mode: 'publish' | 'subscribe'): boolean {
    const resource = this.resources.get(resourceId);
    return resource?.room === room && resource.kind === (mode === 'publish' ? 'publisher' : 'subscriber');
  }

  listeners(room: string): number {
    let count = 0;
    for (const resource of this.resources.values())
      if (resource.room === room && resource.kind === 'subscriber') count++;
    return count;
  }

  /** A broadcast change on the bus, as it concerns this node's peers. */
  async onChanged(data: EventData<'broadcast.changed'>): Promise<void> {
    if (data.action === 'revoked') {
      for (const [resourceId, resource] of [...this.resources])
        if (resource.kind === 'subscriber' && resource.code === data.code) await this.sfu.remove(resourceId);
      return;
    }
    if (data.action === 'ended') {
      for (const [resourceId, resource] of [...this.resources])
        if (resource.kind === 'publisher' && (await this.viewerCodeOf(resource.ownerId)) === data.code)
          await this.sfu.remove(resourceId);
    }
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.resources.clear();
  }

  private remember(resourceId: string, kind: Resource['kind'], grant: BroadcastMediaGrant, participant: string) {
    this.resources.set(resourceId, { kind, room: grant.room, code: grant.code, ownerId: grant.ownerId, participant });
  }

  private async onSfuEvent(event: SfuEvent): Promise<void> {
    if (event.type === 'slots-changed') return;
    // The SFU may tell of a publisher's first packet before publish() has returned its resource,
    // so publisher events are read by their room, which names the broadcast's owner.
    const ownerId = ownerOfRoom(event.room);
    if (!ownerId) return;
    if (event.type === 'publisher-started') return this.setStatus(ownerId, 'live');
    if (event.type === 'publisher-stopped') {
      this.resources.delete(event.resourceId);
      if (event.reason === 'replaced') return;
      const stillPublishing = [...this.resources.values()].some((r) => r.kind === 'publisher' && r.room === event.room);
      if (!stillPublishing) await this.setStatus(ownerId, 'ended');
      return;
    }
    if (!this.resources.delete(event.resourceId)) return;
    await this.countListeners(ownerId, event.room);
  }

  private async setStatus(ownerId: string, status: 'live' | 'ended'): Promise<void> {
    const room = await this.deps.repository.ofUser(ownerId);
    if (!room || room.status === status) return;
    await this.deps.repository.update(ownerId, { status, updatedAt: this.deps.clock.now() });
    await this.deps.bus.publishOrLog({
      topic: `broadcast:${room.viewerCode}`,
      type: 'broadcast.changed',
      data: { code: room.viewerCode, action: status, listeners: null },
    });
  }

  private async countListeners(ownerId: string, sfuRoom: string): Promise<void> {
    const listeners = this.listeners(sfuRoom);
    const room = await this.deps.repository.update(ownerId, { listeners });
    if (!room) return;
    await this.deps.bus.publishOrLog({
      topic: `broadcast:${room.viewerCode}`,
      type: 'broadcast.changed',
      data: { code: room.viewerCode, action: 'listeners', listeners },
    });
  }

  private async viewerCodeOf(ownerId: string): Promise<string | null> {
    return (await this.deps.repository.ofUser(ownerId))?.viewerCode ?? null;
  }

  private fail(error: unknown): void {
    this.deps.log.warn({ err: error }, 'a broadcast media event could not be handled');
  }
}
