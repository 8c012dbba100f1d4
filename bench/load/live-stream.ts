// One end of a live room as the web app keeps it: a headless publisher (a stereo tone) or listener
// (libwebrtc through @roamhq/wrtc) that reconnects by the web streaming client's rules
// (ClientRulesStream, with the web app's reconnect-rules.ts and stall-watch.ts): the connection is
// given up on a failed attempt, on 'failed', on 'disconnected' for 1.5 s, or when its transport has
// been silent for 2.5 of the longest gaps between the server's RTCP reports (at least 2.5 s); the next
// attempt goes at once, then after 1000 ms doubling to 32000 ms; 'connected' resets; a 401 to an offer
// stops it. Each connection asks for a fresh media token with the user's current access token and
// sends its offer through the balancer, as a browser tab does.
import { exchangeVia, liveApi, mediaOf } from '../../apps/server/test/helpers/live';
import {
  ClientRulesStream,
  type LossCause,
  type RulesConnection,
} from '../../apps/server/test/helpers/client-rules-stream';
import { Listener, TonePublisher } from '../../apps/server/test/helpers/rtc-clients';
import type { LoadMetrics } from './load-metrics';

export interface Tone {
  leftHz: number;
  rightHz: number;
}

/** One peer connection of the stream, kept after it is replaced (recovery is read from them). */
export type Connection = RulesConnection<TonePublisher | Listener>;

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

export class LiveStream {
  /** Connection attempts that failed, by cause (the first words of the error). */
  readonly failures = new Map<string, number>();
  /** The largest offer libwebrtc made, and the TCP candidates dropped from the offers (see withoutTcpCandidates). */
  largestOfferBytes = 0;
  tcpCandidatesDropped = 0;
  private readonly rules: ClientRulesStream<TonePublisher | Listener>;

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
    this.rules = new ClientRulesStream(() => this.open(), {
      halt: (error) => error instanceof OfferRefused && error.status === 401,
      onError: (error) => {
        const cause = (error instanceof Error ? error.message : String(error)).slice(0, 70);
        this.failures.set(cause, (this.failures.get(cause) ?? 0) + 1);
      },
    });
  }

  get connections(): Connection[] {
    return this.rules.connections;
  }

  get current(): Connection | undefined {
    return this.rules.current;
  }

  get reconnects(): number {
    return this.rules.reconnects;
  }

  /** Stopped by a 401 to an offer, as the web client stops. */
  get halted(): boolean {
    return this.rules.halted;
  }

  /** Each connection given up, when (performance clock) and why. */
  get losses(): { at: number; cause: LossCause }[] {
    return this.rules.losses;
  }

  /** The first connection; later ones are made by the stream itself. */
  start(): Promise<void> {
    return this.rules.start();
  }

  /** One attempt: a fresh media token with the user's access token, the offer through the balancer. */
  private async open() {
    const { mode, code, baseUrl, tone, metrics } = this.options;
    return metrics.time('live-connect', async () => {
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
      const resource = { url: `${baseUrl}${new URL(media.url).pathname}/${peer.resourceId}`, token: media.token };
      return { peer, resource };
    });
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
    return this.rules.connectedSince(since);
  }

  stop(): Promise<void> {
    return this.rules.stop();
  }
}
