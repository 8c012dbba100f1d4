import type { Actor } from '../../modules/users/users.service';

/** Decides whether an actor may hear a topic. Features register their own resolvers (groups, projects…). */
export type TopicResolver = (actor: Actor, id: string) => Promise<boolean>;

export class TopicPolicy {
  private readonly resolvers = new Map<string, TopicResolver>([
    ['user', async (actor, id) => actor.userId === id],
    ['admin', async (actor) => actor.isAdmin],
  ]);

  register(kind: string, resolver: TopicResolver): void {
    this.resolvers.set(kind, resolver);
  }

  async canSubscribe(actor: Actor, topic: string): Promise<boolean> {
    const [kind = '', id = ''] = topic.split(':');
    const resolver = this.resolvers.get(kind);
    return resolver ? resolver(actor, id) : false;
  }
}
