// What a publisher and a listener see when their SFU node dies, and when the publisher merely goes
// silent: the evidence for the web client's stall watch (apps/web/src/features/live/stall-watch.ts).
// One Mixroom node on PostgreSQL, a live room with a host publishing a tone and a guest listening
// (libwebrtc through @roamhq/wrtc); both peers' stats are read every 100 ms. Then either the node is
// killed (`kill`, SIGKILL), or the publisher stops sending audio but keeps its connection
// (`silence`), or the publisher leaves (`leave`: its peer closed, its resource deleted with wrtc; the
// listener stays in the room with nobody publishing).
// Printed: when each peer's ICE said 'disconnected', the gaps between bytes arriving on its transport
// and between the server's RTCP reports, before and after the event, and when the stall watch
// would have given the connection up. With `chromium`, both peers are Chromium's (Debian's, headless)
// in one page instead: a publisher of an oscillator, silenced by taking its track off the sender.
//   cd bench && node --import tsx load/failover-signals.ts kill|silence|leave [chromium]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../../apps/server/test/helpers/free-port';
import { exchangeVia, liveApi, liveUser, mediaOf, roomOf } from '../../apps/server/test/helpers/live';
import { Listener, TonePublisher } from '../../apps/server/test/helpers/rtc-clients';
import { spawnServer } from '../../apps/server/test/helpers/spawn-server';
import { createTestDatabase } from '../../apps/server/test/helpers/test-server';
import { waitFor } from '../../apps/server/test/helpers/wait-for';
import { readCounters, StallWatch, type StatsLike } from '../../apps/web/src/features/live/stall-watch';

const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const STEADY_MS = 8000;
const AFTER_MS = 12_000;
const READ_MS = 100;

interface Track {
  name: string;
  pc: { connectionState: string; getStats(): Promise<StatsLike> };
  watch: StallWatch;
  last: { bytes: number; reports: number; bytesAt: number; reportAt: number | null };
  gaps: { bytes: number[]; reports: number[] };
  disconnectedAt?: number;
  stalledAt?: number;
}

function track(name: string, peer: { pc: unknown }): Track {
  return {
    name,
    pc: peer.pc as Track['pc'],
    watch: new StallWatch(),
    last: { bytes: -1, reports: -1, bytesAt: 0, reportAt: null },
    gaps: { bytes: [], reports: [] },
  };
}

async function read(t: Track, now: number): Promise<void> {
  const report = await t.pc.getStats();
  const { bytes, reports } = readCounters(report);
  if (bytes !== t.last.bytes) {
    if (t.last.bytes >= 0) t.gaps.bytes.push(now - t.last.bytesAt);
    t.last.bytes = bytes;
    t.last.bytesAt = now;
  }
  if (reports > t.last.reports) {
    if (t.last.reportAt !== null) t.gaps.reports.push(now - t.last.reportAt);
    if (t.last.reports >= 0) t.last.reportAt = now;
    t.last.reports = reports;
  }
  // As in the client: the watch judges a connected peer only.
  if (t.pc.connectionState === 'connected' && t.watch.read(report, now)) t.stalledAt ??= now;
  if (t.pc.connectionState === 'disconnected' || t.pc.connectionState === 'failed') t.disconnectedAt ??= now;
}

interface PageGrant {
  url: string;
  token: string;
  slotCount?: number;
}

/** Both peers in a Chromium page on the node's origin; their stats read through the page. */
async function chromiumPeers(page: Page, publish: PageGrant, subscribe: PageGrant) {
  // Plain JavaScript: the page must not see the helpers tsx adds to compiled functions.
  await page.evaluate(`(async () => {
    const publish = ${JSON.stringify(publish)};
    const subscribe = ${JSON.stringify(subscribe)};
    const context = new AudioContext();
    await context.resume();
    const oscillator = context.createOscillator();
    const destination = context.createMediaStreamDestination();
    oscillator.connect(destination);
    oscillator.start();
    async function connect(pc, grant) {
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise((resolve) => {
        setTimeout(resolve, 2000);
        pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
      });
      const response = await fetch(new URL(grant.url).pathname, {
        method: 'POST',
        headers: { 'content-type': 'application/sdp', authorization: 'Bearer ' + grant.token },
        body: pc.localDescription.sdp,
      });
      await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
    }
    const pub = new RTCPeerConnection();
    pub.addTransceiver(destination.stream.getAudioTracks()[0], { direction: 'sendonly' });
    await connect(pub, publish);
    const sub = new RTCPeerConnection();
    for (let i = 0; i < (subscribe.slotCount || 1); i++) sub.addTransceiver('audio', { direction: 'recvonly' });
    await connect(sub, subscribe);
    window.peers = { pub, sub };
  })()`);
  const peer = (key: 'pub' | 'sub') => {
    const adapter = {
      connectionState: 'new',
      getStats: async (): Promise<StatsLike> => {
        const read = await page.evaluate<{ state: string; entries: unknown[] }>(`(async () => {
          const pc = window.peers[${JSON.stringify(key)}];
          const entries = [];
          (await pc.getStats()).forEach((entry) => entries.push(entry));
          return { state: pc.connectionState, entries };
        })()`);
        adapter.connectionState = read.state;
        return read.entries as unknown as StatsLike;
      },
    };
    return { pc: adapter };
  };
  return {
    publisher: peer('pub'),
    listener: peer('sub'),
    silence: async () => {
      await page.evaluate('window.peers.pub.getSenders()[0].replaceTrack(null)');
    },
  };
}

const max = (values: number[]) => (values.length ? Math.round(Math.max(...values)) : '-');

async function main(): Promise<void> {
  const scenario = (['silence', 'leave'] as const).find((s) => s === process.argv[2]) ?? 'kill';
  const inChromium = process.argv[3] === 'chromium';
  let browser: Browser | null = null;
  const database = await createTestDatabase(ADMIN_DATABASE_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-failover-signals-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const node = spawnServer({ DATABASE_URL: database.url, PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: url });
  const db = new pg.Client({ connectionString: database.url });
  try {
    await waitFor(async () => (await fetch(`${url}/api/health`).catch(() => null))?.ok, {
      timeoutMs: 120_000,
      what: 'the node',
    });
    await db.connect();
    const server = { url };
    const [host, guest] = [await liveUser(server, 'signals-host'), await liveUser(server, 'signals-guest')];
    // A studio plan (guests allowed), granted as an administrator's grant is stored.
    await db.query(
      "insert into plan_grants (user_id, sku, starts_at) values ($1, 'STUDIO', now() - interval '1 hour')",
      [host.id],
    );
    const { hostCode, guestCode } = roomOf(await liveApi(server, host).rooms());
    await liveApi(server, host).start(hostCode);
    await liveApi(server, guest).join(guestCode);
    const grant = async (user: typeof host, mode: 'publish' | 'subscribe') =>
      mediaOf(await liveApi(server, user).mediaToken(guestCode, mode));
    let peers: {
      publisher: { pc: unknown };
      listener: { pc: unknown };
      silence: () => Promise<void>;
      leave: () => Promise<void>;
      close: () => void;
    };
    if (inChromium) {
      browser = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
      });
      const page = await browser.newPage();
      // The app's own page: its security policy lets scripts call the API (an API answer's does not).
      await page.goto(`${url}/`);
      const publish = await grant(host, 'publish');
      const inPage = await chromiumPeers(page, publish, await grant(guest, 'subscribe'));
      const leave = async () => {
        // Closed without its DELETE (the page kept no Location): the SFU drops it on its own timeout.
        await page.evaluate('window.peers.pub.close()');
      };
      peers = { ...inPage, leave, close: () => undefined };
    } else {
      const publish = await grant(host, 'publish');
      const publisher = await TonePublisher.start(exchangeVia(server, publish), {
        leftHz: 440,
        rightHz: 660,
      });
      const listener = await Listener.start(exchangeVia(server, await grant(guest, 'subscribe')), {
        slots: 2,
        probeHz: [440],
      });
      await waitFor(() => listener.slotHearing(440), { what: 'the tone', timeoutMs: 30_000 });
      peers = {
        publisher,
        listener,
        silence: async () => publisher.silence(),
        leave: async () => {
          await fetch(`${url}${new URL(publish.url).pathname}/${publisher.resourceId}`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${publish.token}` },
          });
          publisher.close();
        },
        close: () => {
          publisher.close();
          listener.close();
        },
      };
    }
    const tracks = [track('publisher', peers.publisher), track('listener', peers.listener)];
    const t0 = performance.now();
    while (performance.now() - t0 < STEADY_MS) {
      await Promise.all(tracks.map((t) => read(t, performance.now())));
      await new Promise((resolve) => setTimeout(resolve, READ_MS));
    }
    const steady = tracks.map((t) => ({ bytes: max(t.gaps.bytes), reports: max(t.gaps.reports) }));
    for (const t of tracks) t.gaps = { bytes: [], reports: [] };
    const eventAt = performance.now();
    if (scenario === 'kill') node.child.kill('SIGKILL');
    else if (scenario === 'silence') await peers.silence();
    else await peers.leave();
    while (performance.now() - eventAt < AFTER_MS) {
      await Promise.all(tracks.map((t) => read(t, performance.now()).catch(() => undefined)));
      await new Promise((resolve) => setTimeout(resolve, READ_MS));
    }
    const since = (at: number | undefined) => (at === undefined ? 'not within 12 s' : `${Math.round(at - eventAt)} ms`);
    console.log(
      `Scenario: ${{ kill: 'the node killed (SIGKILL)', silence: 'the publisher silent', leave: 'the publisher gone' }[scenario]}, peers in ${inChromium ? 'Chromium' : 'wrtc'}`,
    );
    tracks.forEach((t, i) =>
      console.log(
        `- ${t.name}: before, the longest gap between bytes ${steady[i]!.bytes} ms, between reports ${steady[i]!.reports} ms; ` +
          `after, between bytes ${max(t.gaps.bytes)} ms, between reports ${max(t.gaps.reports)} ms; ` +
          `ICE 'disconnected' after ${since(t.disconnectedAt)}; the stall watch (limit ${Math.round(t.watch.limitMs ?? 0)} ms) gives up after ${since(t.stalledAt)}`,
      ),
    );
    peers.close();
  } finally {
    await browser?.close();
    node.child.kill('SIGKILL');
    await node.exited;
    await db.end().catch(() => undefined);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
