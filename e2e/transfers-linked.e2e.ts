import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferDetail, TransferSummary } from '@mixroom/contracts';
import { call } from '../apps/server/test/helpers/api';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { startWebdav, type TestWebdav } from '../apps/server/test/helpers/webdav';
import { launchBrowser, signInAt } from './helpers/browser';

/**
 * A transfer whose files come from linked storage, in Chromium: Ana links her WebDAV account in
 * Settings, picks two files of it with From linked storage next to one from her computer, and sends
 * the transfer; the server copies the linked files; Rita opens the link and downloads the master,
 * byte for byte the file on the WebDAV server.
 */
let server: TestServer;
let dav: TestWebdav;
let browser: Browser;
let ana: Page;
let rita: Page;
let anaToken = '';
let link = '';
const account = { email: 'ana@linked-e2e.test', password: 'ana-password-long', displayName: 'Ana Mixer' };
/** Screenshots (desktop and phone width) are taken when this names a folder: they cost seconds. */
const shots = process.env.MIXROOM_E2E_SHOTS;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const dir = mkdtempSync(join(tmpdir(), 'mixroom-transfer-linked-e2e-'));
const local = join(dir, 'Liner notes.txt');
writeFileSync(local, 'Liner notes: recorded at the lake house, mixed in March.\n');

async function shoot(page: Page, name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
  );
  // Nothing scrolls sideways at the phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: join(shots, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
  );
}

beforeAll(async () => {
  dav = await startWebdav();
  const deliveries = join(dav.directory, 'Deliveries', 'Album Two with a rather long folder name for the phone');
  mkdirSync(deliveries, { recursive: true });
  makeAudio('Master final.wav', { dir: deliveries, seconds: 6, frequency: 330 });
  makeAudio('Instrumental.wav', { dir: deliveries, seconds: 3, frequency: 220 });
  server = await startTestServer({ CONNECTORS_ENABLED: 'webdav,s3', CONNECTORS_ALLOW_HOSTS: '127.0.0.1' });
  anaToken = (await signInThroughOidc(server.url, account)).access_token;
  browser = await launchBrowser();
  ana = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  rita = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await dav?.stop();
});

describe('a transfer from linked storage', () => {
  it('offers no linked storage before an account is linked, then links WebDAV in Settings', async () => {
    await signInAt(ana, server.url, '/transfer', account);
    await ana.getByRole('button', { name: 'Select Files' }).waitFor();
    expect(await ana.getByRole('button', { name: 'From linked storage' }).count()).toBe(0);

    await ana.goto(`${server.url}/settings`);
    const row = ana.getByTestId('connector-webdav');
    await row.getByRole('button', { name: 'Link' }).click();
    const dialog = ana.getByRole('dialog', { name: 'Link Nextcloud / WebDAV' });
    await dialog.getByLabel('WebDAV address').fill(dav.url);
    await dialog.getByLabel('User name').fill(dav.username);
    await dialog.getByLabel('App password').fill(dav.password);
    await dialog.getByRole('button', { name: 'Link' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Unlink' }).waitFor();
  }, 120_000);

  it('picks two linked files beside one from the computer and sends the transfer; the server copies them', async () => {
    await ana.goto(`${server.url}/transfer`);
    await ana.getByTestId('transfer-files-input').setInputFiles(local);
    await ana.getByRole('button', { name: 'From linked storage' }).click();
    const dialog = ana.getByRole('dialog', { name: 'From linked storage' });
    await dialog.getByRole('tab', { name: 'Nextcloud / WebDAV' }).waitFor();
    await dialog.locator('[data-entry="Deliveries"]').click();
    await dialog.locator('[data-entry^="Album Two"]').click();
    await dialog.locator('[data-entry="Master final.wav"]').click();
    await dialog.locator('[data-entry="Instrumental.wav"]').click();
    await dialog.getByText('2 files ·').waitFor();
    // Both chosen files stay highlighted and selected in the list, not only the last one clicked.
    const chosen = dialog.locator('[role="option"][aria-selected="true"]');
    await expect
      .poll(() => chosen.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-entry'))))
      .toEqual(['Instrumental.wav', 'Master final.wav']);
    await shoot(ana, 'transfer-linked-dialog');
    await dialog.getByRole('button', { name: 'Add to transfer' }).click();
    await dialog.waitFor({ state: 'detached' });

    await ana.getByText('Selected files 3').waitFor();
    const linked = ana.getByTestId('linked-file');
    expect(await linked.count()).toBe(2);
    await linked.filter({ hasText: 'Master final.wav' }).getByLabel('From linked storage').waitFor();
    await ana.getByLabel('Name').fill('Album Two from the cloud');
    await ana.getByLabel('Message').fill('Masters straight from the studio drive.');
    await shoot(ana, 'transfer-linked-draft');

    await ana.getByRole('button', { name: 'Transfer', exact: true }).click();
    const sent = ana.getByRole('dialog', { name: 'Success' });
    await sent.getByText('Your transfer has been sent!').waitFor({ timeout: 60_000 });
    link = await sent.getByRole('textbox', { name: 'Link' }).inputValue();
    await sent.getByRole('button', { name: 'Close' }).click();
    await ana.waitForURL(`${server.url}/transfer/history`);

    const list = (await call(server.url, '/api/transfers', { token: anaToken })).body as { items: TransferSummary[] };
    const id = list.items.find((t) => t.name === 'Album Two from the cloud')!.id;
    const transfer = await waitFor(
      async () => {
        const detail = (await call(server.url, `/api/transfers/${id}`, { token: anaToken })).body as TransferDetail;
        return detail.files.every((f) => f.sha256) ? detail : null;
      },
      { what: 'the checksums', timeoutMs: 30_000 },
    );
    expect(transfer.status).toBe('available');
    expect(transfer.files.map((f) => f.fileName)).toEqual(['Liner notes.txt', 'Master final.wav', 'Instrumental.wav']);
  }, 150_000);

  it('lets Rita download the linked master through the public link, byte for byte the WebDAV file', async () => {
    const url = new URL(link);
    await rita.goto(`${server.url}${url.pathname}${url.search}`);
    await rita.getByRole('heading', { name: 'Album Two from the cloud' }).waitFor();
    await rita.locator('[data-testid="transfer-item"][data-name="Master final.wav"]').click();
    const dialog = rita.getByRole('dialog');
    const source = readFileSync(
      join(dav.directory, 'Deliveries', 'Album Two with a rather long folder name for the phone', 'Master final.wav'),
    );
    await dialog.getByTestId('sha256').waitFor();
    expect(await dialog.getByTestId('sha256').innerText()).toBe(sha(source));
    const download = rita.waitForEvent('download');
    await dialog.getByRole('button', { name: /^Download/ }).click();
    const saved = join(dir, 'got-master.wav');
    await (await download).saveAs(saved);
    expect(sha(readFileSync(saved))).toBe(sha(source));
  }, 90_000);
});
