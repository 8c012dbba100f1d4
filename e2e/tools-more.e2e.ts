import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEM_OUTPUTS, TOOLS_MESSAGES } from '@mixroom/shared';
import { call } from '../apps/server/test/helpers/api';
import { generateAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { HeldSeparator, useSeparator } from '../apps/server/test/helpers/held-separator';
import { longSilence, probeFile, toolsClient } from '../apps/server/test/helpers/tools';
import { launchBrowser, signInAt } from './helpers/browser';

/**
 * More of the AI tools in Chromium, on one server and one browser: inputs over the limits refused
 * (by the page and by the server), Stem Separation with every stem (five outputs under the spec's
 * names), a Revoice task downloaded as '{task name}.m4a', exactly 5 credits per task, the
 * 'Not enough credits' dialog of a user with 4 credits, the Preview of a running separation's
 * finished start in the history, and an administrator cancelling a running task from the admin
 * overview (it fails for its user, with no charge).
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let context: BrowserContext;
let adminToken = '';
const admin = { email: 'admin@tools-more-e2e.test', password: 'admin-password-long' };
const ula = { email: 'ula@tools-more-e2e.test', password: 'ula-password-long', displayName: 'Ula Tools' };
const dir = mkdtempSync(join(tmpdir(), 'mixroom-tools-more-e2e-'));
const mixOf = (name: string, seconds: number) =>
  generateAudio(
    join(dir, name),
    `aevalsrc=0.3*sin(2*PI*440*t)+0.25*sin(2*PI*110*t)|0.3*sin(2*PI*440*t)-0.25*sin(2*PI*110*t):s=44100:d=${seconds}`,
  );
const short = mixOf('Short.wav', 5);
const shots = process.env.MIXROOM_E2E_SHOTS;

async function shoot(target: Page, name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await target.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
  await target.screenshot({ path: join(shots, `${name}-1440.png`), fullPage: true });
}

const tokenOf = async (account: { email: string; password: string }) =>
  (await signInThroughOidc(server.url, account)).access_token;
const balanceOf = async (token: string) =>
  ((await call(server.url, '/api/credits', { token })).body as { balance: number }).balance;

/** Sets a user's balance to `target` through the admin credits endpoint. */
async function setBalance(token: string, target: number): Promise<void> {
  const id = ((await call(server.url, '/api/me', { token })).body as { id: string }).id;
  const amount = target - (await balanceOf(token));
  if (amount !== 0) {
    const adjusted = await call(server.url, `/api/admin/users/${id}/credits`, {
      method: 'POST',
      token: adminToken,
      body: { amount, reason: 'tools more e2e' },
    });
    expect(adjusted.status).toBeLessThan(300);
  }
  expect(await balanceOf(token)).toBe(target);
}

/** The number on a tool screen's credits line ('Credits: 5 needed out of N remaining'). */
async function creditsOnScreen(target: Page): Promise<number> {
  const line = target.getByTestId('tools-credits');
  await target.getByText(/Credits: 5 needed out of \d+ remaining/).waitFor();
  return Number(/out of (\d+) remaining/.exec(await line.innerText())![1]);
}

beforeAll(async () => {
  server = await startTestServer();
  adminToken = await tokenOf(admin);
  await setBalance(await tokenOf(ula), 40);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('more of the AI tools in Chromium', () => {
  it('refuses an 11-minute file on Voice Conversion and a 31-minute file on Stem Separation, on the page and on the server', async () => {
    const eleven = longSilence(join(dir, 'Eleven.flac'), 660);
    const thirtyOne = longSilence(join(dir, 'Thirty-one.flac'), 1860);
    expect(Math.round(probeFile(eleven).seconds)).toBe(660);
    expect(Math.round(probeFile(thirtyOne).seconds)).toBe(1860);

    await signInAt(page, server.url, '/tools/revoice', ula);
    expect(await creditsOnScreen(page)).toBe(40);
    await page.getByTestId('tools-file-input').setInputFiles(eleven);
    await expect.poll(() => page.getByTestId('tools-chosen-name').innerText()).toBe('Eleven.flac');
    await page.getByTestId('tools-process').click();
    const voiceRefusal = page.getByRole('dialog', { name: TOOLS_MESSAGES.tooLongTitle });
    await voiceRefusal.getByText(TOOLS_MESSAGES.tooLong('revoice'), { exact: true }).waitFor();
    expect(TOOLS_MESSAGES.tooLong('revoice')).toBe(
      'The audio file is too long. Please use a file shorter than 10 minutes.',
    );
    await voiceRefusal.getByRole('button', { name: 'OK' }).click();
    await voiceRefusal.waitFor({ state: 'detached' });

    await page.goto(`${server.url}/tools/stemseparation`);
    await page.getByTestId('tools-file-input').setInputFiles(thirtyOne);
    await expect.poll(() => page.getByTestId('tools-chosen-name').innerText()).toBe('Thirty-one.flac');
    await page.getByTestId('tools-process').click();
    const stemsRefusal = page.getByRole('dialog', { name: TOOLS_MESSAGES.tooLongTitle });
    await stemsRefusal.getByText(TOOLS_MESSAGES.tooLong('stems'), { exact: true }).waitFor();
    expect(TOOLS_MESSAGES.tooLong('stems')).toBe(
      'The audio file is too long. Please use a file shorter than 30 minutes.',
    );
    await stemsRefusal.getByRole('button', { name: 'OK' }).click();

    // The server refuses the same files by itself (ffprobe's duration), whatever the page checked.
    const tools = toolsClient(server.url, await tokenOf(ula));
    const voice = await tools.raw('/api/tools/tasks', {
      method: 'POST',
      body: { tool: 'revoice', voice: 'roberto', input: { uploadId: await tools.upload(eleven) } },
    });
    expect(voice.status).toBe(413);
    expect((voice.body as { error: { message: string } }).error.message).toBe(TOOLS_MESSAGES.tooLong('revoice'));
    const stems = await tools.raw('/api/tools/tasks', {
      method: 'POST',
      body: { tool: 'stems', mode: 'EVERYTHING', input: { uploadId: await tools.upload(thirtyOne) } },
    });
    expect(stems.status).toBe(413);
    expect((stems.body as { error: { message: string } }).error.message).toBe(TOOLS_MESSAGES.tooLong('stems'));

    // Nothing started, nothing charged.
    await page.goto(`${server.url}/tools/history`);
    await page.getByTestId('tools-empty').waitFor();
    expect(await balanceOf(await tokenOf(ula))).toBe(40);
  }, 180_000);

  it('separates every stem: five outputs under the spec names, and exactly 5 credits charged', async () => {
    await page.goto(`${server.url}/tools/stemseparation`);
    const before = await creditsOnScreen(page);
    await page.getByTestId('tools-file-input').setInputFiles(short);
    await expect.poll(() => page.getByTestId('tools-chosen-name').innerText()).toBe('Short.wav');
    await page.getByRole('radio', { name: 'Voice + Music + Drums + Bass + Other', exact: true }).check();
    await page.getByTestId('tools-process').click();
    await page.waitForURL('**/tools/history', { timeout: 60_000 });
    const done = page.locator('[data-testid="tools-task"][data-status="COMPLETED"]').first();
    await done.waitFor({ timeout: 150_000 });
    expect(await done.getByTestId('tools-task-name').innerText()).toBe('Stemseparation Task - EVERYTHING - Short.wav');

    // Five outputs, each with its player and its download under '{input name}_{stem}.m4a'.
    const expected = STEM_OUTPUTS.map((stem) => `Short_${stem}.m4a`);
    expect([...expected].sort()).toEqual(
      ['Short_bass.m4a', 'Short_drums.m4a', 'Short_no_vocals.m4a', 'Short_other.m4a', 'Short_vocals.m4a'].sort(),
    );
    await done.getByRole('button', { name: '5 outputs' }).waitFor();
    for (const stem of STEM_OUTPUTS) {
      const output = done.getByTestId(`tools-output-${stem}`);
      await output.getByRole('button', { name: `Short_${stem}.m4a`, exact: true }).waitFor();
    }
    await shoot(page, 'tools-everything');

    // Download: all five files arrive under those names.
    const downloads: Download[] = [];
    const collect = (download: Download) => void downloads.push(download);
    page.on('download', collect);
    await done.getByTestId('tools-task-download').click();
    await expect.poll(() => downloads.length, { timeout: 30_000 }).toBe(5);
    page.off('download', collect);
    expect(downloads.map((d) => d.suggestedFilename()).sort()).toEqual([...expected].sort());

    await page.goto(`${server.url}/tools/stemseparation`);
    await expect.poll(() => creditsOnScreen(page)).toBe(before - 5);
  }, 240_000);

  it('converts a voice: the chosen voice, COMPLETED, downloaded as "{task name}.m4a", exactly 5 credits', async () => {
    await page.goto(`${server.url}/tools/revoice`);
    const before = await creditsOnScreen(page);
    await page.getByTestId('tools-file-input').setInputFiles(short);
    await expect.poll(() => page.getByTestId('tools-chosen-name').innerText()).toBe('Short.wav');
    await page.getByTestId('voice-susy').getByRole('button', { name: 'Choose' }).click();
    await page.getByTestId('voice-susy').getByText('Selected').waitFor();
    await page.getByTestId('tools-process').click();
    await page.waitForURL('**/tools/history', { timeout: 60_000 });
    const task = page.getByTestId('tools-task').filter({ hasText: 'Revoice Task - ' });
    await task.getByTestId('tools-task-name').waitFor();
    const name = await task.getByTestId('tools-task-name').innerText();
    expect(name).toMatch(/^Revoice Task - Susy - Short\.wav$/i);
    await page
      .locator('[data-testid="tools-task"][data-status="COMPLETED"]')
      .filter({ hasText: name })
      .waitFor({ timeout: 180_000 });
    await shoot(page, 'tools-revoice-done');

    const download = page.waitForEvent('download');
    await task.getByTestId('tools-task-download').click();
    expect((await download).suggestedFilename()).toBe(`${name}.m4a`);

    await page.goto(`${server.url}/tools/revoice`);
    await expect.poll(() => creditsOnScreen(page)).toBe(before - 5);
  }, 240_000);

  it('shows "Not enough credits" to a user with 4 credits, and its Yes goes to /settings', async () => {
    const poor = { email: 'poe@tools-more-e2e.test', password: 'poe-password-long', displayName: 'Poe Poor' };
    await setBalance(await tokenOf(poor), 4);
    const own = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const tab = await own.newPage();
    await signInAt(tab, server.url, '/tools/stemseparation', poor);
    expect(await creditsOnScreen(tab)).toBe(4);
    await tab.getByTestId('tools-file-input').setInputFiles(short);
    await expect.poll(() => tab.getByTestId('tools-chosen-name').innerText()).toBe('Short.wav');
    await tab.getByTestId('tools-process').click();
    const dialog = tab.getByRole('dialog', { name: TOOLS_MESSAGES.noCreditsTitle });
    await dialog.getByText(TOOLS_MESSAGES.noCredits, { exact: true }).waitFor();
    expect(TOOLS_MESSAGES.noCredits).toBe('You need at least 5 credits to create a Revoice task. Show subscriptions?');
    await shoot(tab, 'tools-no-credits');
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await tab.waitForURL(`${server.url}/settings`);
    expect(await balanceOf(await tokenOf(poor))).toBe(4);
    await own.close();
  }, 120_000);

  it("plays the finished start of a running separation from the history's Preview, with the seconds ready", async () => {
    // Held after its first chunk (1 s), once the stage has stored the preview of it.
    const held = new HeldSeparator(44_000);
    const restore = useSeparator(server, held);
    try {
      const tools = toolsClient(server.url, await tokenOf(ula));
      const created = await tools.raw('/api/tools/tasks', {
        method: 'POST',
        body: { tool: 'stems', mode: 'TWOSTEMS', input: { uploadId: await tools.upload(short) } },
      });
      expect(created.status).toBe(201);
      const taskName = (created.body as { name: string }).name;
      // A page of its own, signed in here, so this journey stands alone.
      const own = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await own.newPage();
      await signInAt(page, server.url, '/tools/history', ula);
      const card = page.locator('[data-testid="tools-task"]').filter({ hasText: taskName });
      const running = card.getByTestId('tools-running-preview');
      await running.waitFor({ timeout: 60_000 });
      expect(held.held).toBe(true);
      expect(await card.getAttribute('data-status')).toBe('RUNNING');
      // One chunk is finished: the page says how much.
      await expect.poll(() => running.getByTestId('tools-running-preview-ready').innerText()).toMatch(/^0:01 ready/);
      await running.getByRole('button', { name: 'Preview' }).click();
      const player = running.getByTestId('tools-running-preview-player-vocals');
      await expect.poll(() => player.getAttribute('data-ready')).toBe('true');
      // It plays what is ready (the chunk's 0.998 s), not the whole song (5 s).
      expect(await player.getByTestId('tools-running-preview-player-vocals-time').innerText()).toMatch(/ \/ 0:01$/);
      await running.getByTestId('tools-running-preview-player-no_vocals').waitFor();
      await player.getByRole('button', { name: 'Play' }).click();
      await player.getByRole('button', { name: 'Pause' }).waitFor();
      // Mute changes on the user's click only: not muted on arrival, muted by one click (that
      // player alone), unmuted by the next.
      const other = running.getByTestId('tools-running-preview-player-no_vocals');
      const mutedOf = (target: typeof player) => target.locator('audio').evaluate((a: HTMLAudioElement) => a.muted);
      for (const target of [player, other]) {
        expect(await target.getByRole('button', { name: 'Mute' }).getAttribute('aria-pressed')).toBe('false');
        expect(await mutedOf(target)).toBe(false);
      }
      await player.getByRole('button', { name: 'Mute' }).click();
      await expect.poll(() => player.getByRole('button', { name: 'Unmute' }).getAttribute('aria-pressed')).toBe('true');
      expect(await mutedOf(player)).toBe(true);
      expect(await mutedOf(other)).toBe(false);
      await player.getByRole('button', { name: 'Unmute' }).click();
      await expect.poll(() => mutedOf(player)).toBe(false);
      expect(await player.getByRole('button', { name: 'Mute' }).getAttribute('aria-pressed')).toBe('false');
      await shoot(page, 'tools-running-preview');
      await page.setViewportSize({ width: 420, height: 900 });
      await shoot(page, 'tools-running-preview-phone');
      await page.setViewportSize({ width: 1440, height: 900 });

      // Let it go on: the task completes, and its outputs take the preview's place.
      held.release();
      await page
        .locator('[data-testid="tools-task"][data-status="COMPLETED"]')
        .filter({ hasText: taskName })
        .waitFor({ timeout: 120_000 });
      expect(await card.getByTestId('tools-running-preview').count()).toBe(0);
      await own.close();
    } finally {
      held.release();
      restore();
    }
  }, 240_000);

  it('lets an administrator cancel a running task from the admin overview: it fails for its user, uncharged', async () => {
    const token = await tokenOf(ula);
    const before = await balanceOf(token);
    // Nine minutes (cheap silence, worked on at 44.1 kHz stereo like any input): still running while
    // the administrator finds it and cancels it, on any machine.
    const long = longSilence(join(dir, 'Long.flac'), 540);
    const tools = toolsClient(server.url, token);
    const created = await tools.raw('/api/tools/tasks', {
      method: 'POST',
      body: { tool: 'stems', mode: 'TWOSTEMS', input: { uploadId: await tools.upload(long) } },
    });
    expect(created.status).toBe(201);
    const taskName = (created.body as { name: string }).name;
    expect(taskName).toBe('Stemseparation Task - TWOSTEMS - Long.flac');

    const adminContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const adminPage = await adminContext.newPage();
    await signInAt(adminPage, server.url, '/admin/overview', admin);
    const row = adminPage.getByTestId('admin-tool-task').filter({ hasText: taskName });
    await row.waitFor();
    expect(['PENDING', 'RUNNING']).toContain(await row.getByTestId('admin-tool-task-status').innerText());
    expect(await row.innerText()).toContain(ula.email);
    await shoot(adminPage, 'admin-tool-tasks');
    await row.getByRole('button', { name: `Cancel ${taskName}` }).click();
    const confirm = adminPage.getByRole('dialog', { name: 'Cancel task' });
    await confirm.getByText(/It fails for its user/).waitFor();
    await confirm.getByRole('button', { name: 'Cancel task' }).click();
    await row.waitFor({ state: 'detached' });
    // The Failed view shows it with the reason.
    await adminPage.getByTestId('admin-tool-tasks').getByText('Failed', { exact: true }).click();
    const failedRow = adminPage.getByTestId('admin-tool-task').filter({ hasText: taskName });
    await failedRow.getByText('Cancelled by an administrator.').waitFor();
    expect(await failedRow.getByTestId('admin-tool-task-status').innerText()).toBe('FAILED');
    await adminContext.close();

    // The user sees it FAILED with the reason, and nothing was charged.
    await page.goto(`${server.url}/tools/history`);
    const card = page.locator('[data-testid="tools-task"][data-status="FAILED"]').filter({ hasText: taskName });
    await card.getByTestId('tools-task-failure').waitFor();
    expect(await card.getByTestId('tools-task-failure').innerText()).toBe(
      TOOLS_MESSAGES.failed('Cancelled by an administrator.'),
    );
    expect(await card.getByTestId('tools-task-status').innerText()).toBe('FAILED');
    expect(await balanceOf(token)).toBe(before);
    await page.goto(`${server.url}/tools/stemseparation`);
    await expect.poll(() => creditsOnScreen(page)).toBe(before);
  }, 300_000);
});
