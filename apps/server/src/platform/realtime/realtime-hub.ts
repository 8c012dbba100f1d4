import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { clientMessage, type DomainEvent, type ServerMessage } from '@mixroom/contracts';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { systemClock, type Clock } from '../clock/clock';
import type { Actor } from '../identity/actor';
import type { EventBus } from './event-bus';
import type { TopicAuthorizer } from './topic-authorizer';

const AUTH_TIMEOUT_MS = 10_000;
const HEARTBEAT_MS = 30_000;
const MAX_TOPICS = 500;
/** A client message larger than this closes its socket with 1009 (auth, subscribe and ping are tiny). */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** The error code authentication throws for a disabled account. */
const ACCOUNT_DISABLED = 'ACCOUNT_DISABLED';

/** Who a token belongs to, and until when the server may trust it. */
export interface Authenticated {
  actor: Actor;
  /** Epoch milliseconds; null when the token carries no expiry. */
  expiresAt: number | null;
}

interface Connection {
  socket: WebSocket;
  token: string | null;
  actor: Actor | null;
  topics: Set<string>;
  alive: boolean;
  expiry: NodeJS.Timeout | null;
  /** Re-checks under way; while any runs, events wait in the backlog. */
  checking: number;
  backlog: DomainEvent[];
}

/**
 * The authenticated WebSocket at /api/realtime. A client sends its access token first (browsers
 * cannot set headers on a WebSocket), then subscribes to topics. Access is not a one-time check:
 * - every subscription is checked by the topic authorizer;
 * - an `access.changed` event (membership, role, trash, link, account) re-checks the topics of the
 *   sockets it names; until that re-check ends, their events wait, so nothing published after the
 *   change reaches someone who lost access;
 * - a socket whose token expires without being renewed is closed.
 */
export class RealtimeHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly connections = new Set<Connection>();
  private readonly unsubscribe: () => void;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    bus: EventBus,
    private readonly authorizer: TopicAuthorizer,
    private readonly authenticate: (token: string) => Promise<Authenticated>,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
  ) {
    this.unsubscribe = bus.subscribe((event) => this.deliver(event));
    this.wss.on('error', (error) => this.log.warn({ err: error }, 'realtime server error'));
    this.heartbeat = setInterval(() => this.sweep(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  }

  private accept(socket: WebSocket): void {
    const connection: Connection = {
      socket,
      token: null,
      actor: null,
      topics: new Set(),
      alive: true,
      expiry: null,
      checking: 0,
      backlog: [],
    };
    this.connections.add(connection);
    const authTimer = setTimeout(
      () => !connection.actor && socket.close(4401, 'authentication timeout'),
      AUTH_TIMEOUT_MS,
    );
    // ws reports a frame over maxPayload (after answering 1009), a bad frame or a reset connection as
    // 'error' and then closes the socket; unheard, the event would end the process.
    socket.on('error', (error) => this.log.debug({ err: error }, 'realtime socket error; closed'));
    socket.on('pong', () => (connection.alive = true));
    socket.on('close', () => {
      clearTimeout(authTimer);
      if (connection.expiry) clearTimeout(connection.expiry);
      this.connections.delete(connection);
    });
    socket.on('message', (data) => void this.onMessage(connection, rawToText(data)));
  }

  private send(connection: Connection, message: ServerMessage): void {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(message));
  }

  private async signIn(connection: Connection, token: string): Promise<boolean> {
    try {
      const { actor, expiresAt } = await this.authenticate(token);
      connection.token = token;
      connection.actor = actor;
      if (connection.expiry) clearTimeout(connection.expiry);
      connection.expiry = null;
      if (expiresAt !== null) {
        // A renewed token arrives as a new `auth` message before this fires.
        // A real timer armed for the time left now: a socket open while a test moves the clock stays open.
        connection.expiry = setTimeout(
          () => connection.socket.close(4401, 'token expired'),
          Math.max(0, expiresAt - this.clock.now().getTime()),
        );
        connection.expiry.unref();
      }
      return true;
    } catch (error) {
      // A disabled account is told apart from an expired token: its tab signs out instead of renewing.
      if ((error as { code?: unknown }).code === ACCOUNT_DISABLED) connection.socket.close(4403, 'account disabled');
      else connection.socket.close(4401, 'invalid token');
      return false;
    }
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
      const previous = connection.actor?.userId;
      if (!(await this.signIn(connection, message.token))) return;
      // Another account on the same socket starts from nothing.
      if (previous && previous !== connection.actor?.userId) connection.topics.clear();
      this.send(connection, { type: 'ready', userId: connection.actor!.userId });
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
    const allowed = connection.topics.size < MAX_TOPICS && (await this.allowed(connection.actor, message.topic));
    if (!allowed)
      return this.send(connection, { type: 'denied', topic: message.topic, reason: 'You may not follow this topic.' });
    connection.topics.add(message.topic);
    this.send(connection, { type: 'subscribed', topic: message.topic });
  }

  private allowed(actor: Actor, topic: string): Promise<boolean> {
    return this.authorizer.canSubscribe(actor, topic).catch((error: unknown) => {
      this.log.warn({ err: error, topic }, 'topic check failed; denied');
      return false;
    });
  }

  private deliver(event: DomainEvent): void {
    if (event.topic === 'system') {
      if (event.type === 'access.changed') this.recheck(event.data.userIds);
      return;
    }
    for (const connection of this.connections) {
      if (!connection.topics.has(event.topic)) continue;
      if (connection.checking > 0) connection.backlog.push(event);
      else this.send(connection, { type: 'event', event });
    }
  }

  /** Re-authenticates and re-checks every topic of the named users' sockets (all when null). */
  private recheck(userIds: string[] | null): void {
    const named = userIds ? new Set(userIds) : null;
    for (const connection of this.connections) {
      if (!connection.actor || (named && !named.has(connection.actor.userId))) continue;
      connection.checking += 1;
      void this.recheckOne(connection).finally(() => {
        connection.checking -= 1;
        if (connection.checking > 0) return;
        const backlog = connection.backlog.splice(0);
        for (const event of backlog)
          if (connection.topics.has(event.topic)) this.send(connection, { type: 'event', event });
      });
    }
  }

  private async recheckOne(connection: Connection): Promise<void> {
    // The account may have been disabled or demoted since it signed in: resolve it again.
    if (!connection.token || !(await this.signIn(connection, connection.token))) {
      connection.topics.clear();
      return;
    }
    const actor = connection.actor!;
    for (const topic of [...connection.topics]) {
      if (await this.allowed(actor, topic)) continue;
      connection.topics.delete(topic);
      this.send(connection, { type: 'revoked', topic });
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
