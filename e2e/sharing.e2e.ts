import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { unzip } from '../apps/server/test/helpers/unzip';
import { fillSignUp, launchBrowser, screenshot } from './helpers/browser';

let server: TestServer;
let browser: Browser;
let anaContext: BrowserContext;
let bobContext: BrowserContext;
let ana: Page;
let bob: Page;
let inviteUrl = '';
let publicUrl = '';

async function signUp(page: Page, name: string, email: string) {
  await page.goto(`${server.url}/public/landing`);
  await page.getByRole('button', { name: 'Get started' }).click();
  await page.waitForURL('**/oidc/interaction/**');
  await fillSignUp(page, { name, email, password: `${name}-password-1` });
  await page.waitForURL(`${server.url}/groups`);
}

const tile = (page: Page, name: string) => page.locator(`[data-testid="tile"][data-name="${name}"]`);

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  anaContext = await browser.newContext({ viewport: { width: 1300, height: 850 } });
  bobContext = await browser.newContext({ viewport: { width: 1300, height: 850 } });
  ana = await anaContext.newPage();
  bob = await bobContext.newPage();
  await signUp(ana, 'Ana', 'ana@share.example');
  await signUp(bob, 'Bob', 'bob@share.example');

  const dir = mkdtempSync(join(tmpdir(), 'mixroom-share-'));
  const song = makeAudio('Groove.wav', { dir, seconds: 3, frequency: 220 });
  await ana.getByRole('button', { name: 'New' }).click();
  await ana.getByRole('menuitem', { name: 'New Folder' }).click();
  await ana.getByLabel('Folder name').fill('Band Stems');
  await ana.getByRole('button', { name: 'Create' }).click();
  await tile(ana, 'Band Stems').dblclick();
  await ana.locator('input[type="file"]:not([webkitdirectory])').first().setInputFiles(song);
  await tile(ana, 'Groove').locator('img').waitFor({ timeout: 90_000 });
  await ana.getByRole('navigation', { name: 'Breadcrumb' }).getByLabel('Home').click();
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

describe('sharing between two people in Chromium', () => {
  it('A shares by invitation link; B asks to join; A approves from the bell, live; B sees the folder', async () => {
    await ana.getByRole('button', { name: 'Actions for Band Stems' }).click();
    await ana.getByRole('menuitem', { name: 'Share' }).click();
    const dialog = ana.getByRole('dialog', { name: 'Share “Band Stems”' });
    inviteUrl = await dialog.getByRole('textbox', { name: /Invitation link/ }).inputValue();
    expect(inviteUrl).toMatch(/\/j\/[A-Za-z0-9_-]+$/);
    await screenshot(ana, 'share-dialog');

    // Before joining, Bob cannot open the folder: he is told so and taken back to his groups.
    await ana.keyboard.press('Escape');
    await tile(ana, 'Band Stems').dblclick();
    await ana.waitForURL(/\/groups\/[0-9a-f-]{36}$/);
    await bob.goto(ana.url());
    await bob.getByText('You are not authorized to access this group').waitFor();
    await bob.waitForURL(`${server.url}/groups`);
    await ana.getByRole('navigation', { name: 'Breadcrumb' }).getByLabel('Home').click();

    await bob.goto(inviteUrl);
    const join = bob.getByRole('dialog', { name: 'Join Request' });
    await join.getByText('You have been invited to the group: Band Stems').waitFor();
    await join.getByRole('button', { name: 'Accept' }).click();
    await bob.getByText('Your response has been sent! Please wait for the publisher to verify it.').waitFor();

    // A sees the request without reloading: the bell shows it.
    await ana.getByRole('button', { name: 'Notifications' }).click();
    await ana.getByText('Bob asks to join the folder Band Stems').waitFor();
    await screenshot(ana, 'bell-request');
    await ana.locator('[data-testid="join-request"]').getByRole('button', { name: 'Accept' }).click();
    await ana.getByRole('button', { name: 'Notifications' }).click();

    await bob.goto(`${server.url}/groups`);
    await tile(bob, 'Band Stems').waitFor();
    await tile(bob, 'Band Stems').dblclick();
    await tile(bob, 'Groove').waitFor();
    await tile(bob, 'Groove').getByText('viewer').waitFor();
  });

  it('an editor can create; set back to viewer, the edit actions disappear', async () => {
    await ana.getByRole('button', { name: 'Actions for Band Stems' }).click();
    await ana.getByRole('menuitem', { name: 'Share' }).click();
    const dialog = ana.getByRole('dialog', { name: 'Share “Band Stems”' });
    await dialog.getByRole('textbox', { name: 'Permission of Bob' }).click();
    await ana.getByRole('option', { name: 'Editor' }).click();
    await ana.getByText('Permission updated!').waitFor();

    await bob.reload();
    await tile(bob, 'Groove').getByText('editor').waitFor();
    expect(await bob.getByRole('button', { name: 'New' }).isEnabled()).toBe(true);

    await dialog.getByRole('textbox', { name: 'Permission of Bob' }).click();
    await ana.getByRole('option', { name: 'Viewer' }).click();
    await ana.getByText('Permission updated!').waitFor();
    await bob.reload();
    await tile(bob, 'Groove').getByText('viewer').waitFor();
    expect(await bob.getByRole('button', { name: 'New' }).isDisabled()).toBe(true);
    await bob.getByRole('button', { name: 'Actions for Groove' }).click();
    expect(await bob.getByRole('menuitem', { name: 'Settings' }).isDisabled()).toBe(true);
    expect(await bob.getByRole('menuitem', { name: 'Delete' }).isDisabled()).toBe(true);
    await bob.keyboard.press('Escape');

    await dialog.getByRole('switch', { name: /Public link/ }).click({ force: true });
    publicUrl = await dialog.getByRole('textbox', { name: 'Public link' }).inputValue();
    expect(publicUrl).toContain('/public/share?shared_group=');
    await ana.keyboard.press('Escape');
  });

  it('a public link plays and downloads signed out; after revoking it shows the not-available state', async () => {
    const visitor = await browser.newContext({ acceptDownloads: true });
    const page = await visitor.newPage();
    await page.goto(publicUrl);
    await page.getByRole('heading', { name: 'Band Stems' }).waitFor();
    await page.locator('[data-testid="public-tile"]').filter({ hasText: 'Groove' }).click();
    const player = page.getByRole('dialog', { name: 'Groove' });
    await player.locator('audio').waitFor();
    await page.waitForFunction(() => {
      const audio = document.querySelector('audio');
      return Boolean(audio && audio.currentTime > 0.2);
    });
    await screenshot(page, 'public-share-player');
    // Downloads are off until the publisher turns them on: the visitor is told, and offered nothing to download.
    await player.getByText('The owner has not enabled downloads for this project.').waitFor();
    expect(await page.getByRole('button', { name: 'Download all' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await tile(ana, 'Band Stems').dblclick();
    await ana.getByRole('button', { name: 'Actions for Groove' }).click();
    await ana.getByRole('menuitem', { name: 'Settings' }).click();
    await ana.getByRole('switch', { name: 'Anyone with access may download' }).click({ force: true });
    await ana.getByRole('button', { name: 'Save' }).click();
    await ana.getByText('Project Settings Updated!').waitFor();
    await ana.getByRole('navigation', { name: 'Breadcrumb' }).getByLabel('Home').click();
    await page.reload();
    await page.locator('[data-testid="public-tile"]').filter({ hasText: 'Groove' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      player.getByRole('button', { name: /Download Groove.wav/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Groove.wav');
    await page.keyboard.press('Escape');
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download all' }).click(),
    ]);
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);
    expect([...(await unzip(readFileSync(await zip.path()))).keys()]).toEqual(['Band Stems/Groove.wav']);

    await ana.getByRole('button', { name: 'Actions for Band Stems' }).click();
    await ana.getByRole('menuitem', { name: 'Share' }).click();
    await ana
      .getByRole('dialog', { name: 'Share “Band Stems”' })
      .getByRole('switch', { name: /Public link/ })
      .click({ force: true });
    await ana
      .getByRole('dialog', { name: 'Share “Band Stems”' })
      .getByRole('textbox', { name: 'Public link' })
      .waitFor({ state: 'detached' });

    // The visitor's page was loaded before the link was turned off: the file itself is now refused.
    await page.locator('[data-testid="public-tile"]').filter({ hasText: 'Groove' }).click();
    await player.getByText('An error occurred retrieving the file').waitFor();
    await page.keyboard.press('Escape');

    await page.goto(publicUrl);
    await page.getByRole('heading', { name: 'Oooops, nothing here!' }).waitFor();
    await visitor.close();
  });
});
