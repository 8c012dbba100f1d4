import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/helpers/api';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { LocalDropboxServer } from '../apps/server/test/helpers/fake-dropbox-server';
import { LocalOAuthServer } from '../apps/server/test/helpers/oauth-server';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { unzip } from '../apps/server/test/helpers/unzip';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { startWebdav, type TestWebdav } from '../apps/server/test/helpers/webdav';
import { launchBrowser, screenshot, signInAt } from './helpers/browser';

let server: TestServer;
let dav: TestWebdav;
let dropboxAuth: LocalOAuthServer;
let dropbox: LocalDropboxServer;
let browser: Browser;
let page: Page;
let token: string;
let sourceSize: number;
const ana = { email: 'ana@connectors.test', password: 'ana-password-long', displayName: 'Ana Mixer' };

beforeAll(async () => {
  dav = await startWebdav();
  const album = join(dav.directory, 'Sessions', 'Album Two — a very long folder name that must not break the layout');
  mkdirSync(album, { recursive: true });
  sourceSize = statSync(makeAudio('Final Mix.wav', { seconds: 6, dir: album })).size;
  makeAudio('Stem Bass.flac', { seconds: 2, dir: album, codec: 'flac' });
  makeAudio('notes.txt.wav', { seconds: 1, dir: join(dav.directory, 'Sessions') });
  // Dropbox: a local OAuth server and a local server following Dropbox's documented API.
  dropboxAuth = await new LocalOAuthServer({
    clientId: 'e2e-app',
    clientSecret: 'e2e-secret',
    clientAuth: 'basic',
    now: () => Date.now(),
  }).start();
  dropboxAuth.consentAs = 'ana';
  dropbox = await new LocalDropboxServer(dropboxAuth, {
    ana: { displayName: 'Ana Mixer', email: 'ana@dropbox.example' },
  }).start();
  dropbox.put('/Takes/Vocal take.wav', readFileSync(makeAudio('Vocal take.wav', { seconds: 1, dir: dav.directory })));
  // The provider sends the browser back to PUBLIC_URL/settings, which defaults to the page's origin.
  server = await startTestServer({
    CONNECTORS_ENABLED: 'webdav,s3,dropbox',
    CONNECTORS_ALLOW_HOSTS: '127.0.0.1',
    CONNECTORS_DROPBOX_CLIENT_ID: 'e2e-app',
    CONNECTORS_DROPBOX_CLIENT_SECRET: 'e2e-secret',
    CONNECTORS_DROPBOX_AUTH_URL: `${dropboxAuth.url}/authorize`,
    CONNECTORS_DROPBOX_TOKEN_URL: `${dropboxAuth.url}/token`,
    CONNECTORS_DROPBOX_API_URL: dropbox.url,
    CONNECTORS_DROPBOX_CONTENT_URL: dropbox.url,
  });
  token = (await signInThroughOidc(server.url, ana)).access_token;
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInAt(page, server.url, '/settings', ana);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await Promise.all([dav?.stop(), dropbox?.stop(), dropboxAuth?.stop()]);
});

describe('connectors in the browser', () => {
  it('links a WebDAV account in Settings, after a wrong password is refused in the dialog', async () => {
    const row = page.getByTestId('connector-webdav');
    await row.getByText('Not linked').waitFor();
    await page.getByTestId('connector-s3').getByRole('button', { name: 'Link' }).waitFor();
    await row.getByRole('button', { name: 'Link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link Nextcloud / WebDAV' });
    await dialog.getByLabel('WebDAV address').fill(dav.url);
    await dialog.getByLabel('User name').fill(dav.username);
    await dialog.getByLabel('App password').fill('wrong-password');
    await dialog.getByRole('button', { name: 'Link' }).click();
    await dialog.getByText(/refused these credentials/).waitFor();
    await screenshot(page, 'connectors-link-refused');
    await dialog.getByLabel('App password').fill(dav.password);
    await dialog.getByRole('button', { name: 'Link' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText(`alice on 127.0.0.1:${new URL(dav.url).port}`).waitFor();
    await row.getByRole('button', { name: 'Unlink' }).waitFor();
    await screenshot(page, 'connectors-settings-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await row.getByRole('button', { name: 'Unlink' }).scrollIntoViewIfNeeded();
    // The card fits the phone's width: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'connectors-settings-390');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('links Dropbox through its consent page and comes back to Settings with the account', async () => {
    const row = page.getByTestId('connector-dropbox');
    await row.getByRole('button', { name: 'Link' }).click();
    // Link → the provider's consent page (automatic here) → back to Settings, which finishes the link.
    await row.getByText('ana@dropbox.example').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).search).toBe('');
    await screenshot(page, 'connectors-dropbox-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await row.getByRole('button', { name: 'Unlink' }).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'connectors-dropbox-390', { fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 60_000);

  it('New Project → Project from File → a file from the linked folder → the project plays', async () => {
    await page.goto(`${server.url}/groups`);
    await page.getByRole('button', { name: 'New' }).click();
    await page.getByRole('menuitem', { name: 'New Audio Project' }).click();
    const wizard = page.getByRole('dialog', { name: 'New Project' });
    await wizard.getByText('Project from File').click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByLabel('Project name').fill('Cloud Album');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Step 2/3').waitFor();
    await wizard.getByRole('tab', { name: 'This computer' }).waitFor();
    // Dropbox is listed like the others.
    await wizard.getByRole('tab', { name: 'Dropbox' }).click();
    await wizard.locator('[data-entry="Takes"]').waitFor();
    // Dropbox searches the whole account: a hit names the folder it is in, which a click opens.
    await wizard.getByPlaceholder('Search all of Dropbox by name').fill('vocal');
    const where = wizard.locator('[data-folder-of="Vocal take.wav"]');
    await expect.poll(() => where.textContent()).toBe('in Takes');
    await where.click();
    await wizard.locator('[data-entry="Vocal take.wav"]').waitFor();
    expect(await wizard.getByLabel('Search by name').inputValue()).toBe('');
    await wizard.locator('[data-folder-of]').waitFor({ state: 'detached' });
    await screenshot(page, 'connectors-browser-dropbox-1440', { fullPage: false });
    await wizard.getByRole('tab', { name: 'Nextcloud / WebDAV' }).click();
    await wizard.locator('[data-entry="Sessions"]').click();
    await wizard.locator('[data-entry^="Album Two"]').click();
    await wizard.locator('[data-entry="Final Mix.wav"]').waitFor();
    // Each audio file's length shows before anything is played: the server read its header.
    await expect.poll(() => wizard.locator('[data-duration-of="Final Mix.wav"]').textContent()).toBe('0:06');
    await expect.poll(() => wizard.locator('[data-duration-of="Stem Bass.flac"]').textContent()).toBe('0:02');
    // Only audio can be picked; WebDAV has no search, so the filter narrows the open folder and says so.
    await wizard.getByLabel('Filter by name').fill('stem');
    await wizard.getByText(/offers no search here/).waitFor();
    await wizard.locator('[data-entry="Final Mix.wav"]').waitFor({ state: 'detached' });
    await wizard.locator('[data-entry="Stem Bass.flac"]').waitFor();
    await wizard.getByLabel('Filter by name').fill('');
    await wizard.locator('[data-entry="Final Mix.wav"]').click();
    await wizard.getByText('Selected:').waitFor();
    // Heard before it is imported: ▶ streams it through the server from WebDAV, and it plays.
    await wizard.locator('[data-preview-of="Final Mix.wav"]').click();
    const preview = wizard.getByTestId('connector-preview');
    await preview.getByText('Final Mix.wav').waitFor();
    const heard = () => preview.locator('audio').evaluate((a: HTMLAudioElement) => !a.paused && a.currentTime > 0.3);
    await expect.poll(heard, { timeout: 30_000 }).toBe(true);
    // Its duration on the row and in the preview.
    await expect.poll(() => wizard.locator('[data-duration-of="Final Mix.wav"]').textContent()).toBe('0:06');
    await expect.poll(() => preview.getByTestId('preview-time').textContent()).toMatch(/\/ 0:06$/);
    await screenshot(page, 'connectors-browser-1440', { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'connectors-browser-390', { fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });
    // P on another audio row previews it instead; the choice made stays as it was.
    await wizard.locator('[data-entry="Stem Bass.flac"]').focus();
    await page.keyboard.press('p');
    await preview.getByText('Stem Bass.flac').waitFor();
    await expect.poll(() => wizard.locator('[data-duration-of="Stem Bass.flac"]').textContent()).toBe('0:02');
    await wizard.getByText('Selected:').waitFor();
    await preview.getByRole('button', { name: 'Close preview' }).click();
    await preview.waitFor({ state: 'detached' });
    await wizard.getByRole('button', { name: 'Next' }).click();
    await expect(wizard.getByLabel('Version name').inputValue()).resolves.toBe('Final Mix');
    await wizard.getByRole('button', { name: 'Finish' }).click();

    const view = page.getByRole('dialog', { name: 'Cloud Album' });
    await view.getByText('v1', { exact: true }).waitFor({ timeout: 60_000 });
    await view.locator('[data-testid="version-row"]').first().getByText(/LUFS/).waitFor({ timeout: 120_000 });
    // "Save to…": the version goes back to a folder of the linked account, copied by the server.
    await view.getByRole('button', { name: 'Actions for version 1' }).click();
    await page.getByRole('menuitem', { name: 'Save to…' }).click();
    const saveTo = page.getByRole('dialog', { name: 'Save to…' });
    await saveTo.getByRole('tab', { name: 'Nextcloud / WebDAV' }).click();
    await saveTo.getByText('Into: /', { exact: true }).waitFor();
    await saveTo.getByRole('button', { name: 'Save here' }).click();
    await saveTo.waitFor({ state: 'detached' });
    await waitFor(
      () =>
        existsSync(join(dav.directory, 'Final Mix.wav')) &&
        statSync(join(dav.directory, 'Final Mix.wav')).size === sourceSize,
      {
        what: 'the saved copy on the WebDAV server',
        timeoutMs: 60_000,
      },
    );
    // New Version from a linked account: the same browser, in a dialog of the project view.
    await page.setViewportSize({ width: 390, height: 844 });
    await view.getByRole('button', { name: 'From storage…' }).waitFor();
    await screenshot(page, 'connectors-project-view-390', { fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });
    await view.getByRole('button', { name: 'From storage…' }).click();
    const pick = page.getByRole('dialog', { name: 'Pick a file' });
    await pick.getByRole('tab', { name: 'Dropbox' }).click();
    await pick.locator('[data-entry="Takes"]').click();
    await pick.locator('[data-entry="Vocal take.wav"]').click();
    await screenshot(page, 'connectors-new-version-1440', { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'connectors-new-version-390', { fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });
    await pick.getByRole('button', { name: 'Use this file' }).click();
    await expect(view.getByLabel('Version name').inputValue()).resolves.toBe('Vocal take');
    await view.getByRole('button', { name: 'Upload' }).click();
    await view.getByText('v2', { exact: true }).waitFor({ timeout: 60_000 });
    await page.keyboard.press('Escape');
    const listing = await call(server.url, '/api/groups/root/items', { token });
    const project = (listing.body.items as { id: string; name: string }[]).find((i) => i.name === 'Cloud Album');
    await page.goto(`${server.url}/version/${project!.id}/1`);
    await page.locator('[data-testid="waveform"] canvas').first().waitFor({ timeout: 60_000 });
    await page.getByTestId('play-pause').click();
    await expect.poll(() => page.getByTestId('current-time').innerText(), { timeout: 30_000 }).not.toMatch(/^0:00\.00/);
  }, 300_000);

  it('Stem Separation takes its input from the linked folder: the server copies it and the task runs', async () => {
    await page.goto(`${server.url}/tools/stemseparation`);
    await page.getByRole('tab', { name: 'Linked storage' }).click();
    await page.getByRole('tab', { name: 'Nextcloud / WebDAV' }).click();
    await page.locator('[data-entry="Sessions"]').click();
    await page.locator('[data-entry^="Album Two"]').click();
    await page.locator('[data-entry="Stem Bass.flac"]').click();
    await expect.poll(() => page.getByTestId('tools-chosen-name').innerText()).toBe('Stem Bass.flac');
    await page.getByText('The server copies the file from your linked storage when you press Process').waitFor();
    await screenshot(page, 'connectors-tools-linked-1440', { fullPage: false });
    await page.getByTestId('tools-process').click();
    await page.waitForURL('**/tools/history', { timeout: 60_000 });
    await page.getByTestId('tools-task').first().getByText('Stemseparation Task - TWOSTEMS - Stem Bass.flac').waitFor();
    const tasks = await call(server.url, '/api/tools/tasks', { token });
    expect((tasks.body.items as { input: { source: string } }[]).map((t) => t.input.source)).toEqual(['connector']);
  }, 120_000);

  /** The open menu once its opening transition ended (a screenshot mid-fade shows it half drawn). */
  const menuShown = () =>
    expect.poll(() => page.getByRole('menu').evaluate((menu) => getComputedStyle(menu).opacity)).toBe('1');

  it('Save to… on a folder: the folder goes to a picked WebDAV folder as one ZIP; Activities shows it done', async () => {
    const client = storageClient(server.url, token);
    const folder = await client.createFolder('Mix Folder', null);
    const sub = await client.createFolder('Stems', folder.id);
    await client.upload(makeAudio('Bass stem.wav', { seconds: 1, dir: dav.directory }), sub.id);
    await client.upload(makeAudio('Rough mix.wav', { seconds: 1, dir: dav.directory }), folder.id);
    await page.goto(`${server.url}/groups`);
    await page.getByRole('button', { name: 'Actions for Mix Folder' }).click();
    const item = page.getByRole('menuitem', { name: 'Save to…' });
    await item.waitFor();
    await menuShown();
    await screenshot(page, 'connectors-folder-menu-1440', { fullPage: false });
    await item.click();
    const dialog = page.getByRole('dialog', { name: 'Save to…' });
    await dialog.getByRole('tab', { name: 'Nextcloud / WebDAV' }).click();
    await dialog.locator('[data-entry="Sessions"]').click();
    await dialog.getByText('Into: /Sessions').waitFor();
    await screenshot(page, 'connectors-save-folder-1440', { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    // The dialog fits the phone's width once it has laid out again: nothing scrolls sideways.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'connectors-save-folder-390', { fullPage: false });
    await dialog.getByRole('button', { name: 'Save here' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .locator('[data-testid="activity"]', { hasText: 'Mix Folder.zip' })
      .getByText('Finished')
      .waitFor({ timeout: 60_000 });
    // The folder and its sub-folder, each project as its file.
    const zip = await unzip(readFileSync(join(dav.directory, 'Sessions', 'Mix Folder.zip')));
    expect([...zip.keys()].sort()).toEqual(['Mix Folder/Rough mix.wav', 'Mix Folder/Stems/Bass stem.wav']);
    await page.getByRole('button', { name: 'Actions for Mix Folder' }).click();
    await page.getByRole('menuitem', { name: 'Save to…' }).waitFor();
    await menuShown();
    await screenshot(page, 'connectors-folder-menu-390', { fullPage: false });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 120_000);
});
