import type { EventData } from '@mixroom/contracts';
import type { RealtimeSender } from '../../platform/realtime/client-handlers';
import type { EventBus } from '../../platform/realtime/event-bus';

interface Watch {
  sender: RealtimeSender;
  code: string;
  resourceId: string;
  userId: string;
}

/**
 * The sockets on this node that follow a listening resource's slot map (which publisher each of its
 * slots carries). The resource may live on another node's SFU, so the map travels on the bus: this
 * node asks (`live.slots.requested`), the holder answers and tells each change (`live.slots.changed`).
 * A socket follows one resource per room; a map reaches it only while it still follows the room's
 * topic (access is re-checked there) and only for its own user's resource.
 */
export class LiveSlotWatchers {
  private readonly watches = new Map<string, Watch>();

  constructor(private readonly bus: EventBus) {}

  async watch(sender: RealtimeSender, code: string, resourceId: string): Promise<void> {
    if (!sender.actor || !sender.topics.has(`live:${code}`)) {
      sender.reply({ type: 'error', code: 'NOT_FOUND', message: 'No such listening resource in this room.' });
      return;
    }
    this.prune();
    const userId = sender.actor.userId;
    this.watches.set(`${sender.connectionId}:${code}`, { sender, code, resourceId, userId });
    await this.bus.publish({ topic: 'system', type: 'live.slots.requested', data: { code, resourceId, userId } });
  }

  /** A slot map from the node holding the resource: to its owner's sockets here that follow it. */
  deliver(data: EventData<'live.slots.changed'>): void {
    for (const [key, watch] of this.watches) {
      if (watch.resourceId !== data.resourceId || watch.code !== data.code || watch.userId !== data.userId) continue;
      if (!data.slots || !watch.sender.isOpen() || !watch.sender.topics.has(`live:${watch.code}`)) {
        this.watches.delete(key);
        continue;
      }
      watch.sender.reply({ type: 'live.slots', code: data.code, resourceId: data.resourceId, slots: data.slots });
    }
  }

  get size(): number {
    return this.watches.size;
  }

  /** Sockets that closed since they asked hold nothing here any more. */
  private prune(): void {
    for (const [key, watch] of this.watches) if (!watch.sender.isOpen()) this.watches.delete(key);
  }
}
