// One end of a live room as the web app keeps it: a headless publisher (a stereo tone) or listener
// (libwebrtc through @roamhq/wrtc) that reconnects by the web streaming client's rules: on a
// signalling error, on 'failed', or on 'disconnected' still so after 1.5 s, the connection is closed
// (its resource deleted) and a new one made after 1000 ms, doubling up to 32000 ms; 'connected'
// resets the delay; a 401 to an offer stops it. Each connection asks for a fresh media token with the
// user's current access token and sends its offer through the balancer, as a browser tab does.
import {
  DISCONNECTED_WAIT_MS,
  RECONNECT_MAX_MS,
  RECONNECT_MIN_MS,
} from '../../apps/web/src/features/live/streaming-client';
import { exchangeVia, liveApi, mediaOf } from '../../apps/server/test/helpers/live';
import { Listener, TonePublisher } from '../../apps/server/test/helpers/rtc-clients';
import type { LoadMetrics } from './load-metrics';

export interface Tone {
  leftHz: number;
  rightHz: number;
}

/** One peer connection of the stream, kept after it is replaced (recovery is read from them). */
export interface Connection {
  peer: TonePublisher | Listener;
  /** When the attempt that made it began (ms, performance clock). */
  createdAt: number;
  /** When ICE and DTLS first reported 'connected', if they did. */
  connectedAt: number | undefined;
}

/** What the wrtc peer reports in getStats (only what the harness reads). */
interface StatsEntry {
  type: string;
  kind?: string;
  packetsReceived?: number;
}
interface WithStats {
  getStats(): Promise<{ forEach(visit: (entry: StatsEntry) => void): void }>;
}

class OfferRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const POLL_MS = 250;

export class LiveStream {
  readonly connections: Connection[] = [];
  /** Connection attempts that failed, by cause (the first words of the error). */
  readonly failures = new Map<string, number>();
  reconnects = 0;
  /** The largest offer libwebrtc made, and the TCP candidates dropped from the offers (see withoutTcpCandidates). */
  largestOfferBytes = 0;
  tcpCandidatesDropped = 0;
  /** Stopped by a 401 to an offer, as the web client stops. */
  halted = false;
  private delay = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private disconnectedSince: number | null = null;
  private resourcePath: string | null = null;
  private mediaToken = '';
  private stopped = false;
  private readonly watcher: NodeJS.Timeout;

  constructor(
    private readonly options: {
      mode: 'publish' | 'subscribe';
      code: string;
      baseUrl: string;
      accessToken: () => string;
      tone: Tone;
      metrics: LoadMetrics;
    },
  ) {
    this.watcher = setInterval(() => this.watch(), POLL_MS);
  }

  get current(): Connection | undefined {
    const last = this.connections.at(-1);
    return last && this.resourcePath !== null ? last : undefined;
  }

  /** The first connection; later ones are made by the stream itself. */
  start(): Promise<void> {
    return this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const { mode, code, baseUrl, tone, metrics } = this.options;
    const attemptAt = performance.now();
    try {
      const { media, peer } = await metrics.time('live-connect', async () => {
        const answer = await liveApi({ url: baseUrl }, { token: this.options.accessToken() }).mediaToken(code, mode);
        if (answer.status >= 300) throw new Error(`media token: ${answer.status} ${JSON.stringify(answer.body)}`);
        const media = mediaOf(answer);
        const exchange = exchangeVia({ url: baseUrl }, media);
        const refusing: typeof exchange = (offer) =>
          exchange(this.withoutTcpCandidates(offer)).catch((error: unknown) => {
            const text = error instanceof Error ? error.message : String(error);
            throw new OfferRefused(
              Number(text.split(' ', 1)[0]) || 0,
              `${mode === 'publish' ? 'WHIP' : 'WHEP'}: ${text}`,
            );
          });
        const peer =
          mode === 'publish'
            ? await TonePublisher.start(refusing, tone)
            : await Listener.start(refusing, { slots: media.slotCount, probeHz: [tone.leftHz, tone.rightHz] });
        return { media, peer };
      });
      this.connections.push({ peer, createdAt: attemptAt, connectedAt: undefined });
      this.mediaToken = media.token;
      this.resourcePath = `${new URL(media.url).pathname}/${peer.resourceId}`;
      this.disconnectedSince = null;
      if (this.stopped) await this.closeCurrent();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const cause = message.slice(0, 70);
      this.failures.set(cause, (this.failures.get(cause) ?? 0) + 1);
      if (error instanceof OfferRefused && error.status === 401) this.halted = true;
      else this.scheduleReconnect();
    }
  }

  /**
   * libwebrtc in Node gathers its TCP host candidates again and again while the machine is loaded
   * (seen: 136 per address across 8 slots, offers of 70-100 KB, over the server's 64 KB SDP limit);
   * a browser offers one per address, and the embedded SFU (werift) uses UDP only. They are dropped
   * here, and counted, so the run measures the server rather than this quirk.
   */
  private withoutTcpCandidates(offer: string): string {
    this.largestOfferBytes = Math.max(this.largestOfferBytes, offer.length);
    const lines = offer.split('\r\n');
    const kept = lines.filter((line) => !/^a=candidate:\S+ \d+ tcp /i.test(line));
    this.tcpCandidatesDropped += lines.length - kept.length;
    return kept.join('\r\n');
  }

  /** The web client's connection-state rules, read every POLL_MS from the current peer. */
  private watch(): void {
    const connection = this.current;
    if (!connection || this.reconnectTimer !== null) return;
    const state = connection.peer.pc.connectionState;
    if (state === 'connected') {
      connection.connectedAt ??= performance.now();
      this.delay = RECONNECT_MIN_MS;
      this.disconnectedSince = null;
    } else if (state === 'failed') {
      this.scheduleReconnect();
    } else if (state === 'disconnected') {
      this.disconnectedSince ??= performance.now();
      if (performance.now() - this.disconnectedSince >= DISCONNECTED_WAIT_MS) this.scheduleReconnect();
    } else {
      this.disconnectedSince = null;
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer !== null) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, RECONNECT_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.reconnects++;
      void this.closeCurrent();
      void this.connect();
    }, wait);
  }

  /** Closes the peer and deletes its resource (through the balancer, with the token that made it). */
  private closeCurrent(): Promise<void> {
    const connection = this.current;
    const path = this.resourcePath;
    this.resourcePath = null;
    this.disconnectedSince = null;
    connection?.peer.close();
    if (!path) return Promise.resolve();
    return fetch(`${this.options.baseUrl}${path}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${this.mediaToken}` },
      signal: AbortSignal.timeout(5000),
    }).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Audible decoded frames so far on the current connection (a listener; 0 for a publisher). */
  audibleFrames(): number {
    const peer = this.current?.peer;
    if (!(peer instanceof Listener)) return 0;
    return [...peer.slots.values()].reduce((sum, slot) => sum + slot.audibleFrames, 0);
  }

  /** RTP audio packets received so far on the current connection (a listener). */
  async packetsReceived(): Promise<number> {
    const peer = this.current?.peer;
    if (!(peer instanceof Listener)) return 0;
    let packets = 0;
    const report = await (peer.pc as unknown as WithStats).getStats().catch(() => null);
    report?.forEach((entry) => {
      if (entry.type === 'inbound-rtp' && entry.kind === 'audio') packets += entry.packetsReceived ?? 0;
    });
    return packets;
  }

  /** Whether the current connection hears the tone in stereo: its left and right in one slot. */
  hearsTone(): boolean {
    const peer = this.current?.peer;
    if (!(peer instanceof Listener)) return false;
    const left = peer.slotHearing(this.options.tone.leftHz, 'left');
    return left !== undefined && peer.slotHearing(this.options.tone.rightHz, 'right') === left;
  }

  /** The first audible frame on a connection made at or after `since` (ms, performance clock). */
  firstAudioSince(since: number): number | undefined {
    const times = this.connections
      .filter((c) => c.createdAt >= since && c.peer instanceof Listener)
      .flatMap((c) => [...(c.peer as Listener).slots.values()].map((slot) => slot.firstAudibleAtMs))
      .filter((t): t is number => t !== undefined && t >= since);
    return times.length ? Math.min(...times) : undefined;
  }

  /** When a connection made at or after `since` first reported 'connected'. */
  connectedSince(since: number): number | undefined {
    return this.connections.find((c) => c.createdAt >= since && c.connectedAt !== undefined)?.connectedAt;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.watcher);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    await this.closeCurrent();
  }
}
