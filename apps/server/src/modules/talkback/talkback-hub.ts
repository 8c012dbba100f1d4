import type { EventData, LiveSlot } from '@mixroom/contracts';
import type { SdpExchange, SfuDriver, SfuEvent } from '../../platform/rtc/sfu-driver';
import { TALKBACK_BITRATE, talkbackRoom, type TalkbackGrant } from './talkback.service';

interface Resource {
  kind: 'publisher' | 'subscriber';
  room: string;
  participant: string;
}

/**
 * The talkback side of live rooms on an `sfu` node: the resources this node's SFU holds for
 * talkback (in rooms of their own, beside the music's) and what a live room change means for them
 * (an ended or expired session closes the talkback, a participant who left or was replaced by a
 * newer tab is dropped). Each participant publishes one stream and hears every other's.
 */
export class TalkbackHub {
  private readonly resources = new Map<string, Resource>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly sfuOf: () => SfuDriver) {}

  /** The node's SFU, shared with the music and broadcasts (one ICE port range, one set of peers). */
  get sfu(): SfuDriver {
    this.unsubscribe ??= this.sfuOf().onEvent((event) => this.onSfuEvent(event));
    return this.sfuOf();
  }

  async publish(grant: TalkbackGrant, offerSdp: string): Promise<SdpExchange> {
    const exchange = await this.sfu.publish(grant.room, grant.participant, offerSdp, {
      maxAverageBitrate: TALKBACK_BITRATE,
      video: true,
    });
    this.resources.set(exchange.resourceId, { kind: 'publisher', room: grant.room, participant: grant.participant });
    return exchange;
  }

  async subscribe(grant: TalkbackGrant, offerSdp: string): Promise<SdpExchange> {
    const exchange = await this.sfu.subscribe(grant.room, grant.participant, offerSdp, { video: true });
    this.resources.set(exchange.resourceId, { kind: 'subscriber', room: grant.room, participant: grant.participant });
    return exchange;
  }

  /** Whether the resource is this grant's participant's own, in its room, of its mode. */
  owns(resourceId: string, grant: TalkbackGrant): boolean {
    const resource = this.resources.get(resourceId);
    const kind = grant.mode === 'publish' ? 'publisher' : 'subscriber';
    return resource?.room === grant.room && resource.participant === grant.participant && resource.kind === kind;
  }

  /** The slot map of the grant's own WHEP resource; undefined when it is not theirs or gone. */
  slots(resourceId: string, grant: TalkbackGrant): LiveSlot[] | undefined {
    return this.owns(resourceId, grant) ? this.sfu.subscriberSlots(resourceId) : undefined;
  }

  /** A live room change on the bus, as it concerns this node's talkback peers. */
  async onRoomChanged(data: EventData<'live.changed'>): Promise<void> {
    const room = talkbackRoom(data.code);
    if (data.action === 'ended' || data.action === 'expired') {
      await this.sfu.closeRoom(room);
      return;
    }
    if (data.userId && (data.action === 'left' || data.action === 'takeover'))
      await this.sfu.dropParticipant(room, data.userId);
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.resources.clear();
  }

  private onSfuEvent(event: SfuEvent): void {
    if (
      (event.type === 'publisher-stopped' || event.type === 'subscriber-gone') &&
      this.resources.has(event.resourceId)
    )
      this.resources.delete(event.resourceId);
  }
}
