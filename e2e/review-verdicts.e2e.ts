import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedGain } from '@mixroom/shared';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, signInAt, screenshot } from './helpers/browser';

/**
 * The review screen beyond timed comments: resolving and filtering comments, a version's verdict
 * on the folder tile, comments exported as DAW markers, and A/B compare at the same playhead.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let folderId: string;
let projectId: string;
let loudness: { a: number; b: number };
let truePeakA: number;
const ana = { email: 'ana@verdicts.example.com', password: 'ana-password-1', displayName: 'Ana Mixer' };
const comment = (text: string) => page.locator('[data-testid="comment"]', { hasText: text });

interface ReviewWindow {
  __mixroomPlayer: { seek(t: number): void; media: HTMLMediaElement };
  __mixroomCompare: { bMedia: HTMLMediaElement | null; getState(): { active: 'A' | 'B' } };
}

beforeAll(async () => {
  server = await startTestServer();
  const api = storageClient(server.url, (await signInThroughOidc(server.url, ana)).access_token);
  folderId = (await api.createFolder('Masters', null)).id;
  const { ticket } = await api.upload(makeAudio('Single.wav', { seconds: 10, volume: 0.5 }), folderId);
  projectId = ticket.project.id;
  // B: another bounce, about 6 dB quieter, for the loudness match; both process at once.
  await api.addVersion(
    projectId,
    makeAudio('Single B.wav', { seconds: 10, frequency: 660, volume: 0.25 }),
    'Quieter bounce',
  );
  const versions = await waitFor(
    async () => {
      const { versions } = await api.project(projectId);
      return versions.every((v) => v.status === 'ready' && v.loudness) && versions.length === 2 ? versions : null;
    },
    { what: 'both versions processed', timeoutMs: 90_000 },
  );
  // Tones at a clear level: both figures exist.
  const byNumber = (n: number) => versions.find((v) => v.number === n)!.loudness!.integrated!;
  loudness = { a: byNumber(1), b: byNumber(2) };
  truePeakA = versions.find((v) => v.number === 1)!.loudness!.truePeak!;
  const v1 = versions.find((v) => v.number === 1)!.id;
  for (const [startTime, text] of [
    [2, 'Kick too loud'],
    [7.5, 'Vocal sits well'],
  ] as const)
    await api.api(`/api/versions/${v1}/comments`, { method: 'POST', body: { type: 'timestamp', startTime, text } });
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  await signInAt(page, server.url, `/version/${projectId}/1`, ana);
  await page.waitForFunction(() => performance.getEntriesByName('mixroom:waveform-drawn').length > 0, null, {
    timeout: 90_000,
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('review: resolve, verdicts, markers, A/B', () => {
  it('resolves a comment: filters open / resolved / all with counts, resolved dimmed on the waveform', async () => {
    await comment('Kick too loud').getByRole('button', { name: 'Resolve comment' }).click();
    await expect.poll(() => comment('Kick too loud').getAttribute('data-resolved')).toBe('true');
    const filter = page.getByTestId('comment-filter');
    await filter.getByText('Open 1').click();
    await expect.poll(() => page.getByTestId('comment').count()).toBe(1);
    expect(await page.getByTestId('comment').innerText()).toContain('Vocal sits well');
    await filter.getByText('Resolved 1').click();
    await expect.poll(() => page.getByTestId('comment').innerText()).toContain('Kick too loud');
    await filter.getByText('All 2').click();
    await expect.poll(() => page.getByTestId('comment').count()).toBe(2);
    const marker = (at: string) => page.getByRole('button', { name: `Comments at ${at}` });
    expect(await marker('0:02.00').getAttribute('data-resolved')).toBe('true');
    expect(await marker('0:07.50').getAttribute('data-resolved')).toBe('false');
  });

  it('keys act on the player, never while typing; ? lists them', async () => {
    await page.getByRole('heading', { name: 'Single' }).click();
    await page.keyboard.press('Shift+?');
    await page.getByTestId('shortcut-list').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('shortcut-list').waitFor({ state: 'hidden' });
    // Keys reach the player once no dialog is left (the list's fade-out included).
    await expect.poll(() => page.locator('[role="dialog"]').count()).toBe(0);
    await page.evaluate(() => (window as unknown as ReviewWindow).__mixroomPlayer.seek(8));
    // Two presses in quick succession move twice, even while the first seek is still buffering.
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect.poll(() => page.getByTestId('current-time').innerText()).toMatch(/^0:00\.00/);
    await page.evaluate(() => (window as unknown as ReviewWindow).__mixroomPlayer.seek(3));
    await page.keyboard.press('l');
    await expect.poll(() => page.getByTestId('current-time').innerText()).toMatch(/^0:08\.00/);
    // M goes to the marker list: the comments panel takes the focus.
    await page.keyboard.press('m');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('comments-panel');
    await page.keyboard.press('c');
    await expect.poll(() => page.getByTestId('draft-label').innerText()).toBe('At 0:08.00');
    // The comment box has the focus: the same keys now type.
    await page.keyboard.type('lcm');
    expect(await page.getByLabel('Comment', { exact: true }).inputValue()).toBe('lcm');
    expect(await page.getByTestId('current-time').innerText()).toMatch(/^0:08\.00/);
    await page.getByRole('button', { name: 'Undo current comment' }).click();
  });

  it('sets a verdict, shown in the picker and on the folder tile, and the folder filters by it', async () => {
    // The tile shows the latest version's verdict: v2's.
    await page.getByRole('combobox', { name: 'Version' }).click();
    await page.getByRole('option', { name: /^v2/ }).click();
    await page.waitForURL(`**/version/${projectId}/2`);
    // The address changes before v2's screen replaces v1's (a remount by version): a click before it
    // would open v1's menu, closed by the remount. The picker shows v2 once v2's screen is there.
    await expect.poll(() => page.getByRole('combobox', { name: 'Version' }).innerText()).toMatch(/^v2/);
    await page.getByTestId('verdict-menu').click();
    await page.getByRole('menuitem', { name: 'Approved' }).click();
    await expect.poll(() => page.getByTestId('verdict-menu').getAttribute('data-verdict')).toBe('approved');
    await page.getByRole('combobox', { name: 'Version' }).click();
    expect(await page.getByRole('option', { name: /^v2/ }).getByTestId('verdict').getAttribute('data-verdict')).toBe(
      'approved',
    );
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Back to the folder' }).click();
    await page.waitForURL(`**/groups/${folderId}`);
    const tile = page.locator('[data-testid="tile"][data-name="Single"]');
    await expect.poll(() => tile.getByTestId('verdict').getAttribute('data-verdict')).toBe('approved');
    await page.getByRole('textbox', { name: 'Verdict' }).click();
    await page.getByRole('option', { name: 'Needs changes' }).click();
    await expect.poll(() => tile.count()).toBe(0);
    await page.getByRole('textbox', { name: 'Verdict' }).click();
    await page.getByRole('option', { name: 'Approved' }).click();
    await tile.waitFor();
    await page.goto(`${server.url}/version/${projectId}/1`);
    await page.getByTestId('play-pause').waitFor();
  });

  it('exports the comments as Reaper markers from a session start, read back to the millisecond', async () => {
    await page.getByRole('button', { name: 'Markers' }).click();
    const menu = page.getByTestId('marker-export');
    await menu.getByLabel('Reaper markers and regions (.csv)').check();
    await menu.getByLabel('Session start').fill('0:00:02.000');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      menu.getByRole('button', { name: 'Download' }).click(),
    ]);
    const rows = (await readFile(await download.path(), 'utf8')).trim().split('\r\n');
    expect(rows[0]).toBe('#,Name,Start,End,Length');
    const starts = rows.slice(1).map((row) => Number(row.split(',').at(-3)));
    expect(starts.sort((x, y) => x - y)).toEqual([4, 9.5]);
  });

  it('switches A/B at the same playhead, matched in loudness by the measured difference', async () => {
    await page.getByRole('textbox', { name: 'Compare with' }).click();
    await page.getByRole('option', { name: /^B: v2/ }).click();
    const toggle = page.getByTestId('ab-toggle');
    await expect.poll(() => toggle.getByText('B · v2').count(), { timeout: 15_000 }).toBe(1);
    const expected = `B ${loudness.a - loudness.b >= 0 ? '+' : '−'}${Math.abs(loudness.a - loudness.b).toFixed(1)} dB`;
    expect(await page.getByTestId('gain-b').textContent()).toBe(expected);
    // The comparison's analysis (a server job, on the same two cores) is done before clocks are read.
    await expect
      .poll(() => page.getByTestId('difference-lane').getAttribute('data-status'), { timeout: 60_000 })
      .toBe('ready');
    await page.getByTestId('play-pause').click();
    await page.getByRole('heading', { name: 'Single' }).click();
    // The two clocks' distance over 20 animation frames, read from the media elements: its median
    // (where the playheads are) and its largest (a clock's report jumps a step or two when a silent
    // side's rate is nudged, more on a loaded machine: that is reporting, not a gap one hears).
    const gap = () =>
      page.evaluate(
        () =>
          new Promise<{ median: number; max: number }>((resolve) => {
            const w = window as unknown as ReviewWindow;
            const gaps: number[] = [];
            const sample = () => {
              gaps.push(Math.abs(w.__mixroomPlayer.media.currentTime - w.__mixroomCompare.bMedia!.currentTime));
              if (gaps.length < 20) return requestAnimationFrame(sample);
              gaps.sort((x, y) => x - y);
              resolve({ median: gaps[10]!, max: gaps[19]! });
            };
            requestAnimationFrame(sample);
          }),
      );
    await expect.poll(async () => (await gap()).max, { timeout: 10_000 }).toBeLessThan(0.02);
    await page.keyboard.press('b');
    await expect.poll(() => toggle.getAttribute('data-active')).toBe('B');
    const after = await gap();
    expect(after.median).toBeLessThan(0.02);
    expect(after.max).toBeLessThan(0.05);
    expect(await page.evaluate(() => (window as unknown as ReviewWindow).__mixroomCompare.bMedia!.paused)).toBe(false);
    await page.keyboard.press('b');
    await expect.poll(() => toggle.getAttribute('data-active')).toBe('A');
    await page.getByTestId('play-pause').click();
    // Heard as Spotify plays it: the gain its normalisation applies to A's measured loudness.
    await page.getByRole('textbox', { name: 'Hear it as' }).click();
    await page.getByRole('option', { name: 'As Spotify' }).click();
    const spotify = appliedGain('Spotify', loudness.a, truePeakA, -14);
    expect(await page.getByTestId('gain-a').textContent()).toBe(
      `A ${spotify >= 0 ? '+' : '−'}${Math.abs(spotify).toFixed(1)} dB`,
    );
    await screenshot(page, 'review-verdicts-1440');
    await page.mouse.move(1, 1);
    await page.setViewportSize({ width: 390, height: 844 });
    // On a phone nothing of the review runs off the side of the screen.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'review-verdicts-390');
  });
});
