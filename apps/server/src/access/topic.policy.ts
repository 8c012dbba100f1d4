import { parseTopic, TOPIC_KINDS, type TopicKind } from '@mixroom/contracts';
import type { Actor } from '../platform/identity/actor';
import type { TopicAuthorizer } from '../platform/realtime/topic-authorizer';

/** Who may follow one kind of topic; contributed by the module that owns the kind. */
export interface TopicRule {
  /** `id` is '' for kinds without one (admin). */
  canFollow(actor: Actor, id: string): Promise<boolean>;
  /** Whether a signed-out holder of a public grant for this topic may follow it now; absent: never. */
  canFollowPublicly?(id: string): Promise<boolean>;
}

export type TopicRules = Record<TopicKind, TopicRule>;

/** `system` is the servers' own channel: no client may follow it. */
export const SYSTEM_TOPIC_RULE: TopicRule = { canFollow: async () => false };

/**
 * Who may follow which realtime topic: one rule per kind declared in the contracts, composed from
 * the modules that own them. Refuses to be built with a kind missing or owned twice, so a topic
 * kind can never be accepted by the schema and silently refused (or allowed) by nobody.
 */
export class TopicPolicy implements TopicAuthorizer {
  private readonly rules: TopicRules;

  constructor(contributions: { module: string; topics: Partial<TopicRules> }[]) {
    const rules: Partial<TopicRules> = { system: SYSTEM_TOPIC_RULE };
    const owner = new Map<string, string>([['system', 'core']]);
    for (const { module, topics } of contributions)
      for (const [kind, rule] of Object.entries(topics) as [TopicKind, TopicRule][]) {
        if (owner.has(kind)) throw new Error(`Topic kind "${kind}" is claimed by ${owner.get(kind)} and ${module}.`);
        owner.set(kind, module);
        rules[kind] = rule;
      }
    const missing = (Object.keys(TOPIC_KINDS) as TopicKind[]).filter((kind) => !rules[kind]);
    if (missing.length > 0) throw new Error(`No module declares a rule for topic kinds: ${missing.join(', ')}.`);
    this.rules = rules as TopicRules;
  }

  async canSubscribe(actor: Actor, topic: string): Promise<boolean> {
    const parsed = parseTopic(topic);
    return parsed ? this.rules[parsed.kind].canFollow(actor, parsed.id) : false;
  }

  async canFollowPublicly(topic: string): Promise<boolean> {
    const parsed = parseTopic(topic);
    if (!parsed) return false;
    const rule = this.rules[parsed.kind];
    return rule.canFollowPublicly ? rule.canFollowPublicly(parsed.id) : false;
  }
}
