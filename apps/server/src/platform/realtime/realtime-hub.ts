import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { clientMessage, type DomainEvent, type ServerMessage } from '@mixroom/contracts';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Actor } from '../../modules/users/users.service';
import type { EventBus } from './event-bus';
import type { TopicPolicy } from './topic-policy';

const AUTH_TIMEOUT_MS = 10_000;
const HEARTBEAT_MS = 30_000;
const MAX_TOPICS = 500;

interface Connection {
  socket: WebSocket;
  actor: Actor | null;
  topics: Set<string>;
  alive: boolean;
}

/**
 * The authenticated WebSocket at /api/realtime. A client sends its access token first (browsers
 * cannot set headers on a WebSocket), then subscribes to topics; each subscription is checked by
 * the topic policy. Events from the bus reach only the connections subscribed to their topic.
 */
export class RealtimeHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly connections = new Set<Connection>();
  private readonly unsubscribe: () => void;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    bus: EventBus,
    private readonly policy: TopicPolicy,
    private readonly authenticate: (token: string) => Promise<Actor>,
    private readonly log: Logger,
  ) {
    this.unsubscribe = bus.subscribe((event) => this.deliver(event));
    this.heartbeat = setInterval(() => this.sweep(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  }

  private accept(socket: WebSocket): void {
    const connection: Connection = { socket, actor: null, topics: new Set(), alive: true };
    this.connections.add(connection);
    const authTimer = setTimeout(() => !connection.actor && socket.close(4401, 'authentication timeout'), AUTH_TIMEOUT_MS);
    socket.on('pong', () => (connection.alive = true));
    socket.on('close', () => {
      clearTimeout(authTimer);
      this.connections.delete(connection);
    });
    socket.on('message', (data) => void this.onMessage(connection, rawToText(data)));
  }

  private send(connection: Connection, message: ServerMessage): void {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(message));
  }

  private async onMessage(connection: Connection, text: string): Promise<void> {
    let message;
    try {
      message = clientMessage.parse(JSON.parse(text));
    } catch {
      this.send(connection, { type: 'error', message: 'Malformed message.' });
      return;
    }
    if (message.type === 'ping') return this.send(connection, { type: 'pong' });
    if (message.type === 'auth') {
      try {
        connection.actor = await this.authenticate(message.token);
        this.send(connection, { type: 'ready', userId: connection.actor.userId });
      } catch {
        connection.socket.close(4401, 'invalid token');
      }
      return;
    }
    if (!connection.actor) {
      connection.socket.close(4401, 'authenticate first');
      return;
    }
    if (message.type === 'unsubscribe') {
      connection.topics.delete(message.topic);
      return;
    }
    const allowed =
      connection.topics.size < MAX_TOPICS &&
      (await this.policy.canSubscribe(connection.actor, message.topic).catch((error: unknown) => {
        this.log.warn({ err: error, topic: message.topic }, 'topic check failed; denied');
        return false;
      }));
    if (!allowed) return this.send(connection, { type: 'denied', topic: message.topic, reason: 'You may not follow this topic.' });
    connection.topics.add(message.topic);
    this.send(connection, { type: 'subscribed', topic: message.topic });
  }

  private deliver(event: DomainEvent): void {
    for (const connection of this.connections) {
      if (connection.topics.has(event.topic)) this.send(connection, { type: 'event', event });
    }
  }

  /** Terminates connections that missed a ping (a laptop that went to sleep). */
  private sweep(): void {
    for (const connection of this.connections) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }

  get size(): number {
    return this.connections.size;
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    for (const connection of this.connections) connection.socket.close(1001, 'server shutting down');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

function rawToText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Buffer.from(new Uint8Array(data)).toString('utf8');
}
