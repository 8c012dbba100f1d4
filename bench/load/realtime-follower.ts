// A browser tab's realtime connection as the web app keeps it: on a drop it reconnects with a
// growing delay, signs in again and follows its topics again.
import type { ServerMessage } from '@mixroom/contracts';
import WebSocket from 'ws';

export class RealtimeFollower {
  private socket: WebSocket | null = null;
  private closed = false;
  private delayMs = 250;
  reconnects = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly token: () => string,
    private readonly topics: string[],
    private readonly onMessage: (message: ServerMessage) => void,
  ) {}

  connect(): void {
    if (this.closed) return;
    const socket = new WebSocket(`${this.baseUrl.replace(/^http/, 'ws')}/api/realtime`);
    this.socket = socket;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'auth', token: this.token() })));
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as ServerMessage;
      if (message.type === 'ready') {
        this.delayMs = 250;
        for (const topic of this.topics) socket.send(JSON.stringify({ type: 'subscribe', topic }));
      }
      this.onMessage(message);
    });
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      if (this.closed) return;
      this.reconnects++;
      const delay = this.delayMs;
      this.delayMs = Math.min(this.delayMs * 2, 8_000);
      setTimeout(() => this.connect(), delay).unref();
    });
  }

  close(): void {
    this.closed = true;
    this.socket?.terminate();
  }
}
