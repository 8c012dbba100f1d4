import { z } from 'zod';
import type { Actor } from '../platform/identity/actor';
import type { TopicAuthorizer } from '../platform/realtime/topic-authorizer';
import type { ItemPolicy } from './item.policy';

const uuid = z.uuid();

/**
 * Who may follow which realtime topic. A topic is as private as what it is about:
 * - `user:{id}`: that user only (root-level storage changes, sharing, join requests);
 * - `admin`: administrators;
 * - `group:{id}` / `project:{id}`: whoever may see that live folder or project right now.
 * Anything else (including `system`, the servers' own channel) is refused.
 */
export class TopicPolicy implements TopicAuthorizer {
  constructor(private readonly items: ItemPolicy) {}

  async canSubscribe(actor: Actor, topic: string): Promise<boolean> {
    if (topic === 'admin') return actor.isAdmin;
    const [kind, id = '', ...rest] = topic.split(':');
    if (rest.length > 0) return false;
    if (kind === 'user') return id === actor.userId;
    if (kind !== 'group' && kind !== 'project') return false;
    if (!uuid.safeParse(id).success) return false;
    return this.items.canSee(actor, kind, id);
  }
}
