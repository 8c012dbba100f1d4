import {
  DISCONNECTED_WAIT_MS,
  nextReconnectDelay,
  RECONNECT_FIRST_MS,
} from '../../../web/src/features/live/reconnect-rules';
import { STATS_POLL_MS, StallWatch, type StatsLike } from '../../../web/src/features/live/stall-watch';

/** A headless peer (TonePublisher, Listener) as far as the rules read it. */
export interface RulesPeer {
  pc: { connectionState: string };
  close(): void;
}

/** wrtc's peer has getStats; its type declaration here leaves it out. */
const statsOf = (pc: RulesPeer['pc']): Promise<StatsLike | null> =>
  (pc as unknown as { getStats(): Promise<StatsLike> }).getStats().catch(() => null);

/** What one successful attempt made: the peer, and the resource to DELETE when it is replaced. */
export interface Opened<P> {
  peer: P;
  resource?: { url: string; token: string };
}

/** Why a connection was given up: the web client's causes. */
export type LossCause = 'offer-failed' | 'failed' | 'disconnected' | 'stalled';

export interface RulesConnection<P> {
  peer: P;
  /** When the attempt that made it began (performance clock, ms). */
  createdAt: number;
  /** When it first reported 'connected'. */
  connectedAt: number | undefined;
  watch: StallWatch;
}

/**
 * A headless publisher or listener that keeps its stream up by the web streaming client's rules
 * (reconnect-rules.ts, stall-watch.ts, both imported from the web app): the connection is given up
 * on a failed attempt, on 'failed', on 'disconnected' for 1.5 s, or when the stall watch finds the
 * path silent; the next attempt goes at once, then after 1 s doubling to 32 s; 'connected' resets.
 * `open` makes one attempt (a fresh token, an offer); `halt` says whether an error stops for good
 * (the web client stops on a 401).
 */
export class ClientRulesStream<P extends RulesPeer> {
  readonly connections: RulesConnection<P>[] = [];
  /** Each connection given up, when and why (performance clock, ms). */
  readonly losses: { at: number; cause: LossCause }[] = [];
  reconnects = 0;
  halted = false;
  private resource: Opened<P>['resource'] | null = null;
  private live = false;
  private delay = RECONNECT_FIRST_MS;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private disconnectedSince: number | null = null;
  private stopped = false;
  private reading = false;
  private readonly poller: NodeJS.Timeout;

  constructor(
    private readonly open: () => Promise<Opened<P>>,
    private readonly options: { halt?: (error: unknown) => boolean; onError?: (error: unknown) => void } = {},
  ) {
    this.poller = setInterval(() => void this.watch(), STATS_POLL_MS);
  }

  /** The connection in use (none while reconnecting). */
  get current(): RulesConnection<P> | undefined {
    return this.live ? this.connections.at(-1) : undefined;
  }

  start(): Promise<void> {
    return this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const attemptAt = performance.now();
    try {
      const opened = await this.open();
      this.connections.push({
        peer: opened.peer,
        createdAt: attemptAt,
        connectedAt: undefined,
        watch: new StallWatch(),
      });
      this.resource = opened.resource ?? null;
      this.live = true;
      this.disconnectedSince = null;
      if (this.stopped) await this.closeCurrent();
    } catch (error) {
      this.options.onError?.(error);
      if (this.options.halt?.(error)) this.halted = true;
      else this.lose('offer-failed');
    }
  }

  /** The web client's connection-state rules and stall watch, every STATS_POLL_MS. */
  private async watch(): Promise<void> {
    const connection = this.current;
    if (!connection || this.reconnectTimer !== null || this.reading) return;
    const state = connection.peer.pc.connectionState;
    if (state === 'connected') {
      connection.connectedAt ??= performance.now();
      this.delay = RECONNECT_FIRST_MS;
      this.disconnectedSince = null;
      this.reading = true;
      const report = await statsOf(connection.peer.pc);
      this.reading = false;
      if (report && this.current === connection && connection.watch.read(report, performance.now()))
        this.lose('stalled');
    } else if (state === 'failed') {
      this.lose('failed');
    } else if (state === 'disconnected') {
      this.disconnectedSince ??= performance.now();
      if (performance.now() - this.disconnectedSince >= DISCONNECTED_WAIT_MS) this.lose('disconnected');
    } else {
      this.disconnectedSince = null;
    }
  }

  private lose(cause: LossCause): void {
    if (this.stopped || this.reconnectTimer !== null) return;
    this.losses.push({ at: performance.now(), cause });
    const wait = this.delay;
    this.delay = nextReconnectDelay(wait);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.reconnects++;
      void this.closeCurrent();
      void this.connect();
    }, wait);
  }

  /** Closes the peer and deletes its resource (with the token that made it), as the web client does. */
  private closeCurrent(): Promise<void> {
    const connection = this.current;
    const resource = this.resource;
    this.live = false;
    this.resource = null;
    this.disconnectedSince = null;
    connection?.peer.close();
    if (!resource) return Promise.resolve();
    return fetch(resource.url, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${resource.token}` },
      signal: AbortSignal.timeout(5000),
    }).then(
      () => undefined,
      () => undefined,
    );
  }

  /** When a connection made at or after `since` first reported 'connected'. */
  connectedSince(since: number): number | undefined {
    return this.connections.find((c) => c.createdAt >= since && c.connectedAt !== undefined)?.connectedAt;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poller);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    await this.closeCurrent();
  }
}
