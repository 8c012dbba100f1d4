import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAudio, referenceLoudness } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { inviteOf } from '../apps/server/test/helpers/invite';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, screenshot, signInAt } from './helpers/browser';

let server: TestServer;
let browser: Browser;
let ana: Page;
let bob: Page;
let bobContext: BrowserContext;
let wav: string;
let projectId: string;
let anaApi: ReturnType<typeof storageClient>;
let folderId: string;
const accounts = {
  ana: { email: 'ana@review.example.com', password: 'ana-password-1', displayName: 'Ana Mixer' },
  bob: { email: 'bob@review.example.com', password: 'bob-password-1', displayName: 'Bob Producer' },
};

/** Ten minutes of stereo 24-bit 48 kHz pink noise that swells and fades: a waveform with a shape. */
function tenMinuteMix(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-review-'));
  return generateAudio(join(dir, 'Night Drive.wav'), 'anoisesrc=d=600:c=pink:r=48000:a=0.5', [
    '-af',
    "volume='0.15+0.85*abs(sin(t/9))':eval=frame",
    '-c:a',
    'pcm_s24le',
  ]);
}

const comment = (page: Page, text: string) => page.locator('[data-testid="comment"]', { hasText: text });

beforeAll(async () => {
  wav = tenMinuteMix();
  server = await startTestServer();
  const anaToken = (await signInThroughOidc(server.url, accounts.ana)).access_token;
  const bobToken = (await signInThroughOidc(server.url, accounts.bob)).access_token;
  anaApi = storageClient(server.url, anaToken);
  const folder = await anaApi.createFolder('Album', null);
  folderId = folder.id;
  const { ticket } = await anaApi.upload(wav, folder.id);
  projectId = ticket.project.id;
  const bobApi = storageClient(server.url, bobToken);
  await bobApi.api('/api/join-requests', {
    method: 'POST',
    body: { type: 'group', id: folder.id, invite: await inviteOf(anaApi, 'group', folder.id) },
  });
  const bobId = JSON.parse(Buffer.from(bobToken.split('.')[1]!, 'base64url').toString()).sub as string;
  await anaApi.api(`/api/join-requests/${folder.id}/${bobId}/approve`, { method: 'POST' });
  // Ready and with its lossy preview, which Bob (a viewer, downloads off) streams.
  await waitFor(async () => (await anaApi.project(projectId)).versions[0]?.progress === 100, {
    what: 'processing',
    // Ten minutes of audio: seconds on a quiet machine, minutes while other work holds both cores.
    timeoutMs: 240_000,
  });

  browser = await launchBrowser();
  ana = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
  bobContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  bob = await bobContext.newPage();
  await signInAt(ana, server.url, `/version/${projectId}/1`, accounts.ana);
  await signInAt(bob, server.url, `/version/${projectId}/1`, accounts.bob);
}, 330_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the version review screen in Chromium', () => {
  it('draws the waveform from server peaks with its header, minimap and timeline, and plays', async () => {
    await ana.locator('[data-testid="waveform"] canvas').first().waitFor();
    await ana.locator('[data-testid="minimap"] canvas').first().waitFor();
    await expect
      .poll(() => ana.getByTestId('media-header').innerText())
      .toMatch(/Stereo\s*WAV\s*10:00\s*48 kHz · 24-bit/i);
    await expect.poll(() => ana.getByTestId('current-time').innerText()).toContain('0:00.00 / 10:00.00');
    await ana.getByTestId('play-pause').click();
    await expect.poll(() => ana.getByTestId('current-time').innerText(), { timeout: 15_000 }).not.toMatch(/^0:00\.00/);
    await ana.getByRole('button', { name: 'Pause' }).click();
    // Seeking past the first minute streams from the middle of the file (Range requests).
    await ana.getByRole('button', { name: 'Skip forward 15 seconds' }).click();
    await expect
      .poll(async () => Number(/^0:(\d\d)/.exec(await ana.getByTestId('current-time').innerText())?.[1]))
      .toBeGreaterThanOrEqual(15);
    await screenshot(ana, 'review-player');
  });

  it('posts timestamp and range comments that a collaborator sees live, and replies', async () => {
    await ana.getByRole('button', { name: 'Post comment' }).click();
    await ana.getByText('Please add some text to your comment').waitFor();

    await ana.getByRole('button', { name: 'Timestamp comment' }).click();
    await ana.getByTestId('draft-marker').waitFor();
    await ana.getByLabel('Comment', { exact: true }).fill('Snare is too loud here');
    await ana.getByRole('button', { name: 'Post comment' }).click();
    await comment(ana, 'Snare is too loud here').waitFor();

    await ana.getByRole('button', { name: 'Range comment' }).click();
    await expect.poll(() => ana.getByTestId('draft-label').innerText()).toMatch(/^Range 0:\d\d\.\d\d – 0:\d\d\.\d\d/);
    await ana.getByLabel('Comment', { exact: true }).fill('Love the build in this section');
    await ana.getByRole('button', { name: 'Post comment' }).click();
    await comment(ana, 'Love the build in this section').waitFor();
    expect(await comment(ana, 'Love the build in this section').getByTestId('comment-time').innerText()).toMatch(
      /^0:\d\d\.\d\d – 0:\d\d\.\d\d$/,
    );

    // Bob's page was open all along: both appear without a reload, newest first, with markers.
    await comment(bob, 'Love the build in this section').waitFor();
    await comment(bob, 'Snare is too loud here').waitFor();
    expect(await bob.getByTestId('comment-text').allInnerTexts()).toEqual([
      'Love the build in this section',
      'Snare is too loud here',
    ]);
    await expect.poll(() => bob.getByTestId('comment-marker').count()).toBeGreaterThanOrEqual(1);

    await comment(bob, 'Snare is too loud here').getByRole('button', { name: 'Reply' }).click();
    await bob.getByLabel('Reply', { exact: true }).fill('Agreed, pull it 2 dB');
    await bob.getByRole('button', { name: 'Send reply' }).click();
    await comment(ana, 'Snare is too loud here').getByText('Agreed, pull it 2 dB').waitFor();
    await screenshot(bob, 'review-collaborator');
  });

  it('lets only authors edit and delete, with the spec texts', async () => {
    await expect.poll(() => bob.getByRole('button', { name: 'Actions for comment by Ana Mixer' }).count()).toBe(0);
    await comment(ana, 'Snare is too loud here')
      .getByRole('button', { name: 'Actions for comment by Ana Mixer' })
      .click();
    await ana.getByRole('menuitem', { name: 'Edit' }).click();
    await expect.poll(() => ana.getByLabel('Comment', { exact: true }).inputValue()).toBe('Snare is too loud here');
    await ana.getByLabel('Comment', { exact: true }).fill('Snare is 2 dB too loud here');
    await ana.getByRole('button', { name: 'Post comment' }).click();
    await comment(bob, 'Snare is 2 dB too loud here').waitFor();

    await comment(ana, 'Love the build').getByRole('button', { name: 'Actions for comment by Ana Mixer' }).click();
    await ana.getByRole('menuitem', { name: 'Delete' }).click();
    await ana.getByText('Are you sure you want to delete this comment?').waitFor();
    await ana.getByRole('button', { name: 'Delete', exact: true }).click();
    await ana.getByText('Comment deleted!').waitFor();
    await expect.poll(() => comment(bob, 'Love the build').count()).toBe(0);

    // Bob may edit his reply; Ana may not.
    await expect.poll(() => ana.getByRole('button', { name: 'Actions for reply by Bob Producer' }).count()).toBe(0);
    await expect.poll(() => bob.getByRole('button', { name: 'Actions for reply by Bob Producer' }).count()).toBe(1);
  });

  it('searches comments, seeks to a comment and highlights it, and shows who is online', async () => {
    await ana.getByRole('button', { name: 'Search comments' }).click();
    await ana.getByLabel('Search in comments').fill('pull it');
    await expect.poll(() => ana.getByTestId('comment').count()).toBe(1);
    await ana.getByLabel('Search in comments').fill('nobody wrote this');
    await ana.getByText('No comment matches your search.').waitFor();
    await ana.getByLabel('Search in comments').fill('');
    await comment(ana, 'Snare is 2 dB').getByTestId('comment-text').click();
    await expect.poll(() => comment(ana, 'Snare is 2 dB').getAttribute('data-highlighted')).toBe('true');
    await expect
      .poll(() => comment(ana, 'Snare is 2 dB').getAttribute('data-highlighted'), { timeout: 5000 })
      .toBe('false');
    await expect
      .poll(() => ana.locator('[data-testid="presence-user"][data-state="online"]').count(), { timeout: 40_000 })
      .toBe(2);
  });

  it('saves notes and exports them as a PDF with the same text', async () => {
    await ana.getByRole('button', { name: 'Notes' }).click();
    const editor = ana.locator('[data-testid="notes-editor"] .ProseMirror');
    await editor.click();
    await ana.getByRole('textbox', { name: 'Heading' }).click();
    await ana.getByRole('option', { name: 'Heading 2' }).click();
    await editor.pressSequentially('Mix notes v1');
    await editor.press('Enter');
    await editor.pressSequentially('Vocal up 1 dB in the chorus, de-ess around 6 kHz.');
    await ana.getByRole('button', { name: 'Save' }).click();
    await ana.getByText('Notes Saved').waitFor();
    const [download] = await Promise.all([
      ana.waitForEvent('download'),
      ana.getByRole('button', { name: 'Export as PDF' }).click(),
    ]);
    const pdf = join(mkdtempSync(join(tmpdir(), 'mixroom-notes-')), 'notes.pdf');
    await download.saveAs(pdf);
    const text = spawnSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }).stdout;
    expect(text).toContain('Mix notes v1');
    expect(text).toContain('Vocal up 1 dB in the chorus, de-ess around 6 kHz.');
    await screenshot(ana, 'review-notes');
    await ana.getByRole('button', { name: 'Close' }).click();

    // Bob reads them but cannot edit.
    await bob.getByRole('button', { name: 'Notes' }).click();
    await bob.locator('[data-testid="notes-editor"]').getByText('Vocal up 1 dB in the chorus').waitFor();
    await bob.getByText('You can read these notes; editing needs the editor role on this project.').waitFor();
    await bob.getByRole('button', { name: 'Close' }).click();
  });

  it("shows what ffmpeg's ebur128 measures, against every platform target", async () => {
    const reference = referenceLoudness(wav);
    await ana.getByRole('button', { name: 'Loudness' }).click();
    const integrated = Number((await ana.getByTestId('integrated-loudness').innerText()).replace(' LUFS', ''));
    const truePeak = Number((await ana.getByTestId('true-peak').innerText()).replace(' dBTP', ''));
    expect(Math.abs(integrated - reference.integrated)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(truePeak - reference.truePeak)).toBeLessThanOrEqual(0.1);
    expect((await ana.getByTestId('loudness-row').allInnerTexts()).map((row) => row.split(/[\t\n]/)[0])).toEqual([
      'Spotify',
      'Apple Music',
      'YouTube',
      'Tidal',
      'Amazon Music',
      'Deezer',
    ]);
    // The dialog has finished its entrance when its content is fully opaque.
    await ana.waitForFunction(() => {
      const dialog = document.querySelector('.mantine-Modal-content');
      return dialog !== null && getComputedStyle(dialog).opacity === '1';
    });
    await screenshot(ana, 'review-loudness');
    await ana.keyboard.press('Escape');
  });

  it('adds, lists and deletes attachments, and renders the spectrogram and the meter', async () => {
    await ana.getByRole('button', { name: /Attachments/ }).click();
    await ana.getByText('No items here').waitFor();
    const [chooser] = await Promise.all([
      ana.waitForEvent('filechooser'),
      ana.getByRole('button', { name: 'New Item' }).click(),
    ]);
    await chooser.setFiles({ name: 'Lyrics.txt', mimeType: 'text/plain', buffer: Buffer.from('Verse one\nChorus\n') });
    await ana.locator('[data-testid="attachment"][data-name="Lyrics"]').waitFor();
    await ana.getByRole('button', { name: 'Actions for Lyrics' }).click();
    await ana.getByRole('menuitem', { name: 'Delete Item' }).click();
    await ana.getByRole('button', { name: 'Delete', exact: true }).click();
    await ana.getByText('No items here').waitFor();
    await ana.keyboard.press('Escape');

    await ana.getByRole('button', { name: 'Spectrogram' }).click();
    await ana.locator('[data-testid="spectrogram"]').waitFor({ timeout: 60_000 });
    await ana.getByRole('button', { name: 'Peak meter' }).click();
    await ana.getByTestId('play-pause').click();
    await expect.poll(() => ana.getByTestId('peak-L').innerText(), { timeout: 15_000 }).not.toBe('−∞');
    await ana.getByRole('button', { name: 'Pause' }).click();
    await screenshot(ana, 'review-spectrogram');
  });

  it('offers to delete a corrupt version to whoever may, and sends others back to their groups', async () => {
    const broken = join(mkdtempSync(join(tmpdir(), 'mixroom-broken-')), 'Broken.wav');
    writeFileSync(broken, randomBytes(64 * 1024));
    const { ticket } = await anaApi.upload(broken, folderId);
    await waitFor(async () => (await anaApi.project(ticket.project.id)).versions[0]?.status === 'corrupt', {
      what: 'corrupt',
      timeoutMs: 30_000,
    });

    await bob.goto(`${server.url}/version/${ticket.project.id}/1`);
    await bob
      .getByText(
        'This version appears to be corrupt due to data missing on the storage provider. Please contact the owner of this project.',
      )
      .waitFor();
    await bob.getByRole('button', { name: 'OK' }).click();
    await bob.waitForURL(`${server.url}/groups`);

    await ana.goto(`${server.url}/version/${ticket.project.id}/1`);
    await ana
      .getByText(
        'This version appears to be corrupt due to data missing on your cloud storage provider. Do you wish to delete this version?',
      )
      .waitFor();
    await screenshot(ana, 'review-corrupt');
    await ana.getByRole('button', { name: 'Yes, delete' }).click();
    await ana.getByText('Version Broken has been deleted!').waitFor();
    await ana.waitForURL(`${server.url}/groups`);
    await expect(anaApi.project(ticket.project.id)).rejects.toMatchObject({ status: 404 });
    await bob.goto(`${server.url}/version/${projectId}/1`);
  });

  it('fits a narrow screen', async () => {
    await bob.setViewportSize({ width: 420, height: 900 });
    await bob.locator('[data-testid="waveform"] canvas').first().waitFor();
    await screenshot(bob, 'review-mobile');
    const overflow = await bob.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
