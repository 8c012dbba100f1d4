import type { PGlite } from '@electric-sql/pglite';
import { domainEvent, parseTopic, type DomainEventInput } from '@mixroom/contracts';
import pg from 'pg';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../clock/clock';
import type { EventBus, EventHandler } from './event-bus';

const CHANNEL = 'mixroom_events';
/** NOTIFY payloads are capped at 8000 bytes: events carry ids, and at most a small document everyone on the topic may see. */
const MAX_PAYLOAD = 7900;

type Listener = { stop(): Promise<void> };

/**
 * The event bus on PostgreSQL LISTEN/NOTIFY. A node hears its own NOTIFYs too, so local handlers are
 * invoked only from the notification: one path, same order on every node. On PGlite the same calls
 * run in process.
 */
export class PgNotifyBus implements EventBus {
  private readonly handlers = new Set<EventHandler>();
  private readonly resumedHandlers = new Set<() => void>();
  private listener: Listener | null = null;

  private constructor(
    private readonly notify: (payload: string) => Promise<void>,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  static async onPglite(pglite: PGlite, log: Logger, clock: Clock = systemClock): Promise<PgNotifyBus> {
    const bus = new PgNotifyBus(
      async (payload) => {
        await pglite.query('select pg_notify($1, $2)', [CHANNEL, payload]);
      },
      log,
      clock,
    );
    const unlisten = await pglite.listen(CHANNEL, (payload) => bus.dispatch(payload));
    bus.listener = { stop: unlisten };
    return bus;
  }

  static async onPostgres(
    pool: pg.Pool,
    connectionString: string,
    log: Logger,
    clock: Clock = systemClock,
  ): Promise<PgNotifyBus> {
    const bus = new PgNotifyBus(
      async (payload) => {
        await pool.query('select pg_notify($1, $2)', [CHANNEL, payload]);
      },
      log,
      clock,
    );
    bus.listener = await bus.listenWithReconnect(connectionString);
    return bus;
  }

  /**
   * A dedicated connection for LISTEN, re-established with backoff (250 ms doubling to 10 s) for as
   * long as the server stays away: a lost connection and every failed attempt to open the next one
   * schedule another attempt, so an outage longer than the first retry still ends with a listener.
   */
  private async listenWithReconnect(connectionString: string): Promise<Listener> {
    let client: pg.Client | null = null;
    let stopped = false;
    let delay = 250;
    let retry: NodeJS.Timeout | null = null;
    let everConnected = false;
    const scheduleRetry = (): void => {
      if (stopped || retry) return;
      retry = setTimeout(() => {
        retry = null;
        void connect().catch((error: unknown) => {
          this.log.warn({ err: error }, 'event bus still unreachable, retrying');
          scheduleRetry();
        });
      }, delay);
      delay = Math.min(delay * 2, 10_000);
    };
    const connect = async (): Promise<void> => {
      const next = new pg.Client({ connectionString });
      let lost = false;
      const onLost = (error?: Error): void => {
        if (lost) return;
        lost = true;
        if (client === next) client = null;
        if (!stopped) this.log.warn({ err: error }, 'event bus connection lost, reconnecting');
        void next.end().catch(() => undefined);
        scheduleRetry();
      };
      next.on('notification', (message) => message.payload && this.dispatch(message.payload));
      // Before the LISTEN query: a connection dropped while it runs emits 'error' as well, and an
      // 'error' nobody listens to ends the process.
      next.on('error', onLost);
      try {
        await next.connect();
        await next.query(`listen ${CHANNEL}`);
      } catch (error) {
        lost = true;
        void next.end().catch(() => undefined);
        throw error;
      }
      next.on('end', () => onLost());
      const resumed = everConnected;
      everConnected = true;
      client = next;
      delay = 250;
      // Whatever was published while no connection listened is gone: say so to those who show it.
      if (resumed) for (const handler of this.resumedHandlers) handler();
    };
    await connect();
    return {
      stop: async () => {
        stopped = true;
        if (retry) clearTimeout(retry);
        await client?.end();
      },
    };
  }

  private dispatch(payload: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(payload);
    } catch (error) {
      this.log.warn({ err: error }, 'dropped a malformed event');
      return;
    }
    const parsed = domainEvent.safeParse(raw);
    if (!parsed.success) {
      // What it claimed to be, so the sender can be found (its data may be large or private).
      const claimed = (raw ?? {}) as { topic?: unknown; type?: unknown };
      const said = (value: unknown) => (typeof value === 'string' ? value.slice(0, 80) : undefined);
      this.log.warn(
        { err: parsed.error, topic: said(claimed.topic), type: said(claimed.type) },
        'dropped a malformed event',
      );
      return;
    }
    const event = parsed.data;
    for (const handler of this.handlers) {
      try {
        handler(event);
      } catch (error) {
        this.log.error({ err: error, type: event.type }, 'event handler failed');
      }
    }
  }

  async publish(event: DomainEventInput): Promise<void> {
    // Every node drops an event with no known topic: refuse it here, where its sender is on the stack.
    if (!parseTopic(event.topic)) throw new Error(`Event ${event.type} has an unknown topic: ${event.topic}`);
    const payload = JSON.stringify({ ...event, at: this.clock.now().getTime() });
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) throw new Error(`Event ${event.type} is too large for the bus`);
    await this.notify(payload);
  }

  async publishOrLog(event: DomainEventInput): Promise<void> {
    await this.publish(event).catch((error: unknown) =>
      this.log.warn({ err: error, type: event.type, topic: event.topic }, 'event not published'),
    );
  }

  subscribe(handler: EventHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  onResumed(handler: () => void): () => void {
    this.resumedHandlers.add(handler);
    return () => this.resumedHandlers.delete(handler);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.resumedHandlers.clear();
    await this.listener?.stop();
  }
}
