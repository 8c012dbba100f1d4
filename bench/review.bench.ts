/**
 * The review screen on an hour-long master: a 60-minute 48 kHz stereo 24-bit WAV, in
 * Debian's Chromium, median of 5. Each figure has a baseline measured in the same run.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { generateAudio } from '../apps/server/test/helpers/audio';
import { inviteOf } from '../apps/server/test/helpers/invite';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, signInAt } from '../e2e/helpers/browser';

const RUNS = 5;
const COMMENTS = 20;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function heapMb(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await session.send('Runtime.getHeapUsage')) as { usedSize: number };
  await session.detach();
  return usedSize / 1e6;
}

/** Navigation start → first contentful paint, and → the complete waveform (the app's own mark). */
async function openReview(page: Page, url: string): Promise<{ fcp: number; drawn: number }> {
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('mixroom:waveform-drawn').length > 0, null, {
    timeout: 60_000,
  });
  return page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    drawn: performance.getEntriesByName('mixroom:waveform-drawn')[0]!.startTime,
  }));
}

/** Click on play → the media element reports `playing`, from a random point of the hour. */
async function clickToPlaying(page: Page, at: number): Promise<number> {
  return page.evaluate(async (seconds) => {
    const player = (
      window as unknown as {
        __mixroomPlayer: { media: HTMLMediaElement; seek(t: number): void; getState(): { playing: boolean } };
      }
    ).__mixroomPlayer;
    player.seek(seconds);
    await new Promise((resolve) =>
      player.media.readyState >= 1
        ? resolve(null)
        : player.media.addEventListener('loadedmetadata', resolve, { once: true }),
    );
    const playing = new Promise<number>((resolve) =>
      player.media.addEventListener('playing', () => resolve(performance.now()), { once: true }),
    );
    const start = performance.now();
    document.querySelector<HTMLButtonElement>('[data-testid="play-pause"]')!.click();
    const elapsed = (await playing) - start;
    player.media.pause();
    return elapsed;
  }, at);
}

/** The same measurement on a bare <audio> element with the same signed URL: the browser's own floor. */
async function bareAudioToPlaying(page: Page, url: string, at: number): Promise<number> {
  return page.evaluate(
    async ({ src, seconds }) => {
      const audio = new Audio();
      audio.preload = 'metadata';
      audio.src = src;
      await new Promise((resolve) => audio.addEventListener('loadedmetadata', resolve, { once: true }));
      audio.currentTime = seconds;
      const playing = new Promise<number>((resolve) =>
        audio.addEventListener('playing', () => resolve(performance.now()), { once: true }),
      );
      const start = performance.now();
      await audio.play();
      const elapsed = (await playing) - start;
      audio.pause();
      audio.removeAttribute('src');
      audio.load();
      return elapsed;
    },
    { src: url, seconds: at },
  );
}

export async function benchReview(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-bench-review-'));
  const wav = generateAudio(join(dir, 'Hour Master.wav'), 'anoisesrc=d=3600:c=pink:r=48000:a=0.5', [
    '-af',
    "volume='0.15+0.85*abs(sin(t/9))':eval=frame",
    '-c:a',
    'pcm_s24le',
  ]);
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const ana = { email: 'ana@bench.example.com', password: 'ana-password-1', displayName: 'Ana' };
    const bob = { email: 'bob@bench.example.com', password: 'bob-password-1', displayName: 'Bob' };
    const anaToken = (await signInThroughOidc(server.url, ana)).access_token;
    const bobToken = (await signInThroughOidc(server.url, bob)).access_token;
    const anaApi = storageClient(server.url, anaToken);
    const folder = await anaApi.createFolder('Bench', null);
    const { ticket } = await anaApi.upload(wav, folder.id);
    const bobApi = storageClient(server.url, bobToken);
    await bobApi.api('/api/join-requests', {
      method: 'POST',
      body: { type: 'group', id: folder.id, invite: await inviteOf(anaApi, 'group', folder.id) },
    });
    const bobId = JSON.parse(Buffer.from(bobToken.split('.')[1]!, 'base64url').toString()).sub as string;
    await anaApi.api(`/api/join-requests/${folder.id}/${bobId}/approve`, { method: 'POST' });
    await waitFor(async () => (await anaApi.project(ticket.project.id)).versions[0]?.status === 'ready', {
      what: 'processing',
      timeoutMs: 600_000,
    });
    const path = `/version/${ticket.project.id}/1`;

    const anaPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    const bobPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await signInAt(anaPage, server.url, path, ana);
    await signInAt(bobPage, server.url, path, bob);

    const opens: { fcp: number; drawn: number }[] = [];
    for (let run = 0; run < RUNS; run++) opens.push(await openReview(anaPage, `${server.url}${path}`));
    const heap = await heapMb(anaPage);
    await anaPage.goto(`${server.url}/groups`);
    await anaPage.getByText('Bench').first().waitFor();
    const shellHeap = await heapMb(anaPage);
    await openReview(anaPage, `${server.url}${path}`);

    const plays: number[] = [];
    const bare: number[] = [];
    const { url } = await anaApi.api<{ url: string }>(`/api/versions/${ticket.version.id}/stream`);
    for (let run = 0; run < RUNS; run++) {
      const at = 300 + run * 600 + Math.random() * 60;
      plays.push(await clickToPlaying(anaPage, at));
      bare.push(await bareAudioToPlaying(anaPage, url, at + 30));
    }

    // Comment latency: Ana posts from Node; Bob's page notes when the text appears in its DOM.
    await bobPage.evaluate(() => {
      const seen: Record<string, number> = {};
      (window as unknown as { __seen: Record<string, number> }).__seen = seen;
      new MutationObserver(() => {
        for (const node of document.querySelectorAll('[data-testid="comment-text"]'))
          seen[node.textContent ?? ''] ??= Date.now();
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const latencies: number[] = [];
    const posts: number[] = [];
    for (let i = 0; i < COMMENTS; i++) {
      const text = `Bench comment ${i} ${Math.random().toString(36).slice(2)}`;
      const start = Date.now();
      await anaApi.api(`/api/versions/${ticket.version.id}/comments`, {
        method: 'POST',
        body: { type: 'timestamp', startTime: i * 60, text },
      });
      posts.push(Date.now() - start);
      const handle = await bobPage.waitForFunction(
        (t) => (window as unknown as { __seen: Record<string, number> }).__seen[t],
        text,
        { timeout: 10_000 },
      );
      latencies.push(((await handle.jsonValue()) as number) - start);
    }

    const drawn = median(opens.map((o) => o.drawn));
    const fcp = median(opens.map((o) => o.fcp));
    const play = median(plays);
    const bareMedian = median(bare);
    const p95 = percentile(latencies, 95);
    const postMedian = median(posts);
    const size = statSync(wav).size;
    return [
      `### Review screen, ${(size / 1e9).toFixed(2)} GB 60-minute 48 kHz stereo 24-bit WAV (Chromium, median of ${RUNS})`,
      '',
      '| measure | figure | goal | baseline (same run) | ratio |',
      '|---|---|---|---|---|',
      `| navigation → waveform drawn | ${ms(drawn)} | < 1 s | first contentful paint ${ms(fcp)} | ${(drawn / fcp).toFixed(2)} |`,
      `| play click → audio playing (random points of the hour) | ${ms(play)} | < 0.5 s | bare <audio> on the same URL ${ms(bareMedian)} | ${(play / bareMedian).toFixed(2)} |`,
      `| JS heap with the hour drawn (after GC) | ${heap.toFixed(1)} MB | < 150 MB | the folder view ${shellHeap.toFixed(1)} MB | ${(heap / shellHeap).toFixed(2)} |`,
      `| comment posted → visible in a second browser, p95 of ${COMMENTS} | ${ms(p95)} (median ${ms(median(latencies))}) | p95 < 100 ms | the POST itself, median ${ms(postMedian)} | ${(p95 / postMedian).toFixed(2)} |`,
    ].join('\n');
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
