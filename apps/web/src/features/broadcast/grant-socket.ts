import type { DomainEvent, ServerMessage } from '@mixroom/contracts';

const RECONNECT_MS = 3000;

export interface GrantSocketHandlers {
  /** A fresh grant for the socket (grants live ten minutes; each connection asks again). */
  grant: () => Promise<{ grant: string; topic: string }>;
  onEvent: (event: DomainEvent) => void;
  /** Following the topic (again): what happened while the socket was away is read afresh. */
  onFollowing: () => void;
  /** The topic was taken away (the link was replaced): stop, the room is gone. */
  onRevoked: () => void;
}

/**
 * A signed-out listener's realtime socket: it opens with a public grant for one broadcast's topic
 * (no account), follows it, and reconnects with a new grant when the connection drops.
 */
export class GrantSocket {
  private socket: WebSocket | null = null;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly handlers: GrantSocketHandlers) {}

  connect(): void {
    void this.open();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close();
    this.socket = null;
  }

  private async open(): Promise<void> {
    if (this.closed) return;
    let grant: { grant: string; topic: string };
    try {
      grant = await this.handlers.grant();
    } catch (error) {
      // A code that leads nowhere stays so: asking again would only count as a wrong guess.
      if ((error as { status?: number }).status === 404) {
        this.close();
        return this.handlers.onRevoked();
      }
      return this.schedule();
    }
    if (this.closed) return;
    const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/api/realtime`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'grant', grant: grant.grant }));
    socket.onmessage = (message: MessageEvent<string>) => {
      const data = JSON.parse(message.data) as ServerMessage;
      if (data.type === 'ready') socket.send(JSON.stringify({ type: 'subscribe', topic: grant.topic }));
      else if (data.type === 'subscribed') this.handlers.onFollowing();
      else if (data.type === 'event') this.handlers.onEvent(data.event);
      else if (data.type === 'revoked' || data.type === 'denied') {
        this.close();
        this.handlers.onRevoked();
      }
    };
    socket.onclose = () => {
      if (this.socket === socket) this.schedule();
    };
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.open(), RECONNECT_MS);
  }
}
