import {
  serverMessage,
  type ClientMessage,
  type DomainEvent,
  type PresenceUser,
  type ServerMessage,
} from '@mixroom/contracts';

type Listener = (event: DomainEvent) => void;
type PresenceListener = (users: PresenceUser[]) => void;

interface PresenceScope {
  topic: string;
  scope: string;
  /** Whether this tab asked to be seen there (it may watch without being seen, e.g. while idle). */
  present: boolean;
  users: PresenceUser[];
  listeners: Set<PresenceListener>;
}

const scopeKey = (topic: string, scope: string) => `${topic} ${scope}`;

const MIN_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

/**
 * One WebSocket per tab to /api/realtime. It authenticates with the current access token,
 * resubscribes every topic after a reconnect, and reconnects with doubling backoff.
 */
export class RealtimeClient {
  private socket: WebSocket | null = null;
  /** Topics followed, counted: two screens parts may follow the same one. */
  private readonly topics = new Map<string, number>();
  private readonly presence = new Map<string, PresenceScope>();
  private readonly listeners = new Set<Listener>();
  /** Listeners of the server's own messages (`ready`, a module's answers such as `live.slots`). */
  private readonly messageListeners = new Set<(message: ServerMessage) => void>();
  private delay = MIN_DELAY_MS;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private onReady: ((isReconnect: boolean) => void) | null = null;
  private onDisabled: (() => void) | null = null;

  constructor(private readonly token: () => Promise<string | null>) {}

  /**
   * `onReady(isReconnect)`: the socket listens (again) and every topic is subscribed; what the app
   * fetched before may predate events it never saw, also on the first connect. Also called with
   * true when the server says its fan-out had a gap or access changed. `onDisabled`: the server
   * closed the socket because an administrator disabled the account.
   */
  connect(onReady?: (isReconnect: boolean) => void, onDisabled?: () => void): void {
    this.onReady = onReady ?? null;
    this.onDisabled = onDisabled ?? null;
    this.closed = false;
    void this.open(false);
  }

  private async open(isReconnect: boolean): Promise<void> {
    const token = await this.token();
    if (this.closed || !token) return this.schedule();
    const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/api/realtime`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => this.send({ type: 'auth', token });
    socket.onmessage = (message) => {
      const parsed = serverMessage.safeParse(JSON.parse(String(message.data)));
      if (!parsed.success) return;
      const data = parsed.data;
      if (data.type !== 'event') for (const listener of this.messageListeners) listener(data);
      if (data.type === 'ready') {
        this.delay = MIN_DELAY_MS;
        for (const topic of this.topics.keys()) this.send({ type: 'subscribe', topic });
        for (const entry of this.presence.values())
          if (entry.present) this.send({ type: 'presence.join', topic: entry.topic, scope: entry.scope });
        // Events may have been missed before this moment: let the app refetch.
        this.onReady?.(isReconnect);
      } else if (data.type === 'presence') {
        this.setUsers(data.topic, data.scope, () => data.users);
      } else if (data.type === 'event') {
        const event = data.event;
        if (event.type === 'presence.changed') {
          const { scope, user, state } = event.data;
          this.setUsers(event.topic, scope, (users) => [
            ...users.filter((u) => u.id !== user.id),
            ...(state === 'online' ? [user] : []),
          ]);
        }
        for (const listener of this.listeners) listener(event);
      } else if (data.type === 'resync') {
        // The server's own event fan-out had a gap: refetch as after a reconnect.
        this.onReady?.(true);
      } else if (data.type === 'revoked') {
        // Access to something on screen was taken away: refetching shows the page as it now is.
        this.onReady?.(true);
      }
    };
    socket.onclose = (event) => {
      if (this.socket === socket) this.socket = null;
      // 4403: the account was disabled; reconnecting could never succeed.
      if (event.code === 4403) {
        this.closed = true;
        this.onDisabled?.();
        return;
      }
      this.schedule();
    };
  }

  private schedule(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.open(true);
    }, this.delay);
    this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
  }

  /**
   * Sends a message now, or drops it while disconnected: a module's message that must outlive a
   * reconnect is sent again by its caller on `ready` (see `onMessage`).
   */
  send(message: ClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Re-authenticates the open socket after the access token was renewed. */
  async refreshToken(): Promise<void> {
    const token = await this.token();
    if (token) this.send({ type: 'auth', token });
  }

  subscribe(topic: string): () => void {
    const count = this.topics.get(topic) ?? 0;
    this.topics.set(topic, count + 1);
    if (count === 0) this.send({ type: 'subscribe', topic });
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.topics.get(topic) ?? 1) - 1;
      if (left > 0) return void this.topics.set(topic, left);
      this.topics.delete(topic);
      this.send({ type: 'unsubscribe', topic });
    };
  }

  /**
   * Who is present in a scope of a topic (e.g. a version's review under its project), kept up to
   * date from the server's snapshot and its join/leave events. Follows the topic while watched.
   */
  watchPresence(topic: string, scope: string, listener: PresenceListener): () => void {
    const unsubscribe = this.subscribe(topic);
    const entry = this.scope(topic, scope);
    entry.listeners.add(listener);
    listener(entry.users);
    return () => {
      entry.listeners.delete(listener);
      if (entry.listeners.size === 0 && !entry.present) this.presence.delete(scopeKey(topic, scope));
      unsubscribe();
    };
  }

  /** Shows this tab in a scope (or stops); the server forgets it anyway when the socket closes. */
  setPresent(topic: string, scope: string, present: boolean): void {
    const entry = this.scope(topic, scope);
    if (entry.present === present) return;
    entry.present = present;
    this.send({ type: present ? 'presence.join' : 'presence.leave', topic, scope });
  }

  private scope(topic: string, scope: string): PresenceScope {
    const key = scopeKey(topic, scope);
    let entry = this.presence.get(key);
    if (!entry) {
      entry = { topic, scope, present: false, users: [], listeners: new Set() };
      this.presence.set(key, entry);
    }
    return entry;
  }

  private setUsers(topic: string, scope: string, next: (users: PresenceUser[]) => PresenceUser[]): void {
    const entry = this.presence.get(scopeKey(topic, scope));
    if (!entry) return;
    entry.users = next(entry.users).sort((a, b) => a.displayName.localeCompare(b.displayName));
    for (const listener of entry.listeners) listener(entry.users);
  }

  /** The server's messages other than events, `ready` included (after every reconnect). */
  onMessage(listener: (message: ServerMessage) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.socket?.close();
    this.socket = null;
  }
}
