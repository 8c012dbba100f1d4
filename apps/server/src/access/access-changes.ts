import type { EventBus } from '../platform/realtime/event-bus';

/**
 * Announces that access may have changed, so every node's realtime hub re-checks the topics of the
 * sockets concerned before it delivers anything published later. Services call it after a change
 * that can take access away: removal, role change, trash, move, revoked link, disabled account.
 */
export class AccessChanges {
  constructor(private readonly bus: EventBus) {}

  forUsers(userIds: string[]): Promise<void> {
    if (userIds.length === 0) return Promise.resolve();
    return this.bus.publish({ topic: 'system', type: 'access.changed', data: { userIds: [...new Set(userIds)] } });
  }

  /** A change that may concern anyone following the item (trash, move). */
  forEveryone(): Promise<void> {
    return this.bus.publish({ topic: 'system', type: 'access.changed', data: { userIds: null } });
  }
}
