import type { Actor } from '../identity/actor';

/**
 * Decides whether an actor may hear a topic. The realtime hub asks it when a client subscribes and
 * again whenever access may have changed; the rules themselves live in the access layer.
 */
export interface TopicAuthorizer {
  canSubscribe(actor: Actor, topic: string): Promise<boolean>;
  /** Whether a signed-out socket holding a public grant for this topic may follow it now. */
  canFollowPublicly(topic: string): Promise<boolean>;
}
