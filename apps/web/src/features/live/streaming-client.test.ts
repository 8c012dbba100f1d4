import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preferStereoOpus } from './opus-sdp';
import type { StatsEntry } from './stall-watch';
import { STREAMING_MESSAGES, type StreamState, type StreamingDeps, type MediaGrant } from './streaming-client';
import { Viewer } from './whep-viewer';
import { Publisher } from './whip-publisher';

const OFFER = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63',
  'a=mid:0',
  'a=recvonly',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:63 red/48000/2',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=mid:1',
  'a=recvonly',
  'a=rtpmap:111 opus/48000/2',
  '',
].join('\r\n');

class FakePeer extends EventTarget {
  connectionState: RTCPeerConnectionState = 'new';
  iceGatheringState: RTCIceGatheringState = 'complete';
  localDescription: { type: string; sdp: string } | null = null;
  remote: string | null = null;
  transceivers: unknown[] = [];
  channels: { label: string; init: unknown; binaryType: string }[] = [];
  closed = false;
  /** What getStats answers (the test moves its counters). */
  stats: StatsEntry[] = [];
  async getStats() {
    return this.stats;
  }
  createDataChannel(label: string, init?: unknown) {
    const channel = { label, init, binaryType: 'blob', readyState: 'connecting' };
    this.channels.push(channel);
    return channel;
  }
  addTransceiver(what: unknown, init: unknown) {
    this.transceivers.push({ what, init });
  }
  getSenders() {
    return [];
  }
  async createOffer() {
    return { type: 'offer', sdp: OFFER };
  }
  async setLocalDescription(description: { type: string; sdp: string }) {
    this.localDescription = description;
  }
  async setRemoteDescription(description: { sdp: string }) {
    this.remote = description.sdp;
  }
  close() {
    this.closed = true;
    this.connectionState = 'closed';
  }
  set(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.dispatchEvent(new Event('connectionstatechange'));
  }
}

interface Call {
  url: string;
  method: string;
  keepalive: boolean;
  body: string;
}

function harness(respond: (call: Call) => Response = () => answer(), lossless = false) {
  const peers: FakePeer[] = [];
  const calls: Call[] = [];
  let pageHide: (() => void) | null = null;
  const deps: StreamingDeps = {
    fetch: (async (url: string, init: RequestInit) => {
      const call = {
        url,
        method: init.method ?? 'GET',
        keepalive: init.keepalive === true,
        body: typeof init.body === 'string' ? init.body : '',
      };
      calls.push(call);
      return respond(call);
    }) as typeof fetch,
    createPeer: () => {
      const peer = new FakePeer();
      peers.push(peer);
      return peer as unknown as RTCPeerConnection;
    },
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    onPageHide: (fn) => {
      pageHide = fn;
      return () => {
        pageHide = null;
      };
    },
    now: () => Date.now(),
  };
  const states: StreamState[] = [];
  let n = 0;
  const grant = async (): Promise<MediaGrant> => ({ url: '/api/live/ROOM/whip', token: `t${++n}`, lossless });
  return { peers, calls, deps, states, grant, hide: () => pageHide?.() };
}

let resourceCount = 0;
function answer(): Response {
  resourceCount++;
  return new Response('v=0\r\nanswer', { status: 201, headers: { location: `/api/live/ROOM/whip/r${resourceCount}` } });
}

const fakeStream = { getAudioTracks: () => [{ kind: 'audio' }] } as unknown as MediaStream;
const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

beforeEach(() => {
  vi.useFakeTimers();
  resourceCount = 0;
});
afterEach(() => vi.useRealTimers());

describe('stereo offer edit', () => {
  it('adds stereo=1;sprop-stereo=1 to every Opus fmtp, creating it where missing', () => {
    const sdp = preferStereoOpus(OFFER);
    expect(sdp).toContain('a=fmtp:111 minptime=10;useinbandfec=1;stereo=1;sprop-stereo=1');
    expect(sdp.match(/a=fmtp:111 [^\r\n]*stereo=1/g)).toHaveLength(2);
    expect(sdp).not.toContain('a=fmtp:63');
  });
});

describe('Publisher', () => {
  it('refuses without a stream, and a second publish while working', async () => {
    const h = harness();
    const publisher = new Publisher({ tokenGenerator: h.grant, deps: h.deps });
    await expect(publisher.publish({ mediaStream: null, bitrate: 128_000 })).rejects.toThrow(
      STREAMING_MESSAGES.mediaStreamRequired,
    );
    await publisher.publish({ mediaStream: fakeStream, bitrate: 128_000 });
    await expect(publisher.publish({ mediaStream: fakeStream, bitrate: 128_000 })).rejects.toThrow(
      STREAMING_MESSAGES.broadcastWorking,
    );
    publisher.stop();
  });

  it('posts its offer with the token, reports states, and DELETEs on stop', async () => {
    const h = harness();
    const publisher = new Publisher({ tokenGenerator: h.grant, deps: h.deps, onState: (s) => h.states.push(s) });
    await publisher.publish({ mediaStream: fakeStream, bitrate: 256_000 });
    expect(h.calls[0]).toMatchObject({ url: '/api/live/ROOM/whip', method: 'POST' });
    expect(h.peers[0]!.remote).toContain('answer');
    h.peers[0]!.set('connected');
    publisher.stop();
    await flush();
    expect(h.calls[1]).toMatchObject({ url: '/api/live/ROOM/whip/r1', method: 'DELETE', keepalive: false });
    expect(h.states).toEqual(['connecting', 'connected', 'closed']);
  });

  it('reconnects on failed at once, then after 1 s doubling to 32 s, and resets after connecting', async () => {
    const h = harness();
    const publisher = new Publisher({ tokenGenerator: h.grant, deps: h.deps });
    await publisher.publish({ mediaStream: fakeStream, bitrate: 128_000 });
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      delays.push(publisher.reconnectDelay);
      const before = h.peers.length;
      h.peers.at(-1)!.set('failed');
      if (delays[i]! > 0) {
        await vi.advanceTimersByTimeAsync(delays[i]! - 1);
        expect(h.peers.length).toBe(before);
      }
      await vi.advanceTimersByTimeAsync(1);
      expect(h.peers.length).toBe(before + 1);
    }
    expect(delays).toEqual([0, 1000, 2000, 4000, 8000, 16000, 32000, 32000]);
    h.peers.at(-1)!.set('connected');
    expect(publisher.reconnectDelay).toBe(0);
    publisher.stop();
  });

  it('waits 1.5 s on disconnected and reconnects only if still disconnected', async () => {
    const h = harness();
    const publisher = new Publisher({ tokenGenerator: h.grant, deps: h.deps });
    await publisher.publish({ mediaStream: fakeStream, bitrate: 128_000 });
    h.peers[0]!.set('connected');
    h.peers[0]!.set('disconnected');
    await vi.advanceTimersByTimeAsync(1000);
    h.peers[0]!.set('connected');
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.peers).toHaveLength(1);
    h.peers[0]!.set('disconnected');
    await vi.advanceTimersByTimeAsync(1500 + 1000);
    expect(h.peers).toHaveLength(2);
    expect(h.peers[0]!.closed).toBe(true);
    publisher.stop();
  });

  it('reconnects after a signalling error but stops for good on 401', async () => {
    let status = 503;
    const h = harness((call) => (call.method === 'POST' ? new Response('busy', { status }) : answer()));
    const errors: [string, boolean][] = [];
    const publisher = new Publisher({
      tokenGenerator: h.grant,
      deps: h.deps,
      onError: (e, retry) => errors.push([e.message, retry]),
    });
    await publisher.publish({ mediaStream: fakeStream, bitrate: 128_000 });
    expect(errors).toEqual([['busy', true]]);
    status = 401;
    await vi.advanceTimersByTimeAsync(1000);
    expect(errors[1]).toEqual(['busy', false]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.calls.filter((c) => c.method === 'POST')).toHaveLength(2);
    expect(publisher.state).toBe('failed');
    publisher.stop();
  });

  it('republishes with a new quality, then DELETEs the old resource', async () => {
    const h = harness();
    const bitrates: number[] = [];
    const publisher = new Publisher({ tokenGenerator: h.grant, deps: h.deps }, (b) => bitrates.push(b));
    await publisher.publish({ mediaStream: fakeStream, bitrate: 128_000 });
    await publisher.updateBitrate(320_000);
    await flush();
    expect(bitrates).toEqual([128_000, 320_000]);
    expect(h.calls.map((c) => c.method)).toEqual(['POST', 'POST', 'DELETE']);
    expect(h.calls[2]!.url).toBe('/api/live/ROOM/whip/r1');
    expect(h.peers[0]!.closed).toBe(true);
    expect(h.peers[1]!.closed).toBe(false);
    publisher.stop();
  });

  it('adds an ordered lossless channel when asked and the grant allows it, and republishes to drop it', async () => {
    const h = harness(undefined, true);
    const grants: boolean[] = [];
    const publisher = new Publisher({ tokenGenerator: h.grant, deps: h.deps }, undefined, (a) => grants.push(a));
    await publisher.setLossless(true);
    await publisher.publish({ mediaStream: fakeStream, bitrate: 128_000 });
    expect(h.peers[0]!.channels).toEqual([
      { label: 'lossless', init: { ordered: true }, binaryType: 'arraybuffer', readyState: 'connecting' },
    ]);
    // Not open yet: nothing to send on.
    expect(publisher.losslessChannel).toBeNull();
    await publisher.setLossless(false);
    expect(h.peers).toHaveLength(2);
    expect(h.peers[1]!.channels).toEqual([]);
    expect(grants).toEqual([true, true]);
    publisher.stop();
  });

  it('adds no channel when the plan does not allow lossless mode, and says so', async () => {
    const h = harness();
    const publisher = new Publisher({ tokenGenerator: h.grant, deps: h.deps });
    await publisher.setLossless(true);
    await publisher.publish({ mediaStream: fakeStream, bitrate: 128_000 });
    expect(h.peers[0]!.channels).toEqual([]);
    expect(publisher.losslessAllowed).toBe(false);
    publisher.stop();
  });

  it('sends a keepalive DELETE when the page hides', async () => {
    const h = harness();
    const publisher = new Publisher({ tokenGenerator: h.grant, deps: h.deps });
    await publisher.publish({ mediaStream: fakeStream, bitrate: 128_000 });
    h.hide();
    expect(h.calls[1]).toMatchObject({ method: 'DELETE', keepalive: true, url: '/api/live/ROOM/whip/r1' });
  });
});

describe('Viewer', () => {
  it('offers K recvonly slots with stereo, refuses a second view and bitrate changes', async () => {
    const h = harness();
    const viewer = new Viewer({ tokenGenerator: h.grant, deps: h.deps }, () => undefined);
    await viewer.view({ slots: 3 });
    expect(h.peers[0]!.transceivers).toHaveLength(3);
    // A channel of its own, so the SFU may relay lossless channels to this listener.
    expect(h.peers[0]!.channels.map((c) => c.label)).toEqual(['mixroom-listener']);
    expect(h.calls[0]!.body).toContain('stereo=1;sprop-stereo=1');
    await expect(viewer.view({ slots: 3 })).rejects.toThrow(STREAMING_MESSAGES.viewerSubscribed);
    await expect(viewer.updateBitrate()).rejects.toThrow(STREAMING_MESSAGES.viewerBitrate);
    viewer.stop();
  });
});

/**
 * The stall watch inside the client: a connected peer whose transport stops receiving is replaced
 * (at once, it is the first attempt) after 2.5 report gaps of silence; a silent publisher, whose
 * path still carries the server's reports, is not; a connection that never had a report is left
 * to ICE. The counters move on the fake clock as the SFU's would (reports every 1 s).
 */
describe('stall watch', () => {
  /** Moves a peer's counters every 250 ms: reports every `reportMs`, RTP bytes only while `rtp()`. */
  function feed(peer: FakePeer, reportMs: number, rtp: () => boolean, alive: () => boolean) {
    let bytes = 0;
    let reports = 0;
    let since = 0;
    const timer = setInterval(() => {
      if (!alive()) return;
      since += 250;
      if (rtp()) bytes += 1000;
      if (since >= reportMs) {
        since = 0;
        reports++;
        bytes += 90;
      }
      peer.stats = [
        { type: 'transport', bytesReceived: bytes },
        { type: 'remote-outbound-rtp', reportsSent: reports },
      ];
    }, 250);
    return () => clearInterval(timer);
  }

  /** A one-slot viewer whose first peer is connected and fed as `feed` says. */
  async function fedViewer(reportMs: number, rtp: () => boolean, alive: () => boolean) {
    const h = harness();
    const viewer = new Viewer({ tokenGenerator: h.grant, deps: h.deps }, () => undefined);
    await viewer.view({ slots: 1 });
    const stopFeed = feed(h.peers[0]!, reportMs, rtp, alive);
    h.peers[0]!.set('connected');
    return { h, viewer, stopFeed };
  }

  it('replaces a connected viewer whose path went silent, at once, after 2.5 report gaps', async () => {
    let alive = true;
    const { h, viewer, stopFeed } = await fedViewer(
      1000,
      () => true,
      () => alive,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.peers).toHaveLength(1);
    alive = false; // the node is killed: nothing more arrives, ICE still says connected
    await vi.advanceTimersByTimeAsync(2000);
    expect(h.peers).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.peers).toHaveLength(2);
    expect(h.peers[0]!.closed).toBe(true);
    expect(viewer.reconnectDelay).toBe(1000);
    stopFeed();
    viewer.stop();
  });

  it('keeps a path that only carries the reports (nobody publishing), and one that never had a report', async () => {
    let rtp = true;
    const { h, viewer, stopFeed } = await fedViewer(
      1000,
      () => rtp,
      () => true,
    );
    await vi.advanceTimersByTimeAsync(5000);
    rtp = false;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(h.peers).toHaveLength(1);
    stopFeed();
    viewer.stop();

    const quiet = harness();
    const other = new Viewer({ tokenGenerator: quiet.grant, deps: quiet.deps }, () => undefined);
    await other.view({ slots: 1 });
    quiet.peers[0]!.stats = [{ type: 'transport', bytesReceived: 500 }];
    quiet.peers[0]!.set('connected');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(quiet.peers).toHaveLength(1);
    other.stop();
  });

  it('gives a server that reports every 5 s 2.5 of its gaps before judging', async () => {
    let alive = true;
    const { h, viewer, stopFeed } = await fedViewer(
      5000,
      () => false,
      () => alive,
    );
    await vi.advanceTimersByTimeAsync(30_000);
    expect(h.peers).toHaveLength(1);
    alive = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.peers).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(8000);
    expect(h.peers).toHaveLength(2);
    stopFeed();
    viewer.stop();
  });
});
