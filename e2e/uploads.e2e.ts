import { copyFileSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAudio, makeAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, screenshot, signInAt } from './helpers/browser';

const account = { email: 'ana@uploads.example.com', password: 'ana-password-1', displayName: 'Ana Mixer' };

let server: TestServer;
let browser: Browser;
let page: Page;
let api: ReturnType<typeof storageClient>;
let big: string;
let abandoned: string;
let projectId: string;

const activity = (name: string) => page.locator('[data-testid="activity"]', { hasText: name });
const fileInput = () => page.locator('input[type="file"]:not([webkitdirectory])').first();
const partNumberOf = (url: string) => new URL(url).searchParams.get('p');
const isPartPut = (url: URL) => url.pathname === '/api/blob/part';
const PART_SIZE = 16 * 1024 * 1024;

/** Lets part 1 through and holds every other part until the page goes away: an upload stuck a third of the way. */
async function holdPartsAfterFirst(): Promise<{ held: Route[] }> {
  const held: Route[] = [];
  await page.route(isPartPut, (route) => {
    if (partNumberOf(route.request().url()) === '1') return route.continue();
    held.push(route);
  });
  return { held };
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-uploads-'));
  // Four minutes of 44.1 kHz stereo WAV: 42 MB, three 16 MiB parts.
  big = generateAudio(join(dir, 'Big Mix.wav'), 'sine=frequency=330:sample_rate=44100:duration=240');
  abandoned = join(dir, 'Abandoned Mix.wav');
  copyFileSync(big, abandoned);
  server = await startTestServer();
  api = storageClient(server.url, (await signInThroughOidc(server.url, account)).access_token);
  const { ticket } = await api.upload(makeAudio('Reference.wav', { dir, seconds: 2 }), null);
  projectId = ticket.project.id;
  await waitFor(async () => (await api.project(projectId)).versions[0]?.status === 'ready', {
    what: 'processing',
    timeoutMs: 60_000,
  });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  // Signed out, /groups shows the landing page; deeper paths send to sign-in and back.
  await signInAt(page, server.url, `/version/${projectId}/1`, account);
  await page.goto(`${server.url}/groups`);
  await page.locator('[data-testid="tile"][data-name="Reference"]').waitFor();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('uploads through the one orchestrator', () => {
  it('resumes after a reload from the parts the server holds, sending only the missing ones', async () => {
    const { held } = await holdPartsAfterFirst();
    const partOneRecorded = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && /\/api\/uploads\/[^/]+\/parts\/1$/.test(r.url()),
    );
    await fileInput().setInputFiles(big);
    await partOneRecorded;
    await waitFor(() => held.length === 2, { what: 'parts 2 and 3 to be on their way' });
    // Reloaded while parts 2 and 3 are still held: removing the route first would let them through.
    await page.reload();
    await page.unroute(isPartPut);

    await activity('Big Mix.wav').getByText('Upload interrupted. Choose Big Mix.wav again to resume it.').waitFor();
    const percent = Math.floor((PART_SIZE / statSync(big).size) * 100);
    await expect(activity('Big Mix.wav').innerText()).resolves.toMatch(new RegExp(`Error\\s*${percent}%`, 'i'));
    await screenshot(page, 'uploads-interrupted');
    // Toasts stack above the panel instead of covering it.
    const corner = await page.evaluate(() => ({
      panelTop: document.querySelector('[aria-label="Activities"]')!.getBoundingClientRect().top,
      toastsBottom: document
        .querySelector('.mantine-Notifications-root[data-position="bottom-right"]')!
        .getBoundingClientRect().bottom,
    }));
    expect(corner.toastsBottom).toBeLessThanOrEqual(corner.panelTop);
    const sentParts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && isPartPut(new URL(request.url())))
        sentParts.push(partNumberOf(request.url()) ?? '?');
    });
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      activity('Big Mix.wav').getByRole('button', { name: 'Resume Big Mix.wav' }).click(),
    ]);
    await chooser.setFiles(big);
    await activity('Big Mix.wav').getByText('Finished').waitFor({ timeout: 60_000 });
    expect(sentParts.sort()).toEqual(['2', '3']);
    await page.locator('[data-testid="tile"][data-name="Big Mix"] img').waitFor({ timeout: 60_000 });
    await activity('Big Mix.wav').waitFor({ state: 'detached' });
  });

  it('cancels from the Activities panel: the server drops the upload and its project', async () => {
    await holdPartsAfterFirst();
    const partOneRecorded = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && /\/api\/uploads\/[^/]+\/parts\/1$/.test(r.url()),
    );
    await fileInput().setInputFiles(abandoned);
    await partOneRecorded;
    await page.locator('[data-testid="tile"][data-name="Abandoned Mix"]').waitFor();
    const cancelled = page.waitForResponse((r) => /\/api\/versions\/[^/]+\/cancel$/.test(r.url()));
    await activity('Abandoned Mix.wav').getByRole('button', { name: 'Cancel Abandoned Mix.wav' }).click();
    expect((await cancelled).status()).toBe(204);
    await activity('Abandoned Mix.wav').waitFor({ state: 'detached' });
    // Gone from the listing the server answers after the cancel: the project was deleted, not hidden.
    await page.locator('[data-testid="tile"][data-name="Abandoned Mix"]').waitFor({ state: 'detached' });
    await page.unroute(isPartPut);
  });

  it('uploads attachments with progress in the Activities panel', async () => {
    await page.goto(`${server.url}/version/${projectId}/1`);
    await page.getByRole('button', { name: /Attachments/ }).click();
    await page.getByText('No items here').waitFor();
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'New Item' }).click(),
    ]);
    await chooser.setFiles({ name: 'Lyrics.txt', mimeType: 'text/plain', buffer: Buffer.from('Verse one\nChorus\n') });
    await activity('Lyrics.txt').waitFor();
    await page.locator('[data-testid="attachment"][data-name="Lyrics"]').waitFor();
    await screenshot(page, 'uploads-attachment');
    // Finished entries leave the panel; failed ones would stay with their error.
    await activity('Lyrics.txt').waitFor({ state: 'detached' });
  });
});
