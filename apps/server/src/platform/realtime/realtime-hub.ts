import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ClientMessage, type DomainEvent, type PresenceUser, type ServerMessage } from '@mixroom/contracts';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Clock } from '../clock/clock';
import type { Actor } from '../identity/actor';
import { CORE_CLIENT_MESSAGES, type ClientMessageHandlers, type RealtimeSender } from './client-handlers';
import { parseClientMessage } from './client-message-parser';
import type { EventBus } from './event-bus';
import { NODE_BEAT_MS, PresenceRegistry } from './presence-registry';
import type { PublicGrants } from './public-grants';
import { newConnection, rawToText, type Connection } from './realtime-connection';
import type { TopicAuthorizer } from './topic-authorizer';

const AUTH_TIMEOUT_MS = 10_000;
const HEARTBEAT_MS = 30_000;
const MAX_TOPICS = 500;
const MAX_PRESENCE_SCOPES = 50;
/** A client message larger than this closes its socket with 1009 (every client message is small). */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** The error code authentication throws for a disabled account. */
const ACCOUNT_DISABLED = 'ACCOUNT_DISABLED';

/** Who a token belongs to, and until when the server may trust it. */
export interface Authenticated {
  actor: Actor;
  /** Epoch milliseconds; null when the token carries no expiry. */
  expiresAt: number | null;
  /** The actor's picture, for presence. */
  photoUrl?: string | null;
  /** The sign-in session (grant) the token was issued under: its end closes the socket. */
  sessionId?: string | null;
}

export interface RealtimeHubDeps {
  bus: EventBus;
  authorizer: TopicAuthorizer;
  authenticate: (token: string) => Promise<Authenticated>;
  grants: PublicGrants;
  /** Client message types modules answer (beyond the hub's own). */
  handlers?: ClientMessageHandlers;
  log: Logger;
  /** Token expiry times are compared with the app's clock, as the token verifier does. */
  clock: Clock;
}

/**
 * The WebSocket at /api/realtime, both ways. A client sends its access token first (browsers
 * cannot set headers on a WebSocket) — or, signed out, a public grant for one resource — then
 * subscribes to topics, joins presence scopes and sends module messages (zod-checked; a bad one
 * gets an `error` and the socket stays up). Access is not a one-time check:
 * - every subscription is checked by the topic authorizer;
 * - an `access.changed` event re-checks the topics of the sockets it names (grant sockets on every
 *   change that names no one); until that re-check ends, their events wait, so nothing published
 *   after the change reaches someone who lost access;
 * - a socket whose token or grant expires without being renewed is closed.
 */
export class RealtimeHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly connections = new Set<Connection>();
  private readonly unsubscribe: () => void;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly nodeBeat: NodeJS.Timeout;
  private readonly presence: PresenceRegistry;
  private readonly handlers: ClientMessageHandlers;
  private nextId = 0;

  constructor(private readonly deps: RealtimeHubDeps) {
    for (const type of Object.keys(deps.handlers ?? {}))
      if (CORE_CLIENT_MESSAGES.includes(type as ClientMessage['type']))
        throw new Error(`The realtime hub answers "${type}" itself; a module may not take it over.`);
    this.handlers = deps.handlers ?? {};
    const nodeId = randomBytes(6).toString('base64url');
    this.presence = new PresenceRegistry(
      nodeId,
      (event) => deps.bus.publish(event),
      deps.log,
      (topic, scope, user, state, origin) =>
        this.deliverLocal({ topic, type: 'presence.changed', data: { scope, user, state } }, origin),
    );
    const stopEvents = deps.bus.subscribe((event) => this.deliver(event));
    // Events published while this node's fan-out link was down never arrive: every socket refetches.
    const stopResumed = deps.bus.onResumed(() => {
      for (const connection of this.connections) this.send(connection, { type: 'resync' });
    });
    this.unsubscribe = () => {
      stopEvents();
      stopResumed();
    };
    this.wss.on('error', (error) => deps.log.warn({ err: error }, 'realtime server error'));
    // Real timers on purpose: liveness of sockets and nodes is about the machine, not the app's clock.
    this.heartbeat = setInterval(() => this.sweep(), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.nodeBeat = setInterval(() => this.beat(false), NODE_BEAT_MS);
    this.nodeBeat.unref();
    this.beat(true);
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  }

  private beat(hello: boolean): void {
    this.presence.forgetSilentNodes();
    this.deps.bus
      .publish({ topic: 'system', type: 'presence.node', data: { nodeId: this.presence.nodeId, hello } })
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'node beat not published'));
  }

  private accept(socket: WebSocket): void {
    const connection = newConnection(String((this.nextId += 1)), socket);
    this.connections.add(connection);
    const authTimer = setTimeout(
      () => !connection.actor && !connection.grantTopic && socket.close(4401, 'authentication timeout'),
      AUTH_TIMEOUT_MS,
    );
    // ws reports a frame over maxPayload (after answering 1009), a bad frame or a reset connection as
    // 'error' and then closes the socket; unheard, the event would end the process.
    socket.on('error', (error) => this.deps.log.debug({ err: error }, 'realtime socket error; closed'));
    socket.on('pong', () => (connection.alive = true));
    socket.on('close', () => {
      clearTimeout(authTimer);
      if (connection.expiry) clearTimeout(connection.expiry);
      this.connections.delete(connection);
      for (const { topic, scope } of this.presence.scopesOf(connection.id))
        this.presence.leave(connection.id, topic, scope);
    });
    socket.on('message', (data) => {
      const text = rawToText(data);
      connection.queue = connection.queue.then(() =>
        this.onMessage(connection, text).catch((error: unknown) =>
          this.deps.log.warn({ err: error }, 'realtime message failed'),
        ),
      );
    });
  }

  private send(connection: Connection, message: ServerMessage): void {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(message));
  }

  /** Closes the socket when `expiresAt` (epoch ms) passes, unless a renewal re-arms it first. */
  private expireAt(connection: Connection, expiresAt: number | null, reason: string): void {
    if (connection.expiry) clearTimeout(connection.expiry);
    connection.expiry = null;
    if (expiresAt === null) return;
    // A real timer for the time left now: a socket open while a test moves the app's clock stays open.
    const left = expiresAt - this.deps.clock.now().getTime();
    connection.expiry = setTimeout(() => connection.socket.close(4401, reason), Math.max(0, left));
    connection.expiry.unref();
  }

  private async signIn(connection: Connection, token: string): Promise<boolean> {
    try {
      const { actor, expiresAt, photoUrl, sessionId } = await this.deps.authenticate(token);
      connection.token = token;
      connection.actor = actor;
      connection.photoUrl = photoUrl ?? null;
      connection.sessionId = sessionId ?? null;
      this.expireAt(connection, expiresAt, 'token expired');
      return true;
    } catch (error) {
      // A disabled account is told apart from an expired token: its tab signs out instead of renewing.
      if ((error as { code?: unknown }).code === ACCOUNT_DISABLED) connection.socket.close(4403, 'account disabled');
      else connection.socket.close(4401, 'invalid token');
      return false;
    }
  }

  private async onMessage(connection: Connection, text: string): Promise<void> {
    const parsed = parseClientMessage(text);
    if ('error' in parsed) return this.send(connection, parsed.error);
    const message = parsed.message;
    if (message.type === 'ping') return this.send(connection, { type: 'pong' });
    if (message.type === 'auth') return this.onAuth(connection, message.token);
    if (message.type === 'grant') return this.onGrant(connection, message.grant);
    if (!connection.actor && !connection.grantTopic) {
      connection.socket.close(4401, 'authenticate first');
      return;
    }
    switch (message.type) {
      case 'unsubscribe':
        return this.drop(connection, message.topic);
      case 'subscribe':
        return this.onSubscribe(connection, message.topic);
      case 'presence.join':
        return this.onPresenceJoin(connection, message.topic, message.scope);
      case 'presence.leave':
        return this.presence.leave(connection.id, message.topic, message.scope);
      default:
        return this.dispatch(connection, message);
    }
  }

  private async onAuth(connection: Connection, token: string): Promise<void> {
    if (connection.grantTopic) {
      connection.socket.close(4400, 'a grant socket cannot sign in; open a new one');
      return;
    }
    const previous = connection.actor?.userId;
    if (!(await this.signIn(connection, token))) return;
    // Another account on the same socket starts from nothing.
    if (previous && previous !== connection.actor?.userId)
      for (const topic of [...connection.topics]) this.drop(connection, topic);
    this.send(connection, { type: 'ready', userId: connection.actor!.userId });
  }

  private async onGrant(connection: Connection, grant: string): Promise<void> {
    const topic = this.deps.grants.verify(grant);
    if (connection.actor || !topic || (connection.grantTopic && connection.grantTopic !== topic)) {
      connection.socket.close(4401, 'invalid grant');
      return;
    }
    connection.grantTopic = topic;
    // The grant only opens the socket; a renewed grant (sent again) keeps it open past this.
    this.expireAt(connection, this.deps.clock.now().getTime() + this.deps.grants.ttlMs, 'grant expired');
    this.send(connection, { type: 'ready', userId: null, topic });
  }

  private async onSubscribe(connection: Connection, topic: string): Promise<void> {
    const allowed = connection.topics.size < MAX_TOPICS && (await this.allowed(connection, topic));
    if (!allowed) return this.send(connection, { type: 'denied', topic, reason: 'You may not follow this topic.' });
    connection.topics.add(topic);
    this.send(connection, { type: 'subscribed', topic });
  }

  private onPresenceJoin(connection: Connection, topic: string, scope: string): void {
    const actor = connection.actor;
    if (!actor || !connection.topics.has(topic)) {
      const message = actor ? 'Follow the topic before joining its presence.' : 'Sign in to be seen.';
      return this.send(connection, { type: 'error', code: 'NOT_SUBSCRIBED', message });
    }
    if (this.presence.scopesOf(connection.id).length >= MAX_PRESENCE_SCOPES)
      return this.send(connection, { type: 'error', code: 'TOO_MANY_SCOPES', message: 'Too many presence scopes.' });
    const user: PresenceUser = { id: actor.userId, displayName: actor.displayName, photoUrl: connection.photoUrl };
    this.presence.join(connection.id, topic, scope, user);
    this.send(connection, { type: 'presence', topic, scope, users: this.presence.snapshot(topic, scope) });
  }

  private async dispatch(connection: Connection, message: ClientMessage): Promise<void> {
    const handler = this.handlers[message.type] as ((s: RealtimeSender, m: ClientMessage) => Promise<void>) | undefined;
    if (!handler) {
      this.send(connection, {
        type: 'error',
        code: 'UNKNOWN_TYPE',
        message: `Unknown message type ("${message.type}").`,
      });
      return;
    }
    const sender: RealtimeSender = {
      connectionId: connection.id,
      actor: connection.actor,
      grantTopic: connection.grantTopic,
      topics: connection.topics,
      reply: (reply) => this.send(connection, reply),
      isOpen: () => connection.socket.readyState === connection.socket.OPEN,
    };
    await handler(sender, message).catch((error: unknown) => {
      this.deps.log.warn({ err: error, type: message.type }, 'realtime message failed');
      this.send(connection, { type: 'error', code: 'FAILED', message: 'The server could not take this message.' });
    });
  }

  private allowed(connection: Connection, topic: string): Promise<boolean> {
    const check = connection.actor
      ? this.deps.authorizer.canSubscribe(connection.actor, topic)
      : topic === connection.grantTopic
        ? this.deps.authorizer.canFollowPublicly(topic)
        : Promise.resolve(false);
    return check.catch((error: unknown) => {
      this.deps.log.warn({ err: error, topic }, 'topic check failed; denied');
      return false;
    });
  }

  /**
   * Sign-in sessions that ended (a sign-out, a password reset): their sockets close as their tokens
   * would on expiry (4401), so the tab tries to renew, is refused, and signs out.
   */
  private endSessions(grantIds: string[]): void {
    const ended = new Set(grantIds);
    for (const connection of this.connections)
      if (connection.sessionId && ended.has(connection.sessionId)) connection.socket.close(4401, 'session ended');
  }

  /** Stops following a topic, and leaves its presence scopes. */
  private drop(connection: Connection, topic: string): void {
    connection.topics.delete(topic);
    for (const joined of this.presence.scopesOf(connection.id, topic))
      this.presence.leave(connection.id, joined.topic, joined.scope);
  }

  private deliver(event: DomainEvent): void {
    if (event.topic === 'system') {
      if (event.type === 'access.changed') this.recheck(event.data.userIds);
      if (event.type === 'session.revoked') this.endSessions(event.data.grantIds);
      if (event.type === 'presence.node') this.presence.nodeBeat(event.data.nodeId, event.data.hello);
      return;
    }
    // Holder-level presence from the bus: the registry turns it into user-level news for our clients.
    if (event.type === 'presence.changed') return this.presence.receive(event);
    this.deliverLocal(event);
  }

  private deliverLocal(event: DomainEvent | Omit<DomainEvent, 'at'>, except: string | null = null): void {
    const stamped = ('at' in event ? event : { ...event, at: this.deps.clock.now().getTime() }) as DomainEvent;
    for (const connection of this.connections) {
      if (!connection.topics.has(stamped.topic) || connection.id === except) continue;
      if (connection.checking > 0) connection.backlog.push(stamped);
      else this.send(connection, { type: 'event', event: stamped });
    }
  }

  /** Re-checks the named users' sockets (all, grant sockets included, when null). */
  private recheck(userIds: string[] | null): void {
    const named = userIds ? new Set(userIds) : null;
    for (const connection of this.connections) {
      if (!connection.actor && !connection.grantTopic) continue;
      if (named && (!connection.actor || !named.has(connection.actor.userId))) continue;
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
    if (connection.actor && (!connection.token || !(await this.signIn(connection, connection.token)))) {
      for (const topic of [...connection.topics]) this.drop(connection, topic);
      return;
    }
    for (const topic of [...connection.topics]) {
      if (await this.allowed(connection, topic)) continue;
      this.drop(connection, topic);
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
    clearInterval(this.nodeBeat);
    this.unsubscribe();
    for (const connection of this.connections) connection.socket.close(1001, 'server shutting down');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
