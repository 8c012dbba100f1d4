/**
 * Glass-to-glass latency of a click through the embedded SFU, against direct peer-to-peer, in the
 * same Chromium (Debian's, headless). One page, one AudioContext: a gain-gated oscillator makes a
 * 20 ms click every CLICK_MS into a MediaStreamDestination; the track goes out over
 * (a) two RTCPeerConnections of the same page connected to each other, and
 * (b) WHIP into the embedded SFU (platform/rtc's WeriftSfu in a process of its own, as on a server
 *     node, so that the bench's own driving of the browser does not delay its forwarding) and WHEP back;
 * the received track comes back into the same AudioContext, where an AudioWorklet finds each click's
 * first sample over the threshold. Both times are the context's own clock (the click's scheduled
 * start, the worklet's currentTime plus the sample's offset), so the figure covers encode, network,
 * SFU, jitter buffer, decode and Web Audio's input, not the page's timers.
 * Playout runs in 10 ms steps, so one connection's figure depends on where its packets land
 * against that step: a path 1 ms slower can read 10 ms slower on one connection and equal on the
 * next. The clicks are therefore spread over BENCH_LATENCY_ROUNDS rounds (default 4), each a fresh
 * page (a new AudioContext, new connections, a new step phase) measuring both paths, in alternating
 * order so that neither always goes first; the figures pool every round's clicks.
 * Run alone: `node --import tsx bench/live-latency.bench.ts`; BENCH_LATENCY_CLICKS (default 60 per
 * path, over all rounds).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { httpExchange } from '../apps/server/test/helpers/rtc-whip-server';
import { startSfuChild, stopChild } from './sfu.bench';

const CLICKS = Number(process.env.BENCH_LATENCY_CLICKS ?? 60);
const ROUNDS = Math.max(1, Number(process.env.BENCH_LATENCY_ROUNDS ?? 4));
const CLICK_MS = 400;
/** Clicks let through before measuring: the jitter buffers settle. */
const WARMUP = 5;
const step = (what: string) => console.error(`[latency ${new Date().toISOString().slice(11, 19)}] ${what}`);

/** The detector: the first sample over the threshold after a quiet spell, on the context's clock. */
const DETECTOR = `
class ClickDetector extends AudioWorkletProcessor {
  constructor() { super(); this.quietUntil = 0; }
  process(inputs) {
    const input = inputs[0];
    if (!input || input.length === 0) return true;
    const channel = input[0];
    for (let i = 0; i < channel.length; i++) {
      const t = currentTime + i / sampleRate;
      if (Math.abs(channel[i]) > 0.05 && t >= this.quietUntil) {
        this.port.postMessage(t);
        this.quietUntil = t + 0.2;
      }
    }
    return true;
  }
}
registerProcessor('click-detector', ClickDetector);
`;

/** Sets up the page's clicks and ears; `connect(kind)` wires one path and answers when it is live. */
const SETUP = `async (detector) => {
  const ctx = new AudioContext({ sampleRate: 48000, latencyHint: 'interactive' });
  await ctx.audioWorklet.addModule(URL.createObjectURL(new Blob([detector], { type: 'text/javascript' })));
  const osc = ctx.createOscillator();
  osc.frequency.value = 1000;
  const gate = ctx.createGain();
  gate.gain.value = 0;
  const destination = ctx.createMediaStreamDestination();
  osc.connect(gate).connect(destination);
  osc.start();
  const ear = new AudioWorkletNode(ctx, 'click-detector');
  ear.connect(ctx.destination);
  const heard = [];
  ear.port.onmessage = ({ data }) => heard.push(data);
  const waitIce = (pc) => new Promise((done) => {
    if (pc.iceGatheringState === 'complete') return done();
    pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && done();
  });
  const peers = [];
  const sources = [];
  const listen = (track) => {
    const stream = new MediaStream([track]);
    const element = new Audio(); element.srcObject = stream; element.muted = true; element.play().catch(() => {});
    const source = ctx.createMediaStreamSource(stream);
    source.connect(ear);
    sources.push({ source, element });
  };
  window.bench = {
    ctx,
    async direct() {
      const a = new RTCPeerConnection();
      const b = new RTCPeerConnection();
      peers.push(a, b);
      a.onicecandidate = (e) => e.candidate && b.addIceCandidate(e.candidate);
      b.onicecandidate = (e) => e.candidate && a.addIceCandidate(e.candidate);
      b.ontrack = ({ track }) => listen(track);
      a.addTransceiver(destination.stream.getAudioTracks()[0], { direction: 'sendonly' });
      await a.setLocalDescription(await a.createOffer());
      await b.setRemoteDescription(a.localDescription);
      await b.setLocalDescription(await b.createAnswer());
      await a.setRemoteDescription(b.localDescription);
    },
    async sfu() {
      const pub = new RTCPeerConnection();
      peers.push(pub);
      pub.addTransceiver(destination.stream.getAudioTracks()[0], { direction: 'sendonly' });
      await pub.setLocalDescription(await pub.createOffer());
      await waitIce(pub);
      await pub.setRemoteDescription({ type: 'answer', sdp: await window.whipExchange(pub.localDescription.sdp) });
      const sub = new RTCPeerConnection();
      peers.push(sub);
      sub.addTransceiver('audio', { direction: 'recvonly' });
      sub.ontrack = ({ track }) => listen(track);
      await sub.setLocalDescription(await sub.createOffer());
      await waitIce(sub);
      await sub.setRemoteDescription({ type: 'answer', sdp: await window.whepExchange(sub.localDescription.sdp) });
    },
    /** The receiving side's mean jitter-buffer delay (ms), from its inbound-rtp stats. */
    async jitterMs() {
      let delay = 0;
      let emitted = 0;
      for (const pc of peers) (await pc.getStats()).forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === 'audio') { delay += s.jitterBufferDelay ?? 0; emitted += s.jitterBufferEmittedCount ?? 0; }
      });
      return emitted ? (delay / emitted) * 1000 : NaN;
    },
    stop() {
      for (const { source, element } of sources.splice(0)) { source.disconnect(); element.srcObject = null; }
      for (const pc of peers.splice(0)) pc.close();
      heard.length = 0;
    },
    /** One click at a scheduled time; answers its start on the context's clock. */
    click() {
      const at = ctx.currentTime + 0.05;
      gate.gain.setValueAtTime(0.5, at);
      gate.gain.setValueAtTime(0, at + 0.02);
      return at;
    },
    heard: () => heard.slice(),
  };
  await ctx.resume();
}`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

type Path = 'direct' | 'sfu';

/** Clicks until one is heard (the path is live), then CLICKS more; answers each one's latency (ms). */
async function measurePath(page: Page, path: Path, clicks: number): Promise<{ latencies: number[]; jitterMs: number }> {
  await page.evaluate(`window.bench.${path}()`);
  const sent: number[] = [];
  const deadline = Date.now() + 30_000;
  // Until the first click comes back.
  while ((await page.evaluate<number[]>('window.bench.heard()')).length === 0) {
    if (Date.now() > deadline) throw new Error(`no click came back over ${path}`);
    await page.evaluate('window.bench.click()');
    await new Promise((resolve) => setTimeout(resolve, CLICK_MS));
  }
  // Drop what came back so far: the detector's list restarts from here.
  const offset = (await page.evaluate<number[]>('window.bench.heard()')).length;
  for (let i = 0; i < clicks + WARMUP; i++) {
    sent.push(await page.evaluate<number>('window.bench.click()'));
    await new Promise((resolve) => setTimeout(resolve, CLICK_MS));
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const heard = (await page.evaluate<number[]>('window.bench.heard()')).slice(offset);
  const jitterMs = await page.evaluate<number>('window.bench.jitterMs()');
  await page.evaluate('window.bench.stop()');
  // Each click is matched with the first detection after it and before the next click.
  const latencies: number[] = [];
  sent.forEach((at, i) => {
    if (i < WARMUP) return;
    const next = sent[i + 1] ?? Infinity;
    const hit = heard.find((t) => t >= at && t < next);
    if (hit !== undefined) latencies.push((hit - at) * 1000);
  });
  if (latencies.length < clicks * 0.9) throw new Error(`${path}: only ${latencies.length} of ${clicks} clicks heard`);
  return { latencies, jitterMs };
}

export async function benchLiveLatency(): Promise<string> {
  const { child, url } = await startSfuChild();
  // A blank page on loopback: a secure context, which AudioWorklet needs (about:blank is not one).
  const blank = createServer((_, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>latency</title>'),
  );
  await new Promise<void>((resolve) => blank.listen(0, '127.0.0.1', resolve));
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required', '--no-first-run'],
    });
    const blankUrl = `http://127.0.0.1:${(blank.address() as AddressInfo).port}/`;
    const pooled: Record<Path, { latencies: number[]; jitterMs: number[]; p50s: number[] }> = {
      direct: { latencies: [], jitterMs: [], p50s: [] },
      sfu: { latencies: [], jitterMs: [], p50s: [] },
    };
    const perRound = Math.ceil(CLICKS / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      const page = await browser.newPage();
      await page.goto(blankUrl);
      const resources: string[] = [];
      const exchange = (endpoint: string) => async (offer: string) => {
        const { answerSdp, resourceId } = await httpExchange(endpoint)(offer);
        resources.push(resourceId);
        return answerSdp;
      };
      await page.exposeFunction('whipExchange', exchange(`${url}/whip/bench/clicker?bitrate=128000`));
      await page.exposeFunction('whepExchange', exchange(`${url}/whep/bench/ear`));
      await page.evaluate(`(${SETUP})(${JSON.stringify(DETECTOR)})`);
      const order: Path[] = round % 2 === 0 ? ['direct', 'sfu'] : ['sfu', 'direct'];
      for (const path of order) {
        step(
          `round ${round + 1} of ${ROUNDS}: ${path === 'sfu' ? 'WHIP → SFU → WHEP' : 'direct peer-to-peer'}, ${perRound} clicks`,
        );
        const measured = await measurePath(page, path, perRound);
        pooled[path].latencies.push(...measured.latencies);
        pooled[path].jitterMs.push(measured.jitterMs);
        pooled[path].p50s.push(percentile(measured.latencies, 50));
      }
      await page.close();
      // The page's peers are gone: so are their SFU resources, before the next round's.
      for (const resource of resources) await fetch(resource, { method: 'DELETE' });
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const direct = { latencies: pooled.direct.latencies, jitterMs: mean(pooled.direct.jitterMs) };
    const viaSfu = { latencies: pooled.sfu.latencies, jitterMs: mean(pooled.sfu.jitterMs) };
    const rounds = (path: Path) => pooled[path].p50s.map((v) => v.toFixed(1)).join(' / ');
    const row = (name: string, { latencies: v, jitterMs }: { latencies: number[]; jitterMs: number }) =>
      `| ${name} | ${v.length} | ${percentile(v, 50).toFixed(1)} | ${percentile(v, 95).toFixed(1)} | ${Math.min(...v).toFixed(1)} | ${Math.max(...v).toFixed(1)} | ${jitterMs.toFixed(1)} |`;
    const ratio = (p: number) => (percentile(viaSfu.latencies, p) / percentile(direct.latencies, p)).toFixed(2);
    return [
      `### Glass-to-glass latency of a click, Chromium → Chromium (${ROUNDS} rounds of ${perRound} clicks a path, each round a fresh page, load ${loadavg()[0]!.toFixed(2)})`,
      '',
      '| path | clicks heard | p50 ms | p95 ms | min ms | max ms | receiver jitter buffer, mean ms |',
      '|---|---|---|---|---|---|---|',
      row('direct peer-to-peer (two RTCPeerConnections)', direct),
      row('WHIP → embedded SFU → WHEP', viaSfu),
      '',
      `Each round's p50, direct: ${rounds('direct')} ms; through the SFU: ${rounds('sfu')} ms.`,
      '',
      `SFU ÷ direct: p50 ${ratio(50)}, p95 ${ratio(95)}, mean ${(mean(viaSfu.latencies) / mean(direct.latencies)).toFixed(2)} (goal ≤ 1.1)`,
    ].join('\n');
  } finally {
    await browser?.close();
    await stopChild(child);
    blank.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await benchLiveLatency());
  process.exit(0);
}
