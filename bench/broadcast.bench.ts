/**
 * A broadcast through the whole server (HTTP, public access by code, the embedded SFU), against a
 * baseline measured in the same run:
 * (a) listeners per core on one broadcast at 320 kbit/s (Higher) stereo: a real Mixroom runs in a
 *     child process and reports its own process.cpuUsage(); a headless wrtc publisher sends a tone
 *     pair through the broadcaster's WHIP; N headless wrtc listeners each get their media token from
 *     the public access by the viewer code, as a signed-out visitor does. Baseline: publisher only.
 * (b) START to first audio: a listener already connected on the public access of a started
 *     broadcast; the broadcaster's publish starts → the listener's first decoded frame with sound.
 * (c) the public page (/public/live/{code}) of a live broadcast in Debian's Chromium: first
 *     contentful paint, the user's click on Play, and the page's own level meter showing sound.
 * Run alone: `node --import tsx bench/broadcast.bench.ts`. BENCH_BROADCAST_LISTENERS="25,50,100"
 * sets (a)'s steps, BENCH_DURATION (s, default 10) each measuring window, BENCH_BROADCAST_STARTS
 * (default 10) and BENCH_BROADCAST_LOADS (default 7) the repeats of (b) and (c).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BroadcastMediaToken } from '@mixroom/contracts';
import {
  accessOf,
  broadcastApi,
  broadcastExchange,
  broadcastHub,
  broadcastRoomOf,
  setCanBroadcast,
  tokenExchange,
} from '../apps/server/test/helpers/broadcast';
import { startClockedServer } from '../apps/server/test/helpers/clocked-server';
import { liveUser } from '../apps/server/test/helpers/live';
import { Listener, TonePublisher } from '../apps/server/test/helpers/rtc-clients';
import type { TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser } from '../e2e/helpers/browser';
import {
  addedListenersCell,
  type Measure,
  measure,
  nextMessage,
  percentile,
  sentCell,
  stopChild,
  window as cpuWindow,
} from './sfu.bench';

const CHILD_FLAG = 'MIXROOM_BROADCAST_BENCH_CHILD';
const BITRATE = 320_000;
const STEPS = (process.env.BENCH_BROADCAST_LISTENERS ?? '25,50,100').split(',').map(Number);
const WINDOW_S = Number(process.env.BENCH_DURATION ?? 10);
const STARTS = Number(process.env.BENCH_BROADCAST_STARTS ?? 10);
const LOADS = Number(process.env.BENCH_BROADCAST_LOADS ?? 7);
const TONES = { leftHz: 440, rightHz: 1000 };
const step = (what: string) => console.error(`[broadcast ${new Date().toISOString().slice(11, 19)}] ${what}`);

interface Ready {
  url: string;
  token: string;
  broadcasterCode: string;
  viewerCode: string;
}

/** The server process: a real Mixroom with one broadcaster at 320 kbit/s; answers "measure". */
async function serveChild(): Promise<void> {
  const server = await startClockedServer();
  const caster = await liveUser(server, 'bench-caster');
  await setCanBroadcast(server, caster.id, true);
  const api = broadcastApi(server, caster);
  await api.room();
  const room = broadcastRoomOf(await api.settings({ title: 'Bench broadcast', bitrate: BITRATE }));
  process.on('message', (message: { type: string }) => {
    if (message.type === 'measure') {
      const cpu = process.cpuUsage();
      const stats = broadcastHub(server).sfu.stats();
      const reply: Measure = {
        cpuMicros: cpu.user + cpu.system,
        systemMicros: cpu.system,
        atMs: performance.now(),
        stats,
      };
      process.send!(reply);
    } else if (message.type === 'exit') {
      void server.close().then(() => process.exit(0));
    }
  });
  const ready: Ready = {
    url: server.url,
    token: caster.token,
    broadcasterCode: room.broadcasterCode,
    viewerCode: room.viewerCode,
  };
  process.send!(ready);
}

const heardAt = (listener: Listener) =>
  [...listener.slots.values()].find((s) => s.firstAudibleAtMs !== undefined)?.firstAudibleAtMs;

/** The calls of the parent go over HTTP only: `url` is all the helpers read of the server. */
function remoteApis(ready: Ready) {
  const server = { url: ready.url } as TestServer;
  const caster = broadcastApi(server, { token: ready.token });
  const visitor = broadcastApi(server, null);
  return {
    caster,
    visitor,
    /** A signed-out visitor's listener: public access by the viewer code, then WHEP with its token. */
    listen: async () => {
      const access = accessOf(await visitor.publicAccess(ready.viewerCode));
      return Listener.start(tokenExchange(server, access.media), { slots: 1 });
    },
    publish: async () => {
      const media = (await caster.mediaToken(ready.broadcasterCode)).body as BroadcastMediaToken;
      return TonePublisher.start(broadcastExchange(server, media.url, media.token), TONES);
    },
    live: () =>
      waitFor(async () => (await visitor.publicView(ready.viewerCode)).body.state === 'live', {
        what: 'the broadcast live',
        timeoutMs: 60_000,
      }),
  };
}

async function listenersPerCore(child: ChildProcess, ready: Ready): Promise<string[]> {
  const remote = remoteApis(ready);
  const listeners: Listener[] = [];
  await remote.caster.start(ready.broadcasterCode);
  const publisher = await remote.publish();
  try {
    await remote.live();
    await waitFor(async () => (await measure(child)).stats.packetsIn > 50, { what: 'the publisher' });
    step(`(a) baseline: publisher only, ${WINDOW_S} s`);
    const baseline = await cpuWindow(child, WINDOW_S);
    const rows: string[] = [];
    let previous = { listeners: 0, cpuPercent: baseline.cpuPercent };
    for (const target of STEPS) {
      while (listeners.length < target) {
        const listener = await remote.listen();
        listeners.push(listener);
        await waitFor(() => heardAt(listener), {
          what: `listener ${listeners.length}'s first audio`,
          timeoutMs: 60_000,
        });
        // Heard: its decoding in this process would only compete with the server for the machine.
        listener.stopListening();
      }
      // Handshakes (DTLS in JavaScript) of the last joins must not count as forwarding.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      step(`(a) ${target} listeners, ${WINDOW_S} s`);
      const loaded = await cpuWindow(child, WINDOW_S);
      const perListener = (loaded.cpuPercent - baseline.cpuPercent) / target;
      rows.push(
        `| ${target} | ${loaded.cpuPercent.toFixed(1)} | ${baseline.cpuPercent.toFixed(1)} | ${perListener.toFixed(2)} | ${perListener > 0 ? Math.floor(100 / perListener) : '∞'} | ${addedListenersCell(previous, target, loaded.cpuPercent)} | ${sentCell(loaded.kbitOutPerSecond / target)} |`,
      );
      previous = { listeners: target, cpuPercent: loaded.cpuPercent };
    }
    return rows;
  } finally {
    for (const listener of listeners) listener.close();
    publisher.close();
    await remote.caster.stop(ready.broadcasterCode);
  }
}

/** (b): each round a started broadcast, a listener connected and waiting, then the publish. */
async function startToFirstAudio(child: ChildProcess, ready: Ready) {
  const remote = remoteApis(ready);
  const fromPublish: number[] = [];
  const fromConnected: number[] = [];
  for (let round = 0; round < STARTS; round++) {
    await waitFor(async () => (await measure(child)).stats.publishers === 0, { what: 'no publisher left' });
    await remote.caster.start(ready.broadcasterCode);
    const listener = await remote.listen();
    let publisher: TonePublisher | undefined;
    try {
      await waitFor(() => listener.pc.connectionState === 'connected', { what: 'the waiting listener connected' });
      const publishAt = performance.now();
      publisher = await remote.publish();
      const connectedAt = performance.now();
      const heard = await waitFor(() => heardAt(listener), { what: 'first audio after START', timeoutMs: 60_000 });
      fromPublish.push(heard - publishAt);
      fromConnected.push(heard - connectedAt);
      step(`(b) round ${round + 1}: ${(heard - publishAt).toFixed(0)} ms`);
    } finally {
      publisher?.close();
      listener.close();
      await remote.caster.stop(ready.broadcasterCode);
    }
  }
  return { fromPublish, fromConnected };
}

/** Marks, on the page's own clock (ms since navigation): FCP, the click on Play, the meter's first sound. */
const PROBE = `(() => {
  const marks = (window.__bench = { fcp: null, click: null, audio: null });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') marks.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  window.addEventListener('click', () => { marks.click ??= performance.now(); }, true);
  const tick = () => {
    const meter = document.querySelector('[data-testid="level-meter"]');
    if (meter && Number(meter.getAttribute('data-level')) > ${-50}) { marks.audio = performance.now(); return; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

interface PageMarks {
  fcp: number;
  click: number;
  audio: number;
}

/** (c): fresh browser contexts (no cache) opening the public page of the live broadcast. */
async function pageToFirstAudio(ready: Ready): Promise<PageMarks[]> {
  const remote = remoteApis(ready);
  await remote.caster.start(ready.broadcasterCode);
  const publisher = await remote.publish();
  const browser = await launchBrowser({ autoplay: true });
  const loads: PageMarks[] = [];
  try {
    await remote.live();
    for (let load = 0; load < LOADS; load++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      try {
        await context.addInitScript(PROBE);
        const page = await context.newPage();
        await page.goto(`${ready.url}/public/live/${ready.viewerCode}`);
        // As a user would: Play as soon as it shows (the page makes its audio path on that click).
        await page.getByRole('button', { name: 'Play' }).click();
        // Functions (sent as source, so self-contained), not strings: the page's CSP forbids eval.
        await page.waitForFunction(
          () => {
            const marks = (window as unknown as { __bench: Record<string, number | null> }).__bench;
            return marks.audio !== null && marks.fcp !== null;
          },
          undefined,
          { timeout: 60_000, polling: 50 },
        );
        const marks = await page.evaluate(() => (window as unknown as { __bench: PageMarks }).__bench);
        loads.push(marks);
        step(`(c) load ${load + 1}: FCP ${marks.fcp.toFixed(0)} ms, first audio ${marks.audio.toFixed(0)} ms`);
      } finally {
        await context.close();
      }
    }
    return loads;
  } finally {
    await browser.close();
    publisher.close();
    await remote.caster.stop(ready.broadcasterCode);
  }
}

/** A table row: label, p50, p95, max (ms). */
const row = (label: string, values: number[]) =>
  `| ${label} | ${percentile(values, 50).toFixed(0)} | ${percentile(values, 95).toFixed(0)} | ${Math.max(...values).toFixed(0)} |`;

export async function benchBroadcast(): Promise<string> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [CHILD_FLAG]: '1' },
  });
  try {
    const ready = await nextMessage<Ready>(child);
    const loadBefore = loadavg()[0]!;
    const rows = await listenersPerCore(child, ready);
    step(`(b) ${STARTS} starts`);
    const starts = await startToFirstAudio(child, ready);
    step(`(c) ${LOADS} page loads`);
    const loads = await pageToFirstAudio(ready);
    const column = (key: keyof PageMarks) => loads.map((marks) => marks[key]);
    const clickToAudio = loads.map((marks) => marks.audio - marks.click);
    return [
      `### Broadcast: listeners at ${BITRATE / 1000} kbit/s stereo through the server (public access by code, ${WINDOW_S} s windows, load ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)})`,
      '',
      '| listeners | server CPU % of a core | baseline (publisher only) % | % per listener | listeners per core | added listeners: % each (per core) | kbit/s sent per listener |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `### START to first audio (${STARTS} starts, a listener already waiting)`,
      '',
      '| from | p50 ms | p95 ms | max ms |',
      '|---|---|---|---|',
      row('publish begins (offer made)', starts.fromPublish),
      row("publisher's WHIP answer applied", starts.fromConnected),
      '',
      `### Public page load to first audio (${LOADS} loads, Chromium, ms since navigation)`,
      '',
      '| mark | p50 ms | p95 ms | max ms |',
      '|---|---|---|---|',
      row('first contentful paint', column('fcp')),
      row('Play clicked (as soon as it shows)', column('click')),
      row('level meter shows sound', column('audio')),
      row('(click → sound)', clickToAudio),
    ].join('\n');
  } finally {
    await stopChild(child);
  }
}

if (process.env[CHILD_FLAG] === '1') {
  await serveChild();
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await benchBroadcast());
  process.exit(0);
}
