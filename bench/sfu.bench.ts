/**
 * The embedded SFU (werift) under listeners, against a baseline measured in the same run:
 * (a) listeners per core at 320 kbit/s stereo: the SFU runs in a child process (the embedded SFU
 *     behind a bare WHIP/WHEP endpoint) and reports its own process.cpuUsage(); one wrtc publisher
 *     sends a stereo tone pair, N headless wrtc WHEP listeners decode it in this process. The
 *     baseline is the same child with the publisher and no listener; the cost per listener is
 *     the difference, extrapolated to one core.
 * (b) a listener's join-to-first-audio: from creating its peer connection to the first decoded
 *     frame with sound, while the publisher is live (WHEP POST → 201 timed on its own).
 * Run alone: `node --import tsx bench/sfu.bench.ts`. BENCH_SFU_LISTENERS="10,25,50" sets the steps,
 * BENCH_DURATION (s, default 10) each measuring window.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { systemClock } from '../apps/server/src/platform/clock/clock';
import type { SfuStats } from '../apps/server/src/platform/rtc/sfu-driver';
import { WeriftSfu } from '../apps/server/src/platform/rtc/werift-sfu';
import { type Exchange, Listener, TonePublisher } from '../apps/server/test/helpers/rtc-clients';
import { httpExchange, startWhipServer } from '../apps/server/test/helpers/rtc-whip-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';

const CHILD_FLAG = 'MIXROOM_SFU_BENCH_CHILD';
const BITRATE = 320_000;
const STEPS = (process.env.BENCH_SFU_LISTENERS ?? '10,25,50').split(',').map(Number);
const WINDOW_S = Number(process.env.BENCH_DURATION ?? 10);
const step = (what: string) => console.error(`[sfu ${new Date().toISOString().slice(11, 19)}] ${what}`);

export interface Measure {
  cpuMicros: number;
  /** The kernel's part of cpuMicros (sending a datagram is mostly the kernel's work). */
  systemMicros: number;
  atMs: number;
  stats: SfuStats;
}

/** The SFU process: serves WHIP/WHEP and answers "measure" with its CPU time and counters. */
async function serveChild(): Promise<void> {
  const sfu = new WeriftSfu({ clock: systemClock, slotCount: 8 });
  const server = await startWhipServer(sfu);
  process.on('message', (message: { type: string }) => {
    if (message.type === 'measure') {
      const cpu = process.cpuUsage();
      process.send!({
        cpuMicros: cpu.user + cpu.system,
        systemMicros: cpu.system,
        atMs: performance.now(),
        stats: sfu.stats(),
      });
    } else if (message.type === 'exit') {
      void sfu
        .close()
        .then(() => server.close())
        .then(() => process.exit(0));
    }
  });
  process.send!({ url: server.url });
}

export function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve) => child.once('message', (message) => resolve(message as T)));
}

export async function measure(child: ChildProcess): Promise<Measure> {
  const reply = nextMessage<Measure>(child);
  child.send({ type: 'measure' });
  return reply;
}

/** CPU share of one core the child used over the window, and what its SFU sent per second. */
export async function window(
  child: ChildProcess,
  seconds = WINDOW_S,
): Promise<{ cpuPercent: number; systemPercent: number; kbitOutPerSecond: number }> {
  const before = await measure(child);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const after = await measure(child);
  const elapsedMs = after.atMs - before.atMs;
  return {
    cpuPercent: ((after.cpuMicros - before.cpuMicros) / 1000 / elapsedMs) * 100,
    systemPercent: ((after.systemMicros - before.systemMicros) / 1000 / elapsedMs) * 100,
    kbitOutPerSecond: ((after.stats.bytesOut - before.stats.bytesOut) * 8) / elapsedMs,
  };
}

/**
 * The cost of the listeners added since the previous step (the first step: since the baseline),
 * each, and how many such listeners one core carries: what a listener costs once the fixed part
 * (the first listeners' timers, JIT, buffers) is paid. Cell text for the benches' tables.
 */
export function addedListenersCell(
  previous: { listeners: number; cpuPercent: number },
  listeners: number,
  cpuPercent: number,
): string {
  const each = (cpuPercent - previous.cpuPercent) / (listeners - previous.listeners);
  return `${each.toFixed(2)} (${each > 0 ? Math.floor(100 / each) : '∞'})`;
}

/**
 * What the SFU sent per listener; under 95 % of the stream's rate the bench's own process (the
 * publisher's real-time feed and the listeners' decoders) fell behind, so the SFU had less to send
 * and the row's CPU says nothing about capacity.
 */
export function sentCell(kbitPerListener: number): string {
  const text = kbitPerListener.toFixed(0);
  return kbitPerListener < 0.95 * (BITRATE / 1000)
    ? `${text} — the bench's clients fell behind: not a valid row`
    : text;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * The embedded SFU in a process of its own behind the bare WHIP/WHEP endpoint (rtc-whip-server),
 * as a server node runs it: what it costs and when it forwards is not mixed with the bench's own
 * clients. Answers "measure" (CPU time and counters) and "exit".
 */
export async function startSfuChild(): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [CHILD_FLAG]: '1' },
  });
  const { url } = await nextMessage<{ url: string }>(child);
  return { child, url };
}

export async function benchSfu(): Promise<string> {
  const { child, url } = await startSfuChild();
  const listeners: Listener[] = [];
  let publisher: TonePublisher | undefined;
  try {
    publisher = await TonePublisher.start(httpExchange(`${url}/whip/bench/host?bitrate=${BITRATE}`), {
      leftHz: 440,
      rightHz: 1000,
    });
    await waitFor(async () => (await measure(child)).stats.packetsIn > 50, { what: 'the publisher' });
    step(`baseline: publisher only, ${WINDOW_S} s`);
    const baseline = await window(child);

    const joins: number[] = [];
    const answers: number[] = [];
    const rows: string[] = [];
    let previous = { listeners: 0, cpuPercent: baseline.cpuPercent };
    for (const target of STEPS) {
      while (listeners.length < target) {
        const post = httpExchange(`${url}/whep/bench/listener-${listeners.length}`);
        const timed: Exchange = async (offer) => {
          const start = performance.now();
          const answer = await post(offer);
          answers.push(performance.now() - start);
          return answer;
        };
        const listener = await Listener.start(timed, { slots: 2 });
        listeners.push(listener);
        const slotHeard = () => [...listener.slots.values()].find((s) => s.firstAudibleAtMs !== undefined);
        await waitFor(slotHeard, { what: `listener ${listeners.length}'s first audio` });
        joins.push(slotHeard()!.firstAudibleAtMs! - listener.startedAtMs);
        // Heard: its decoding in this process would only compete with the SFU for the machine.
        listener.stopListening();
      }
      // Handshakes (DTLS in JavaScript) of the last joins must not count as forwarding.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      step(`${target} listeners, ${WINDOW_S} s`);
      const loaded = await window(child);
      const perListener = (loaded.cpuPercent - baseline.cpuPercent) / target;
      rows.push(
        `| ${target} | ${loaded.cpuPercent.toFixed(1)} (kernel ${loaded.systemPercent.toFixed(1)}) | ${baseline.cpuPercent.toFixed(1)} | ${perListener.toFixed(2)} | ${perListener > 0 ? Math.floor(100 / perListener) : '∞'} | ${addedListenersCell(previous, target, loaded.cpuPercent)} | ${sentCell(loaded.kbitOutPerSecond / target)} |`,
      );
      previous = { listeners: target, cpuPercent: loaded.cpuPercent };
    }
    return [
      `### Embedded SFU: listeners at ${BITRATE / 1000} kbit/s stereo (one publisher, wrtc listeners, ${WINDOW_S} s windows, load ${loadavg()[0]!.toFixed(2)})`,
      '',
      '| listeners | SFU CPU % of a core (of it, kernel) | baseline (publisher only) % | % per listener | listeners per core | added listeners: % each (per core) | kbit/s sent per listener |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `### Join to first audio (${joins.length} listeners joining a live room)`,
      '',
      '| measure | p50 ms | p95 ms | max ms |',
      '|---|---|---|---|',
      `| WHEP POST → 201 answer | ${percentile(answers, 50).toFixed(0)} | ${percentile(answers, 95).toFixed(0)} | ${Math.max(...answers).toFixed(0)} |`,
      `| new peer → first decoded sound | ${percentile(joins, 50).toFixed(0)} | ${percentile(joins, 95).toFixed(0)} | ${Math.max(...joins).toFixed(0)} |`,
    ].join('\n');
  } finally {
    for (const listener of listeners) listener.close();
    publisher?.close();
    await stopChild(child);
  }
}

/** Asks the measured child to close what it serves and waits until it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'exit' });
  await exited;
}

if (process.env[CHILD_FLAG] === '1') {
  await serveChild();
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await benchSfu());
  process.exit(0);
}
