import type { DomainEvent, DomainEventInput, PresenceUser } from '@mixroom/contracts';
import type { Logger } from 'pino';

/** How often a node tells the others it is alive, and how long its silence is tolerated. */
export const NODE_BEAT_MS = 10_000;
export const NODE_SILENCE_MS = 35_000;

/** `origin`: the local socket that joined or left, which learns the result from its own snapshot. */
type Transition = (
  topic: string,
  scope: string,
  user: PresenceUser,
  state: 'online' | 'offline',
  origin: string | null,
) => void;

interface Present {
  user: PresenceUser;
  /** `{nodeId}/{connectionId}` of every socket showing this user here: one per open tab. */
  holders: Set<string>;
}

const keyOf = (topic: string, scope: string) => `${topic}\u0000${scope}`;
const nodeOf = (holder: string) => holder.slice(0, holder.indexOf('/'));

/**
 * Who is present where, across nodes, held on the sockets: a user is present in a scope while at
 * least one of their sockets (on any node) has joined it; closing the last one leaves at once.
 *
 * Each join or leave of one socket travels on the bus as a small holder-level event (never a
 * snapshot: NOTIFY payloads are capped near 8 kB). Every node keeps the whole map and tells its
 * own clients only user-level transitions, so a second tab of the same user is not news. A node
 * that stops beating (crashed) is forgotten after NODE_SILENCE_MS; a node that starts asks the
 * others to announce their holders again.
 */
export class PresenceRegistry {
  private readonly scopes = new Map<string, Map<string, Present>>();
  private readonly nodesSeen = new Map<string, number>();

  constructor(
    readonly nodeId: string,
    private readonly publish: (event: DomainEventInput) => Promise<void>,
    private readonly log: Logger,
    private readonly onTransition: Transition,
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  snapshot(topic: string, scope: string): PresenceUser[] {
    const present = this.scopes.get(keyOf(topic, scope));
    if (!present) return [];
    return [...present.values()].map((p) => p.user).sort((a, b) => a.displayName.localeCompare(b.displayName));
  }

  /** A local socket joins; applied here at once (its snapshot includes itself) and told to the others. */
  join(connectionId: string, topic: string, scope: string, user: PresenceUser): void {
    const holder = `${this.nodeId}/${connectionId}`;
    this.apply(topic, scope, user, holder, 'online', connectionId);
    this.announce(topic, scope, user, holder, 'online');
  }

  leave(connectionId: string, topic: string, scope: string): void {
    const holder = `${this.nodeId}/${connectionId}`;
    const present = this.scopes.get(keyOf(topic, scope));
    const entry = present && [...present.values()].find((p) => p.holders.has(holder));
    if (!entry) return;
    this.apply(topic, scope, entry.user, holder, 'offline', connectionId);
    this.announce(topic, scope, entry.user, holder, 'offline');
  }

  /** Every scope a local socket is in, e.g. when it closes or loses a topic. */
  scopesOf(connectionId: string, topic?: string): { topic: string; scope: string }[] {
    const holder = `${this.nodeId}/${connectionId}`;
    const found: { topic: string; scope: string }[] = [];
    for (const [key, present] of this.scopes) {
      const [t, scope] = key.split('\u0000') as [string, string];
      if (topic && t !== topic) continue;
      for (const entry of present.values()) if (entry.holders.has(holder)) found.push({ topic: t, scope });
    }
    return found;
  }

  /** A presence event from the bus (also our own, echoed back): idempotent. */
  receive(event: Extract<DomainEvent, { type: 'presence.changed' }>): void {
    const { holder } = event.data;
    if (!holder || nodeOf(holder) === this.nodeId) return;
    this.nodesSeen.set(nodeOf(holder), this.monotonicMs());
    this.apply(event.topic, event.data.scope, event.data.user, holder, event.data.state);
  }

  /** Another node is alive; `hello` means it just started and wants everyone's holders again. */
  nodeBeat(nodeId: string, hello: boolean): void {
    if (nodeId === this.nodeId) return;
    this.nodesSeen.set(nodeId, this.monotonicMs());
    if (!hello) return;
    for (const [key, present] of this.scopes) {
      const [topic, scope] = key.split('\u0000') as [string, string];
      for (const entry of present.values())
        for (const holder of entry.holders)
          if (nodeOf(holder) === this.nodeId) this.announce(topic, scope, entry.user, holder, 'online');
    }
  }

  /** Forgets the holders of nodes silent for too long (a crashed node never says goodbye). */
  forgetSilentNodes(): void {
    const now = this.monotonicMs();
    for (const [nodeId, seen] of this.nodesSeen) {
      if (now - seen < NODE_SILENCE_MS) continue;
      this.nodesSeen.delete(nodeId);
      for (const [key, present] of [...this.scopes]) {
        const [topic, scope] = key.split('\u0000') as [string, string];
        for (const entry of [...present.values()])
          for (const holder of [...entry.holders])
            if (nodeOf(holder) === nodeId) this.apply(topic, scope, entry.user, holder, 'offline');
      }
    }
  }

  private apply(
    topic: string,
    scope: string,
    user: PresenceUser,
    holder: string,
    state: 'online' | 'offline',
    origin: string | null = null,
  ): void {
    const key = keyOf(topic, scope);
    const present = this.scopes.get(key) ?? new Map<string, Present>();
    const entry = present.get(user.id);
    if (state === 'online') {
      if (entry?.holders.has(holder)) return;
      if (entry) return void entry.holders.add(holder);
      present.set(user.id, { user, holders: new Set([holder]) });
      this.scopes.set(key, present);
      return this.onTransition(topic, scope, user, 'online', origin);
    }
    if (!entry?.holders.delete(holder) || entry.holders.size > 0) return;
    present.delete(user.id);
    if (present.size === 0) this.scopes.delete(key);
    this.onTransition(topic, scope, entry.user, 'offline', origin);
  }

  private announce(
    topic: string,
    scope: string,
    user: PresenceUser,
    holder: string,
    state: 'online' | 'offline',
  ): void {
    this.publish({ topic, type: 'presence.changed', data: { scope, user, state, holder } }).catch((error: unknown) =>
      this.log.warn({ err: error, topic, scope }, 'presence not told to the other nodes'),
    );
  }
}
