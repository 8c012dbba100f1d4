/**
 * A/B compare on two long versions (60 minutes by default, BENCH_COMPARE_MINUTES to change): A is
 * a 440 Hz tone, B a 1 kHz tone, so what is heard tells which side plays. The switch is timed in
 * the audio itself: key press → the first 256-sample block where B dominates, plus the output
 * latency the context reports. Baseline in the same run: switching by loading B into one media
 * element at the same time (what a player without A/B does), key press → `playing`. Also the
 * "what changed" lane of the pair: from picking B to the lane drawn, and the server process's
 * memory meanwhile (both files are streamed through ffmpeg, never held whole).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { generateAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, signInAt } from '../e2e/helpers/browser';

const SWITCHES = 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const max = (values: number[]) => Math.max(...values);

async function heapMb(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await session.send('Runtime.getHeapUsage')) as { usedSize: number };
  await session.detach();
  return usedSize / 1e6;
}

/**
 * Listens to the review's output in the audio thread (an AudioWorklet): over the last 512 samples,
 * the level of each tone (Goertzel) and the RMS of each 128-sample block. Reports the render time
 * at which the other tone first dominates after the key press, and the lowest block RMS from the
 * press to then against the level before it (a gap would read far below).
 */
const TAP = `
class SwitchTap extends AudioWorkletProcessor {
  constructor() {
    super();
    this.window = new Float32Array(512);
    this.filled = 0;
    this.armed = null;
    this.steady = 0;
    this.lowest = Infinity;
    this.port.onmessage = (event) => { this.armed = event.data; this.lowest = Infinity; };
  }
  level(hz) {
    const k = 2 * Math.cos((2 * Math.PI * hz) / sampleRate);
    let s1 = 0, s2 = 0;
    for (let i = 0; i < this.window.length; i++) { const s0 = this.window[i] + k * s1 - s2; s2 = s1; s1 = s0; }
    return s1 * s1 + s2 * s2 - k * s1 * s2;
  }
  process(inputs) {
    const block = inputs[0] && inputs[0][0];
    if (!block) return true;
    this.window.copyWithin(0, block.length);
    this.window.set(block, this.window.length - block.length);
    let sum = 0;
    for (let i = 0; i < block.length; i++) sum += block[i] * block[i];
    const rms = Math.sqrt(sum / block.length);
    const armed = this.armed;
    if (!armed || currentTime < armed.pressedAt) { this.steady = this.steady * 0.95 + rms * 0.05; return true; }
    this.lowest = Math.min(this.lowest, rms);
    if (this.level(armed.target) > 4 * this.level(armed.other)) {
      this.port.postMessage({ at: currentTime, dipDb: 20 * Math.log10(this.lowest / this.steady) });
      this.armed = null;
    }
    return true;
  }
}
registerProcessor('switch-tap', SwitchTap);
`;

interface Tapped {
  graphMs: number;
  outputLatencyMs: number;
  dipDb: number;
}

async function timedSwitch(page: Page): Promise<Tapped> {
  return page.evaluate(
    (code) =>
      new Promise<Tapped>((resolve, reject) => {
        const w = window as unknown as {
          __mixroomCompare: { output: AudioNode; getState(): { active: 'A' | 'B' } };
          __tap?: AudioWorkletNode;
        };
        const mix = w.__mixroomCompare;
        const context = mix.output.context as AudioContext;
        const ready = w.__tap
          ? Promise.resolve(w.__tap)
          : context.audioWorklet
              .addModule(URL.createObjectURL(new Blob([code], { type: 'application/javascript' })))
              .then(() => {
                const tap = new AudioWorkletNode(context, 'switch-tap');
                mix.output.connect(tap);
                w.__tap = tap;
                return tap;
              });
        void ready.then((tap) => {
          const target = mix.getState().active === 'A' ? 1000 : 440;
          const pressedAt = context.currentTime;
          tap.port.onmessage = (event: MessageEvent<{ at: number; dipDb: number }>) =>
            resolve({
              graphMs: (event.data.at - pressedAt) * 1000,
              outputLatencyMs: (context.outputLatency || context.baseLatency || 0) * 1000,
              dipDb: event.data.dipDb,
            });
          tap.port.postMessage({ target, other: target === 1000 ? 440 : 1000, pressedAt });
          window.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', bubbles: true }));
        }, reject);
      }),
    TAP,
  );
}

/** The naive switch: one media element given B's URL at A's time; key press → `playing`. */
async function reloadSwitch(page: Page, url: string): Promise<number> {
  return page.evaluate(async (src) => {
    const player = (window as unknown as { __mixroomPlayer: { media: HTMLMediaElement } }).__mixroomPlayer;
    const at = player.media.currentTime;
    const audio = new Audio();
    audio.muted = true;
    const start = performance.now();
    audio.src = src;
    await new Promise((resolve) => audio.addEventListener('loadedmetadata', resolve, { once: true }));
    audio.currentTime = at;
    const playing = new Promise<number>((resolve) =>
      audio.addEventListener('playing', () => resolve(performance.now()), { once: true }),
    );
    await audio.play();
    const elapsed = (await playing) - start;
    audio.pause();
    audio.removeAttribute('src');
    audio.load();
    return elapsed;
  }, url);
}

export async function benchCompare(): Promise<string> {
  const minutes = Number(process.env.BENCH_COMPARE_MINUTES ?? 60);
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-bench-compare-'));
  const tone = (name: string, hz: number) =>
    generateAudio(join(dir, name), `sine=frequency=${hz}:sample_rate=48000:duration=${minutes * 60}`, [
      '-af',
      'volume=0.3',
      '-ac',
      '2',
    ]);
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const ana = { email: 'ana@compare.example.com', password: 'ana-password-1', displayName: 'Ana' };
    const api = storageClient(server.url, (await signInThroughOidc(server.url, ana)).access_token);
    const { ticket } = await api.upload(tone('Master A.wav', 440), null);
    await api.addVersion(ticket.project.id, tone('Master B.wav', 1000), 'B');
    const versions = await waitFor(
      async () => {
        const { versions } = await api.project(ticket.project.id);
        return versions.length === 2 && versions.every((v) => v.status === 'ready') ? versions : null;
      },
      { what: 'processing', timeoutMs: 1_200_000, intervalMs: 1000 },
    );
    const b = versions.find((v) => v.number === 2)!;
    // The app's CSP allows no blob: scripts; the listening worklet is the benchmark's, not the app's.
    const page = await (
      await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true })
    ).newPage();
    await signInAt(page, server.url, `/version/${ticket.project.id}/1`, ana);
    await page.waitForFunction(() => performance.getEntriesByName('mixroom:waveform-drawn').length > 0, null, {
      timeout: 60_000,
    });
    const aloneHeap = await heapMb(page);
    const rssBefore = process.memoryUsage().rss / 1e6;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss / 1e6)), 100);
    const picked = performance.now();
    await page.getByRole('textbox', { name: 'Compare with' }).click();
    await page.getByRole('option', { name: /^B: v2/ }).click();
    await page.getByTestId('ab-toggle').getByText('B · v2').waitFor({ timeout: 60_000 });
    // The server process runs in this one: its resident memory while the lane is computed.
    await page.locator('[data-testid="difference-lane"][data-status="ready"]').waitFor({ timeout: 1_200_000 });
    const laneSeconds = (performance.now() - picked) / 1000;
    clearInterval(sampler);
    const regions = await page.getByTestId('changed-region').count();
    await page.evaluate(
      (seconds) => (window as unknown as { __mixroomPlayer: { seek(t: number): void } }).__mixroomPlayer.seek(seconds),
      minutes * 30,
    );
    await page.getByTestId('play-pause').click();
    await page.getByRole('heading').first().click();
    // tsx names the helpers declared inside evaluated functions through a `__name` it defines in Node only.
    await page.evaluate('globalThis.__name = (fn) => fn');
    const switches: Tapped[] = [];
    for (let run = 0; run < SWITCHES; run++) switches.push(await timedSwitch(page));
    const bothHeap = await heapMb(page);
    const { url } = await api.api<{ url: string }>(`/api/versions/${b.id}/stream`);
    const reloads: number[] = [];
    for (let run = 0; run < 5; run++) reloads.push(await reloadSwitch(page, url));
    const switchMs = median(switches.map((s) => s.graphMs));
    const latency = median(switches.map((s) => s.outputLatencyMs));
    const reloadMs = median(reloads);
    return [
      `### A/B compare, two ${minutes}-minute 48 kHz stereo WAVs (Chromium, ${SWITCHES} switches mid-file)`,
      '',
      '| measure | figure | goal | baseline (same run) | ratio |',
      '|---|---|---|---|---|',
      `| key press → other version dominates the output (median, worst) | ${switchMs.toFixed(1)} ms, ${max(switches.map((s) => s.graphMs)).toFixed(1)} ms | < 50 ms | reload one element at the same time → playing, median ${reloadMs.toFixed(0)} ms | ${(switchMs / reloadMs).toFixed(2)} |`,
      `| + the output latency the context reports | ${latency.toFixed(1)} ms | | | |`,
      `| lowest level during a switch vs before it (worst) | ${Math.min(...switches.map((s) => s.dipDb)).toFixed(1)} dB | no gap (a dip of a few dB at most) | | |`,
      `| JS heap with both loaded: both waveforms, the lane (after GC) | ${bothHeap.toFixed(1)} MB | < 150 MB | A alone ${aloneHeap.toFixed(1)} MB | ${(bothHeap / aloneHeap).toFixed(2)} |`,
      `| "what changed" lane: pick B → lane drawn | ${laneSeconds.toFixed(1)} s (changed regions: ${regions}; the two tones differ throughout) | | | |`,
      `| server process memory (RSS) while the lane is computed, peak | ${rssPeak.toFixed(0)} MB | flat: files streamed | before ${rssBefore.toFixed(0)} MB | ${(rssPeak / rssBefore).toFixed(2)} |`,
    ].join('\n');
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
