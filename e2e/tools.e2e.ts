import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS_MESSAGES } from '@mixroom/shared';
import { call } from '../apps/server/test/helpers/api';
import { generateAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, signInAt } from './helpers/browser';

/**
 * The AI tools in Chromium: Tia, with credits, uploads a short generated mix (a centred "voice" over
 * a wide "band"), runs Stem Separation with two stems, watches the task go PENDING/RUNNING to
 * COMPLETED in My Tasks, plays an output, downloads it under the spec's name and deletes the task.
 * A second task started while the first is still active is refused with the spec's words.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
/** Tia's balance once credited (her plan's monthly grant and the administrator's 20). */
let balance = 0;
const account = { email: 'tia@tools-e2e.test', password: 'tia-password-long', displayName: 'Tia Tools' };
const dir = mkdtempSync(join(tmpdir(), 'mixroom-tools-e2e-'));
/** Stereo: 440 Hz in both channels (the centre, a voice) and 110 Hz in opposite phase (the sides, music). */
const mixOf = (name: string, seconds: number) =>
  generateAudio(
    join(dir, name),
    `aevalsrc=0.3*sin(2*PI*440*t)+0.25*sin(2*PI*110*t)|0.3*sin(2*PI*440*t)-0.25*sin(2*PI*110*t):s=44100:d=${seconds}`,
  );
/** A minute: long enough that the first task still runs when the second is tried, on any machine. */
const mix = mixOf('Mix.wav', 60);
const short = mixOf('Short take.wav', 6);
/** Screenshots at the desktop and the phone width, when asked for (MIXROOM_E2E_SHOTS=folder). */
const shots = process.env.MIXROOM_E2E_SHOTS;

/** Two animation frames: what the last state change drew is on screen. */
const painted = () =>
  page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

async function shoot(name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await painted();
  await page.screenshot({ path: join(shots, `${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 420, height: 900 });
  await painted();
  await page.screenshot({ path: join(shots, `${name}-420.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await painted();
}

beforeAll(async () => {
  server = await startTestServer();
  const admin = (
    await signInThroughOidc(server.url, { email: 'admin@tools-e2e.test', password: 'admin-password-long' })
  ).access_token;
  const token = (await signInThroughOidc(server.url, account)).access_token;
  const id = ((await call(server.url, '/api/me', { token })).body as { id: string }).id;
  const credits = await call(server.url, `/api/admin/users/${id}/credits`, {
    method: 'POST',
    token: admin,
    body: { amount: 20, reason: 'tools e2e' },
  });
  expect(credits.status).toBeLessThan(300);
  balance = ((await call(server.url, '/api/credits', { token })).body as { balance: number }).balance;
  expect(balance).toBeGreaterThanOrEqual(20);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
  if (process.env.DEBUG_TOOLS) page.on('console', (m) => console.log('[page]', m.type(), m.text()));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the AI tools in Chromium', () => {
  it('separates the stems of an uploaded mix and shows the task live in My Tasks', async () => {
    await signInAt(page, server.url, '/tools', account);
    await page.getByTestId('tool-card-stemseparation').waitFor();
    await page.getByTestId('tool-card-revoice').waitFor();
    await shoot('tools');

    // Voice Conversion: six voices, Roberto chosen by default, each said to be a preset.
    await page.getByTestId('tool-card-revoice').click();
    await page.getByTestId('voice-roberto').getByText('Selected').waitFor();
    expect(await page.locator('[data-testid^="voice-"]').count()).toBe(6);
    await page.getByTestId('voice-susy').getByRole('button', { name: 'Choose' }).click();
    await page.getByTestId('voice-susy').getByText('Selected').waitFor();
    await shoot('tools-revoice');
    await page.goto(`${server.url}/tools`);

    await page.getByTestId('tool-card-stemseparation').click();
    await page.waitForURL('**/tools/stemseparation');
    await page.getByText(/Credits: 5 needed out of \d+ remaining/).waitFor();
    expect(await page.getByTestId('tools-credits').innerText()).toBe(TOOLS_MESSAGES.credits(balance));
    await page.getByText('Drop an audio file here or click to choose one').waitFor();

    // A file of another kind is refused with the spec's words, and nothing is chosen.
    await page
      .getByTestId('tools-file-input')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await page.getByText(TOOLS_MESSAGES.extension()).waitFor();
    await page.keyboard.press('Escape');

    await page.getByTestId('tools-file-input').setInputFiles(mix);
    await expect.poll(() => page.getByTestId('tools-chosen-name').innerText()).toBe('Mix.wav');
    await page.getByRole('button', { name: 'Change File' }).waitFor();
    // The local preview: decoded in the browser, drawn, playable.
    await page.locator('[data-testid="tools-input-player"][data-ready="true"]').waitFor();
    await page.getByTestId('tools-peak-meter').waitFor();
    await page.getByRole('radio', { name: 'Voice + Music', exact: true }).check();
    await shoot('tools-stemseparation');

    await page.getByTestId('tools-process').click();
    await page.waitForURL('**/tools/history', { timeout: 60_000 });
    const card = page.getByTestId('tools-task').first();
    await card.getByText('Stemseparation Task - TWOSTEMS - Mix.wav').waitFor();
    const first = await card.getByTestId('tools-task-status').innerText();
    expect(['PENDING', 'RUNNING', 'COMPLETED']).toContain(first);

    // A second task while the first (a minute of audio) is still active: refused with the spec's
    // words, and nothing is started.
    expect(first).not.toBe('COMPLETED');
    await page.goto(`${server.url}/tools/stemseparation`);
    await page.getByTestId('tools-file-input').setInputFiles(short);
    await page.getByTestId('tools-process').click();
    const refused = page.getByRole('dialog', { name: TOOLS_MESSAGES.busyTitle });
    await refused.getByText(TOOLS_MESSAGES.busy).waitFor();
    await refused.getByRole('button', { name: 'OK' }).click();
    await page.goto(`${server.url}/tools/history`);

    await page.locator('[data-testid="tools-task"][data-status="COMPLETED"]').first().waitFor({ timeout: 150_000 });
    expect(await page.getByTestId('tools-task').count()).toBe(1);
    const done = page.getByTestId('tools-task').first();
    await done.getByTestId('tools-engine').first().waitFor();
    expect(await done.getByTestId('tools-engine').first().innerText()).toMatch(
      /built-in \(signal processing\)|model: |remote: /,
    );
    await shoot('tools-history');

    // Plays an output from its waveform player.
    const player = done.locator('[data-testid="tools-output-player-vocals"]');
    await done.locator('[data-testid="tools-output-player-vocals"][data-ready="true"]').waitFor();
    await player.getByRole('button', { name: 'Play' }).click();
    const playing = await page
      .waitForFunction(
        () =>
          (document.querySelector('[data-testid="tools-output-player-vocals"] audio') as HTMLAudioElement).currentTime >
          0.2,
        undefined,
        { timeout: 20_000 },
      )
      .then(() => true)
      .catch(() => false);
    if (!playing)
      console.log(
        await page.evaluate(() => {
          const a = document.querySelector('[data-testid="tools-output-player-vocals"] audio') as HTMLAudioElement;
          return JSON.stringify({
            src: a.currentSrc,
            ready: a.readyState,
            net: a.networkState,
            error: a.error?.message,
            code: a.error?.code,
            paused: a.paused,
          });
        }),
      );
    expect(playing).toBe(true);
    await player.getByRole('button', { name: 'Pause' }).click();

    // Downloads it under the spec's name ('{name}_vocals.m4a', the name the server gives the output).
    const fileName = (
      await done
        .getByTestId('tools-output-vocals')
        .getByRole('button', { name: /_vocals\.m4a$/ })
        .innerText()
    ).trim();
    expect(fileName).toMatch(/^.+_vocals\.m4a$/);
    const download = page.waitForEvent('download');
    await done.getByRole('button', { name: fileName }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(fileName);
    const saved = join(dir, 'vocals.m4a');
    await file.saveAs(saved);
    expect(statSync(saved).size).toBeGreaterThan(1000);

    // Delete, confirmed: the spec's toast, and the history is empty again.
    await done.getByRole('button', { name: /^Delete Stemseparation Task/ }).click();
    await page.getByRole('dialog', { name: 'Delete task' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText(TOOLS_MESSAGES.deleted).waitFor();
    await page.getByTestId('tools-empty').waitFor();
  }, 240_000);

  it('separates a library version from its screen and saves the stems as its attachments, which play there', async () => {
    const token = (await signInThroughOidc(server.url, account)).access_token;
    const library = storageClient(server.url, token);
    const { ticket } = await library.upload(short, null);
    const projectId = ticket.project.id;
    await waitFor(async () => (await library.project(projectId)).versions[0]?.status === 'ready', {
      what: 'the take processed',
    });

    await page.goto(`${server.url}/version/${projectId}/1`);
    await page.getByRole('button', { name: 'AI tools for this version' }).click();
    await page.getByRole('menuitem', { name: 'Separate stems' }).click();
    await page.waitForURL('**/tools/stemseparation?**');
    await expect.poll(() => page.getByTestId('tools-chosen-name').innerText()).toContain('Short take');
    await page.getByRole('radio', { name: 'Voice + Music', exact: true }).check();
    await page.getByTestId('tools-process').click();
    await page.waitForURL('**/tools/history');
    const done = page.locator('[data-testid="tools-task"][data-status="COMPLETED"]').first();
    await done.waitFor({ timeout: 90_000 });

    await done.getByRole('button', { name: 'Save to library' }).click();
    await page.getByRole('menuitem', { name: 'As attachments of the version' }).click();
    await page.getByText(/2 files added as attachments/).waitFor();

    await page.goto(`${server.url}/version/${projectId}/1`);
    await page.getByRole('button', { name: /Attachments/ }).click();
    const vocals = page.locator('[data-testid="attachment"]').filter({ hasText: '_vocals', hasNotText: '_no_vocals' });
    // Attachments go through the media job like any upload: playable once it finished.
    await vocals.getByRole('button', { name: /^Play / }).waitFor({ timeout: 60_000 });
    await vocals.getByRole('button', { name: /^Play / }).click();
    await page.waitForFunction(
      () => (document.querySelector<HTMLAudioElement>('[data-testid="attachment-audio"]')?.currentTime ?? 0) > 0.2,
      undefined,
      { timeout: 20_000 },
    );
    expect(await page.locator('[data-testid="attachment"]').filter({ hasText: '_no_vocals' }).count()).toBe(1);
  }, 180_000);
});
