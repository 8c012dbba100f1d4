import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import type { TestClock } from '../apps/server/src/platform/clock/clock';
import { startClockedServer } from '../apps/server/test/helpers/clocked-server';
import type { TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, signInAt } from './helpers/browser';

/**
 * Stream URLs are signed for minutes. When the one in use expires mid-review (the browser's next
 * range request is refused), the player asks for a fresh URL and carries on where it was. The
 * server's clock is moved past the URL's expiry, so the store itself refuses it, and the fresh URL
 * is signed at a later time (one asked for within the same second would be the same URL).
 */
const TTL_SECONDS = 60;
let server: TestServer & { clock: TestClock };
let browser: Browser;
let page: Page;
const ana = { email: 'ana@renewal.example.com', password: 'ana-password-1', displayName: 'Ana Mixer' };
type Player = { media: HTMLAudioElement; playPause(): Promise<void>; seek(t: number): void };
/** Distinct stream URLs the page was given, in order. */
const streamUrls: string[] = [];
/** Requests for the first stream URL the store refused (403: its signature expired). */
let refused = 0;
const SECONDS = 600;
const TARGET = 540;

beforeAll(async () => {
  server = await startClockedServer({ SIGNED_URL_TTL_SECONDS: String(TTL_SECONDS) });
  const api = storageClient(server.url, (await signInThroughOidc(server.url, ana)).access_token);
  // Ten minutes, so a jump near the end lies beyond what the browser reads ahead of the original
  // WAV the owner streams: the jump must ask the store again. Recorded at 8 kHz to keep the upload
  // small.
  const { ticket } = await api.upload(makeAudio('Long Take.wav', { seconds: SECONDS, sampleRate: 8000 }), null);
  await waitFor(async () => (await api.project(ticket.project.id)).versions[0]?.status === 'ready', {
    what: 'processing',
    timeoutMs: 60_000,
  });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  page.on('response', (response) => {
    if (response.url() === streamUrls[0] && response.status() === 403) refused += 1;
    if (!/\/api\/versions\/[^/]+\/stream$/.test(new URL(response.url()).pathname)) return;
    void response
      .json()
      .then((body: { url: string }) => {
        const url = new URL(body.url, server.url).toString();
        if (!streamUrls.includes(url)) streamUrls.push(url);
      })
      .catch(() => undefined);
  });
  await signInAt(page, server.url, `/version/${ticket.project.id}/1`, ana);
  await page.waitForFunction(() => performance.getEntriesByName('mixroom:waveform-drawn').length > 0, null, {
    timeout: 90_000,
  });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a stream URL that expires during a review', () => {
  it('is renewed by the player, which keeps its place and keeps playing', async () => {
    await page.evaluate(() => (window as unknown as { __mixroomPlayer: Player }).__mixroomPlayer.playPause());
    await page.waitForFunction(
      () => (window as unknown as { __mixroomPlayer: Player }).__mixroomPlayer.media.currentTime > 0.5,
    );
    expect(streamUrls).toHaveLength(1);
    const first = streamUrls[0]!;
    // A jump far ahead needs a new range request, on the URL that no longer works: the test's
    // premise, checked, is that the browser has not read that far yet.
    const buffered = await page.evaluate((target) => {
      const { media } = (window as unknown as { __mixroomPlayer: Player }).__mixroomPlayer;
      return Array.from({ length: media.buffered.length }, (_, i) => [
        media.buffered.start(i),
        media.buffered.end(i),
      ]).some(([start, end]) => start! <= target && target <= end!);
    }, TARGET);
    expect(buffered).toBe(false);
    server.clock.advance((TTL_SECONDS + 1) * 1000);
    await page.evaluate(
      (target) => (window as unknown as { __mixroomPlayer: Player }).__mixroomPlayer.seek(target),
      TARGET,
    );
    // The player goes on from the same place on another URL the server gave (asked for at the
    // failure), after the store refused the expired one.
    // Generous: under a loaded machine the browser's own request handling takes its time.
    await page.waitForFunction(
      ([target, old]) => {
        const { media } = (window as unknown as { __mixroomPlayer: Player }).__mixroomPlayer;
        return !media.paused && media.currentTime > target + 0.5 && media.currentSrc !== '' && media.currentSrc !== old;
      },
      [TARGET, first] as const,
      { timeout: 60_000 },
    );
    expect(refused).toBeGreaterThan(0);
    const now = await page.evaluate(
      () => (window as unknown as { __mixroomPlayer: Player }).__mixroomPlayer.media.currentSrc,
    );
    // The same stored file under a fresh signature.
    expect(new URL(now).pathname).toBe(new URL(first).pathname);
    expect(now).not.toBe(first);
    expect(await page.getByText('The audio could not be loaded.').count()).toBe(0);
  });
});
