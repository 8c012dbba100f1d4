/**
 * Lossless mode end to end through the embedded SFU, at 0 % and 2 % datagram loss (the SFU's
 * sockets drop that share both ways, once connected: `DatagramLoss`). A headless libwebrtc publisher
 * (@roamhq/wrtc) sends a known 24-bit stereo signal as 10 ms PCM frames, in real time, on its data
 * channel beside its Opus track; a headless listener gets the relayed channel. Each arrival is fed,
 * on its own arrival time, into the listener's jitter buffer (the worklet's `LosslessJitter`, the
 * same code the page runs), which a simulated audio clock pulls 128 samples at a time.
 * Figures per condition: transport latency (send → arrival) p50/p99/max; the jitter buffer's mean
 * depth while playing; end to end = one frame of framing (10 ms) + transport p50 + mean depth;
 * dropouts (the buffer ran dry, or a frame was missing) counted over the run and per hour; whether
 * every frame arrived bit-identical.
 * Run alone: `node --import tsx bench/live-lossless.bench.ts`; BENCH_DURATION (s, default 60) each.
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { LOSSLESS_FRAME_LENGTH, LOSSLESS_SAMPLE_RATE, LOSSLESS_TARGET_MS } from '@mixroom/shared';
import { systemClock } from '../apps/server/src/platform/clock/clock';
import { DatagramLoss } from '../apps/server/src/platform/rtc/datagram-loss';
import { WeriftSfu } from '../apps/server/src/platform/rtc/werift-sfu';
import {
  decodeMessages,
  identicalToSent,
  LosslessSender,
  type ReceivedFrame,
} from '../apps/server/test/helpers/lossless-signal';
import { type Exchange, Listener, TonePublisher } from '../apps/server/test/helpers/rtc-clients';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { LosslessJitter } from '../apps/web/src/features/live/audio/lossless-processors.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 60);
const BLOCK = 128;
const step = (what: string) => console.error(`[lossless ${new Date().toISOString().slice(11, 19)}] ${what}`);

interface Figures {
  lossPercent: number;
  dropped: number;
  datagrams: number;
  frames: number;
  identical: boolean;
  p50: number;
  p99: number;
  max: number;
  depthMs: number;
  endToEndMs: number;
  dropouts: number;
  perHour: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** Plays the arrivals through the jitter buffer on a simulated audio clock starting at the first. */
function playOut(received: ReceivedFrame[]): { depthMs: number; dropouts: number } {
  const jitter = new LosslessJitter(LOSSLESS_SAMPLE_RATE, LOSSLESS_TARGET_MS);
  const blockMs = (BLOCK / LOSSLESS_SAMPLE_RATE) * 1000;
  const left = new Float32Array(BLOCK);
  const right = new Float32Array(BLOCK);
  let next = 0;
  let depthSum = 0;
  let depthCount = 0;
  const start = received[0]!.atMs;
  const end = received.at(-1)!.atMs;
  for (let clock = start; clock <= end; clock += blockMs) {
    while (next < received.length && received[next]!.atMs <= clock) {
      const { frame } = received[next]!;
      const toFloat = (samples: Int32Array) => Float32Array.from(samples, (v) => v / 8_388_608);
      jitter.push(frame.sequence, toFloat(frame.channels[0]!), toFloat(frame.channels[1]!));
      next += 1;
    }
    jitter.pull(left, right);
    const stats = jitter.stats();
    if (stats.playing) {
      depthSum += stats.depthMs;
      depthCount += 1;
    }
  }
  return { depthMs: depthCount ? depthSum / depthCount : NaN, dropouts: jitter.stats().dropouts };
}

async function measure(lossRate: number): Promise<Figures> {
  const loss = new DatagramLoss(lossRate);
  const sfu = new WeriftSfu({ clock: systemClock, slotCount: 2, datagramLoss: loss });
  const publish: Exchange = (offer) =>
    sfu.publish('bench', 'host', offer, { maxAverageBitrate: 320_000, lossless: true });
  const subscribe: Exchange = (offer) => sfu.subscribe('bench', 'guest', offer);
  const pub = await TonePublisher.start(publish, { leftHz: 440, rightHz: 440 }, { dataChannel: true });
  const ear = await Listener.start(subscribe, { slots: 2, dataChannel: true });
  const sender = new LosslessSender(pub.channel!);
  try {
    await waitFor(() => pub.channel!.readyState === 'open', { what: 'the channel' });
    sender.start();
    await waitFor(() => ear.messages.length > 0, { what: 'the relay' });
    const first = decodeMessages(ear.messages)[0]!.frame.sequence;
    step(`${lossRate * 100} % loss: measuring ${DURATION_S} s`);
    const frames = Math.round((DURATION_S * LOSSLESS_SAMPLE_RATE) / LOSSLESS_FRAME_LENGTH);
    await waitFor(() => sender.sent >= first + frames, { what: 'the run', timeoutMs: DURATION_S * 3000 });
    sender.stop();
    const last = sender.sent - 1;
    await waitFor(() => decodeMessages(ear.messages).at(-1)?.frame.sequence === last, { what: 'the last frame' });
    const received = decodeMessages(ear.messages);
    const latencies = received.map((r) => r.atMs - sender.sentAtMs.get(r.frame.sequence)!).sort((a, b) => a - b);
    const { depthMs, dropouts } = playOut(received);
    const seconds = (received.length * LOSSLESS_FRAME_LENGTH) / LOSSLESS_SAMPLE_RATE;
    const frameMs = (LOSSLESS_FRAME_LENGTH / LOSSLESS_SAMPLE_RATE) * 1000;
    const contiguous = received.every((r, i) => r.frame.sequence === first + i) && received.length === last - first + 1;
    return {
      lossPercent: lossRate * 100,
      dropped: loss.dropped,
      datagrams: loss.dropped + loss.passed,
      frames: received.length,
      identical: contiguous && received.every((r) => identicalToSent(r.frame)),
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: latencies.at(-1)!,
      depthMs,
      endToEndMs: frameMs + percentile(latencies, 0.5) + depthMs,
      dropouts,
      perHour: (dropouts / seconds) * 3600,
    };
  } finally {
    sender.stop();
    pub.close();
    ear.close();
    await sfu.close();
  }
}

export async function benchLiveLossless(): Promise<string> {
  const rows: Figures[] = [];
  for (const rate of [0, 0.02]) rows.push(await measure(rate));
  const [clean, lossy] = rows as [Figures, Figures];
  const f = (x: number) => x.toFixed(1);
  return [
    `### Lossless mode end to end (${DURATION_S} s per condition, jitter target ${LOSSLESS_TARGET_MS} ms, load ${loadavg()[0]!.toFixed(1)})`,
    '',
    '| loss | datagrams dropped | frames | bit-identical, none missing | transport p50 / p99 / max ms | buffer depth ms | end to end ms | dropouts | per hour |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.lossPercent} % | ${r.dropped} of ${r.datagrams} | ${r.frames} | ${r.identical ? 'yes' : 'NO'} | ${f(r.p50)} / ${f(r.p99)} / ${f(r.max)} | ${f(r.depthMs)} | ${f(r.endToEndMs)} | ${r.dropouts} | ${Math.round(r.perHour)} |`,
    ),
    '',
    `2 % vs 0 %: end to end ×${(lossy.endToEndMs / clean.endToEndMs).toFixed(2)}, transport p99 ×${(lossy.p99 / clean.p99).toFixed(2)}.`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await benchLiveLossless());
  process.exit(0);
}
