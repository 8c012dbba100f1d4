import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { CHANGE, changedPair } from '../apps/server/test/helpers/changed-pair';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, signInAt, screenshot } from './helpers/browser';

/**
 * Comparing two bounces of a mix (B = A with 4–6 s turned up 3 dB, starting 12 ms later): both
 * waveforms, the "what changed" lane marking that stretch and nothing else, a click on it seeking
 * there, comments following the version heard, a reference track from another project, and the
 * loudness dialog leading to the platform preview.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let projectId: string;
const ana = { email: 'ana@difference.example.com', password: 'ana-password-1', displayName: 'Ana Mixer' };
const DURATION = 12;

interface ReviewWindow {
  __mixroomPlayer: { media: HTMLMediaElement };
  __mixroomCompare: { bMedia: HTMLMediaElement | null; offsetSeconds: number };
}

beforeAll(async () => {
  server = await startTestServer();
  const api = storageClient(server.url, (await signInThroughOidc(server.url, ana)).access_token);
  const folderId = (await api.createFolder('Single', null)).id;
  const pair = changedPair(DURATION);
  const { ticket } = await api.upload(pair.a, folderId);
  projectId = ticket.project.id;
  await api.addVersion(projectId, pair.b, 'Vocal up');
  const reference = await api.upload(makeAudio('Reference.wav', { seconds: 6 }), null);
  for (const id of [projectId, reference.ticket.project.id])
    await waitFor(async () => (await api.project(id)).versions.every((v) => v.status === 'ready' && v.loudness), {
      what: 'processing',
      timeoutMs: 90_000,
    });
  const v2 = (await api.project(projectId)).versions.find((v) => v.number === 2)!.id;
  await api.api(`/api/versions/${v2}/comments`, {
    method: 'POST',
    body: { type: 'timestamp', startTime: 5, text: 'Only on the second bounce' },
  });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInAt(page, server.url, `/version/${projectId}/1`, ana);
  await page.waitForFunction(() => performance.getEntriesByName('mixroom:waveform-drawn').length > 0, null, {
    timeout: 90_000,
  });
}, 150_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('review: what changed between versions', () => {
  it('marks the changed stretch within ±0.25 s and nothing else; a click seeks there', async () => {
    await page.getByRole('textbox', { name: 'Compare with' }).click();
    await page.getByRole('option', { name: /^B: v2/ }).click();
    await page.getByTestId('compare-waveform').waitFor();
    // Picked, the field lets go of the keyboard, so B switches at once.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null)).not.toBe(
      'Compare with',
    );
    const lane = page.getByTestId('difference-lane');
    await expect.poll(() => lane.getAttribute('data-status'), { timeout: 60_000 }).toBe('ready');
    const regions = page.getByTestId('changed-region');
    expect(await regions.count()).toBe(1);
    // Where the mark sits on screen, read back as time on the lane's scale.
    const box = (await lane.locator('div').first().boundingBox())!;
    const mark = (await regions.first().boundingBox())!;
    const start = ((mark.x - box.x) / box.width) * DURATION;
    const end = ((mark.x + mark.width - box.x) / box.width) * DURATION;
    expect(Math.abs(start - CHANGE.start)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(end - CHANGE.end)).toBeLessThanOrEqual(0.25);
    expect(await page.getByTestId('difference-status').last().innerText()).toContain('lined up 12.0 ms later');
    await screenshot(page, 'review-difference-1440');

    await regions.first().click();
    const at = await page.evaluate(() => (window as unknown as ReviewWindow).__mixroomPlayer.media.currentTime);
    expect(Math.abs(at - Number(await regions.first().getAttribute('data-start')))).toBeLessThan(0.05);
    await expect.poll(() => page.getByTestId('current-time').innerText()).toMatch(/^0:0[34]\./);
  });

  it('plays B lined up with A by the offset found, so the same bar is heard on both sides', async () => {
    await page.getByTestId('play-pause').click();
    // B's clock less A's, read from the media elements over 30 animation frames while both play.
    const lead = () =>
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const w = window as unknown as ReviewWindow;
            const gaps: number[] = [];
            const sample = () => {
              gaps.push(w.__mixroomCompare.bMedia!.currentTime - w.__mixroomPlayer.media.currentTime);
              if (gaps.length < 30) requestAnimationFrame(sample);
              else resolve(gaps.sort((x, y) => x - y)[15]!);
            };
            requestAnimationFrame(sample);
          }),
      );
    const offset = await page.evaluate(() => (window as unknown as ReviewWindow).__mixroomCompare.offsetSeconds);
    expect(Math.abs(offset - 0.012)).toBeLessThan(0.001);
    // The clocks follow within the sync loop's tolerance (6 ms) and one step of the media clock (2.7 ms).
    await expect.poll(async () => Math.abs((await lead()) - offset), { timeout: 10_000 }).toBeLessThan(0.009);
    await page.getByTestId('play-pause').click();
  });

  it('B heard: its waveform is lit, A’s dimmed, and the comments are B’s', async () => {
    await expect.poll(() => page.getByTestId('ab-toggle').getByText('B · v2').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId('comment').count()).toBe(0);
    await page.getByRole('heading', { name: 'Mix A' }).click();
    await page.keyboard.press('b');
    await expect.poll(() => page.getByTestId('compare-waveform').getAttribute('data-active')).toBe('true');
    expect(await page.getByTestId('wave-host').getAttribute('data-dimmed')).toBe('true');
    await expect.poll(() => page.getByTestId('comments-of').innerText()).toBe('on B · v2');
    await expect.poll(() => page.getByTestId('comment').innerText()).toContain('Only on the second bounce');
    await page.getByRole('button', { name: 'Comments at 0:05.00' }).waitFor();
    await page.keyboard.press('b');
    await expect.poll(() => page.getByTestId('comment').count()).toBe(0);
  });

  it('B can be a reference track from another project', async () => {
    await page.getByRole('textbox', { name: 'Compare with' }).click();
    await page.getByRole('option', { name: 'From another project…' }).click();
    await page.getByLabel('Find a project').fill('Reference');
    await page.getByRole('button', { name: /^Reference/ }).click();
    await page.getByRole('button', { name: /^v1 ·/ }).click();
    await expect
      .poll(() => page.getByTestId('ab-toggle').getByText('B · Reference v1').count(), { timeout: 15_000 })
      .toBe(1);
    await expect.poll(() => page.getByTestId('difference-lane').getAttribute('data-status')).toMatch(/pending|ready/);
  });

  it('the loudness dialog leads to the platform preview', async () => {
    await page.getByRole('button', { name: 'Loudness' }).click();
    await page.getByRole('button', { name: 'Hear it as each platform plays it' }).click();
    await page.getByRole('option', { name: 'As Spotify' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'Hear it as' }).inputValue()).toBe('As Spotify');
    await page.mouse.move(1, 1);
    await page.setViewportSize({ width: 900, height: 900 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(900);
    await screenshot(page, 'review-difference-900');
  });
});
