/**
 * WHIP publishing and WHEP listening over fetch, with the media token the live module hands out.
 * Pure TypeScript: the peer connection, fetch, timers and the page's lifecycle come in as deps so
 * the reconnection rules can be tested without a browser.
 *
 * - Connection states reported: connecting, connected, disconnected, failed, closed (the peer's own).
 * - Auto-reconnect: on a signalling error, on 'failed', on 'disconnected' still so after 1.5 s, or
 *   when the stall watch (stall-watch.ts) finds a connected path silent for longer than its RTCP
 *   reports allow, the current connection is stopped and a new one made. The first attempt after a
 *   working connection goes at once (a dead node's rooms are taken over as soon as an offer finds it
 *   refusing); the next waits 1000 ms, doubling up to 32000 ms; 'connected' resets it. A 401 from the
 *   server stops reconnecting. Nothing runs while a reconnect is already pending or after `stop()`.
 * - `stop()` DELETEs the WHIP/WHEP resource; a `pagehide` sends that DELETE with `keepalive` so it
 *   survives the tab closing.
 */

import { DISCONNECTED_WAIT_MS, nextReconnectDelay, RECONNECT_FIRST_MS } from './reconnect-rules';
import { STATS_POLL_MS, StallWatch } from './stall-watch';

export type StreamState = 'new' | 'connecting' | 'connected' | 'disconnected' | 'failed' | 'closed';

/** Where and with what to connect: the WHIP or WHEP URL and its bearer token. */
export interface MediaGrant {
  url: string;
  token: string;
  iceServers?: RTCIceServer[];
  /** WHEP: how many recvonly slots the offer carries (the room's publisher cap). */
  slotCount?: number;
  /** WHIP: whether the publisher may add lossless PCM on a data channel (the host's plan). */
  lossless?: boolean;
}

export class StreamingFetchError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'StreamingFetchError';
  }
}

export { DISCONNECTED_WAIT_MS, RECONNECT_FIRST_MS, RECONNECT_MAX_MS, RECONNECT_MIN_MS } from './reconnect-rules';
/** Non-trickle ICE: the offer goes once gathering completes, or after this long with what it has. */
export const ICE_GATHER_MS = 2000;

export const STREAMING_MESSAGES = {
  mediaStreamRequired: 'MediaStream required',
  viewerBitrate: 'It is not possible for a viewer to update the bitrate.',
  viewerSubscribed: 'Viewer currently subscribed',
  broadcastWorking: 'Broadcast currently working',
} as const;

export interface StreamingDeps {
  fetch: typeof fetch;
  createPeer: (config: RTCConfiguration) => RTCPeerConnection;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** Registers a page-hide listener; returns its removal. */
  onPageHide: (fn: () => void) => () => void;
  /** A monotonic clock in ms (the stall watch's). */
  now: () => number;
}

export function browserDeps(): StreamingDeps {
  return {
    fetch: (...args) => fetch(...args),
    createPeer: (config) => new RTCPeerConnection(config),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    onPageHide: (fn) => {
      window.addEventListener('pagehide', fn);
      return () => window.removeEventListener('pagehide', fn);
    },
    now: () => performance.now(),
  };
}

export interface StreamingOptions {
  /** Fetches a fresh grant for each connection (tokens are short-lived). */
  tokenGenerator: () => Promise<MediaGrant>;
  autoReconnect?: boolean;
  onState?: (state: StreamState) => void;
  /** A connection attempt failed; `willRetry` says whether another one is scheduled. */
  onError?: (error: Error, willRetry: boolean) => void;
  deps?: StreamingDeps;
}

interface Session {
  peer: RTCPeerConnection;
  /** The resource URL (Location) to DELETE, and the token that may. */
  resource: string | null;
  token: string;
  disconnectTimer: unknown;
  /** The next read of the peer's stats while connected (see StallWatch). */
  statsTimer: unknown;
  watch: StallWatch;
}

function absolute(location: string, base: string): string {
  try {
    return new URL(location, new URL(base, 'http://localhost')).toString().replace(/^http:\/\/localhost/, '');
  } catch {
    return location;
  }
}

function waitForIce(peer: RTCPeerConnection, deps: StreamingDeps): Promise<void> {
  return new Promise((resolve) => {
    if (peer.iceGatheringState === 'complete') return resolve();
    const timer = deps.setTimeout(resolve, ICE_GATHER_MS);
    peer.addEventListener('icegatheringstatechange', () => {
      if (peer.iceGatheringState !== 'complete') return;
      deps.clearTimeout(timer);
      resolve();
    });
  });
}

/** What a WHIP publisher (whip-publisher.ts) and a WHEP viewer (whep-viewer.ts) share: signalling, states, reconnects. */
export abstract class StreamingClient {
  protected readonly deps: StreamingDeps;
  protected session: Session | null = null;
  private stateValue: StreamState = 'new';
  private delay = RECONNECT_FIRST_MS;
  private reconnectTimer: unknown = null;
  private stopped = true;
  private removePageHide: (() => void) | null = null;

  constructor(protected readonly options: StreamingOptions) {
    this.deps = options.deps ?? browserDeps();
  }

  get state(): StreamState {
    return this.stateValue;
  }

  /** The delay before the next reconnection attempt. */
  get reconnectDelay(): number {
    return this.delay;
  }

  get isActive(): boolean {
    return !this.stopped;
  }

  /** The WHIP/WHEP resource id (the Location's last segment), e.g. to follow its slot map. */
  get resourceId(): string | null {
    const resource = this.session?.resource;
    return resource ? (resource.split('/').pop() ?? null) : null;
  }

  /** The live peer connection (for getStats), if any. */
  get peer(): RTCPeerConnection | null {
    return this.session?.peer ?? null;
  }

  protected setState(state: StreamState): void {
    if (this.stateValue === state) return;
    this.stateValue = state;
    this.options.onState?.(state);
  }

  /** Builds the peer's transceivers (publisher: its track; viewer: its recvonly slots). */
  protected abstract preparePeer(peer: RTCPeerConnection, grant: MediaGrant): void;
  /** The offer SDP as sent (a viewer asks for stereo). */
  protected editOffer(sdp: string): string {
    return sdp;
  }

  protected async start(): Promise<void> {
    this.stopped = false;
    this.removePageHide ??= this.deps.onPageHide(() => this.sendDeleteOnUnload());
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.setState('connecting');
    let grant: MediaGrant;
    let peer: RTCPeerConnection | null = null;
    try {
      grant = await this.options.tokenGenerator();
      if (this.stopped) return;
      peer = this.deps.createPeer({ iceServers: grant.iceServers ?? [] });
      const session: Session = {
        peer,
        resource: null,
        token: grant.token,
        disconnectTimer: null,
        statsTimer: null,
        watch: new StallWatch(),
      };
      this.preparePeer(peer, grant);
      this.watch(session);
      const offer = await peer.createOffer();
      await peer.setLocalDescription({ type: 'offer', sdp: this.editOffer(offer.sdp ?? '') });
      await waitForIce(peer, this.deps);
      if (this.stopped) return void peer.close();
      const response = await this.deps.fetch(grant.url, {
        method: 'POST',
        headers: { 'content-type': 'application/sdp', authorization: `Bearer ${grant.token}` },
        body: peer.localDescription?.sdp ?? '',
      });
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        let message = text || `HTTP ${response.status}`;
        try {
          message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
        } catch {
          // a plain-text body is the message itself
        }
        throw new StreamingFetchError(response.status, message);
      }
      const location = response.headers.get('location');
      session.resource = location ? absolute(location, grant.url) : null;
      const answer = await response.text();
      const previous = this.session;
      this.session = session;
      if (this.stopped) return void this.closeSession(session);
      await peer.setRemoteDescription({ type: 'answer', sdp: answer });
      if (previous) this.closeSession(previous);
    } catch (error) {
      if (peer && this.session?.peer !== peer) peer.close();
      const failure = error instanceof Error ? error : new Error(String(error));
      const retry = this.shouldRetry(failure);
      this.options.onError?.(failure, retry);
      if (retry) this.scheduleReconnect();
      else this.halt();
    }
  }

  private shouldRetry(error: Error): boolean {
    if (this.stopped || this.options.autoReconnect === false) return false;
    return !(error instanceof StreamingFetchError && error.status === 401);
  }

  /** A 401 or no auto-reconnect: stop trying but keep `stop()` meaningful. */
  private halt(): void {
    this.setState('failed');
  }

  private watch(session: Session): void {
    const { peer } = session;
    peer.addEventListener('connectionstatechange', () => {
      if (this.session !== session) return;
      const state = peer.connectionState;
      if (state === 'connected') {
        this.delay = RECONNECT_FIRST_MS;
        this.deps.clearTimeout(session.disconnectTimer);
        session.disconnectTimer = null;
        this.setState('connected');
        this.watchStats(session);
        this.onConnected(peer);
      } else if (state === 'failed') {
        this.setState('failed');
        this.scheduleReconnect();
      } else if (state === 'disconnected') {
        this.setState('disconnected');
        session.disconnectTimer ??= this.deps.setTimeout(() => {
          session.disconnectTimer = null;
          if (this.session === session && peer.connectionState === 'disconnected') this.scheduleReconnect();
        }, DISCONNECTED_WAIT_MS);
      } else if (state === 'closed') {
        this.setState('closed');
      } else if (state === 'connecting') {
        this.setState('connecting');
      }
    });
  }

  protected onConnected(_peer: RTCPeerConnection): void {}

  /** Reads the connected peer's stats every STATS_POLL_MS; a silent path is replaced like a failed one. */
  private watchStats(session: Session): void {
    if (session.statsTimer !== null) return;
    const tick = async () => {
      session.statsTimer = null;
      const { peer } = session;
      if (this.session !== session || peer.connectionState !== 'connected') return;
      const report = await peer.getStats().catch(() => null);
      if (this.session !== session || peer.connectionState !== 'connected') return;
      if (report && session.watch.read(report, this.deps.now())) {
        this.setState('disconnected');
        this.scheduleReconnect();
        return;
      }
      session.statsTimer = this.deps.setTimeout(() => void tick(), STATS_POLL_MS);
    };
    session.statsTimer = this.deps.setTimeout(() => void tick(), STATS_POLL_MS);
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.options.autoReconnect === false || this.reconnectTimer !== null) return;
    const wait = this.delay;
    this.delay = nextReconnectDelay(wait);
    this.reconnectTimer = this.deps.setTimeout(() => {
      this.reconnectTimer = null;
      const old = this.session;
      this.session = null;
      if (old) this.closeSession(old);
      void this.connect();
    }, wait);
  }

  /** Replaces the connection now (new source or quality); the old one goes once the new answers. */
  protected async renegotiate(): Promise<void> {
    if (this.stopped) return;
    await this.connect();
  }

  private closeSession(session: Session): void {
    this.deps.clearTimeout(session.disconnectTimer);
    this.deps.clearTimeout(session.statsTimer);
    session.statsTimer = null;
    session.peer.close();
    if (session.resource)
      void this.deps
        .fetch(session.resource, { method: 'DELETE', headers: { authorization: `Bearer ${session.token}` } })
        .catch(() => undefined);
  }

  private sendDeleteOnUnload(): void {
    const session = this.session;
    if (!session?.resource) return;
    void this.deps
      .fetch(session.resource, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${session.token}` },
        keepalive: true,
      })
      .catch(() => undefined);
    session.resource = null;
  }

  /** Ends the stream: no more reconnecting, the resource is deleted, the state is 'closed'. */
  stop(): void {
    this.stopped = true;
    this.deps.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.removePageHide?.();
    this.removePageHide = null;
    const session = this.session;
    this.session = null;
    if (session) this.closeSession(session);
    this.delay = RECONNECT_FIRST_MS;
    this.setState('closed');
  }

  /** Only a publisher may: see Publisher. */
  abstract updateBitrate(bitrate: number): Promise<void>;
}
