import { serverMessage, type ClientMessage, type DomainEvent } from '@mixroom/contracts';

type Listener = (event: DomainEvent) => void;

const MIN_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

/**
 * One WebSocket per tab to /api/realtime. It authenticates with the current access token,
 * resubscribes every topic after a reconnect, and reconnects with doubling backoff.
 */
export class RealtimeClient {
  private socket: WebSocket | null = null;
  private readonly topics = new Set<string>();
  private readonly listeners = new Set<Listener>();
  private delay = MIN_DELAY_MS;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private onReconnect: (() => void) | null = null;
  private onDisabled: (() => void) | null = null;

  constructor(private readonly token: () => Promise<string | null>) {}

  /** `onDisabled`: the server closed the socket because an administrator disabled the account. */
  connect(onReconnect?: () => void, onDisabled?: () => void): void {
    this.onReconnect = onReconnect ?? null;
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
      if (data.type === 'ready') {
        this.delay = MIN_DELAY_MS;
        for (const topic of this.topics) this.send({ type: 'subscribe', topic });
        // Events may have been missed while disconnected: let the app refetch.
        if (isReconnect) this.onReconnect?.();
      } else if (data.type === 'event') {
        for (const listener of this.listeners) listener(data.event);
      } else if (data.type === 'revoked') {
        // Access to something on screen was taken away: refetching shows the page as it now is.
        this.onReconnect?.();
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

  private send(message: ClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Re-authenticates the open socket after the access token was renewed. */
  async refreshToken(): Promise<void> {
    const token = await this.token();
    if (token) this.send({ type: 'auth', token });
  }

  subscribe(topic: string): () => void {
    this.topics.add(topic);
    this.send({ type: 'subscribe', topic });
    return () => {
      this.topics.delete(topic);
      this.send({ type: 'unsubscribe', topic });
    };
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
