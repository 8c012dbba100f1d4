import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups, memberships, users } from '../apps/server/src/db/schema';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { unzip } from '../apps/server/test/helpers/unzip';
import { fillSignUp, launchBrowser, screenshot } from './helpers/browser';

// Folder and selection downloads as a user meets them: the ZIP arrives without leaving the page, and
// a viewer is offered Download only where the server allows it.

let server: TestServer;
let browser: Browser;
let ana: Page;
let bob: Page;
const dialogs: Dialog[] = [];
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const tile = (page: Page, name: string) => page.locator(`[data-testid="tile"][data-name="${name}"]`);
const songs = ['Intro.wav', 'Verse.wav', 'Outro.wav'];
let dir = '';

async function signUp(page: Page, name: string, email: string) {
  await page.goto(`${server.url}/public/landing`);
  await page.getByRole('button', { name: 'Get started' }).click();
  await page.waitForURL('**/oidc/interaction/**');
  await fillSignUp(page, { name, email, password: `${name}-password-1` });
  await page.waitForURL(`${server.url}/groups`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mixroom-walk-dl-'));
  songs.forEach((name, i) => makeAudio(name, { dir, seconds: 2 + i, frequency: 200 + 100 * i, sampleRate: 44100 }));
  server = await startTestServer();
  browser = await launchBrowser();
  ana = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
  bob = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
  for (const page of [ana, bob])
    page.on('dialog', (dialog) => {
      dialogs.push(dialog);
      void dialog.dismiss();
    });
  await signUp(ana, 'Ana', 'ana@walk-dl.example');
  await signUp(bob, 'Bob', 'bob@walk-dl.example');

  await ana.getByRole('button', { name: 'New' }).click();
  await ana.getByRole('menuitem', { name: 'New Folder' }).click();
  await ana.getByLabel('Folder name').fill('Three Songs');
  await ana.getByRole('button', { name: 'Create' }).click();
  await tile(ana, 'Three Songs').dblclick();
  await ana.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Three Songs').waitFor();
  await ana
    .locator('input[type="file"]:not([webkitdirectory])')
    .first()
    .setInputFiles(songs.map((s) => join(dir, s)));
  for (const song of songs) await tile(ana, song.replace('.wav', '')).locator('img').waitFor({ timeout: 60_000 });
  await ana.getByRole('navigation', { name: 'Breadcrumb' }).getByLabel('Home').click();
  await ana.waitForURL(`${server.url}/groups`);

  // Bob is given the folder as a viewer; its projects keep downloads off.
  const db = server.context.database.db;
  const [folder] = await db.select().from(groups).where(eq(groups.name, 'Three Songs'));
  const [bobRow] = await db.select().from(users).where(eq(users.email, 'bob@walk-dl.example'));
  await db
    .insert(memberships)
    .values({ resourceId: folder!.id, resourceType: 'group', userId: bobRow!.id, permission: 'VIEWER' });
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

describe('downloads in Chromium', () => {
  it('downloads a folder of three projects as one ZIP, staying on the page, with progress to Finished', async () => {
    const before = ana.url();
    await ana.getByRole('button', { name: 'Actions for Three Songs' }).click();
    const [download] = await Promise.all([
      ana.waitForEvent('download'),
      ana.getByRole('menuitem', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Mixroom-.*\.zip$/);
    const entries = await unzip(readFileSync(await download.path()));
    expect([...entries.keys()].sort()).toEqual(songs.map((s) => `Three Songs/${s}`).sort());
    for (const song of songs)
      expect(sha256(entries.get(`Three Songs/${song}`)!)).toBe(sha256(readFileSync(join(dir, song))));
    // The ZIP's own row in Activities reaches Finished (uploads' rows may still linger beside it).
    await ana
      .getByRole('region', { name: 'Activities' })
      .locator('*')
      .filter({ has: ana.getByText(/^Mixroom-.*\.zip$/) })
      .filter({ has: ana.getByText('Finished', { exact: true }) })
      .last()
      .waitFor();
    expect(dialogs.map((d) => d.type())).toEqual([]);
    expect(ana.url()).toBe(before);
    expect(await ana.getByText('The download could not start.').count()).toBe(0);
  });

  it('downloads a selection of two projects as one ZIP without a prompt', async () => {
    await tile(ana, 'Three Songs').dblclick();
    await tile(ana, 'Intro').click();
    await tile(ana, 'Outro').click({ modifiers: ['Control'] });
    await ana.getByText('Selected Items: 2').waitFor();
    const [download] = await Promise.all([
      ana.waitForEvent('download'),
      ana.getByRole('button', { name: 'Download selected' }).click(),
    ]);
    const entries = await unzip(readFileSync(await download.path()));
    expect([...entries.keys()].sort()).toEqual(['Intro.wav', 'Outro.wav']);
    expect(dialogs).toEqual([]);
  });

  it('a viewer sees no Download where downloads are off, and a refused folder ZIP is explained in place', async () => {
    await bob.goto(`${server.url}/groups`);
    await tile(bob, 'Three Songs').dblclick();
    await tile(bob, 'Intro').getByText('viewer').waitFor();

    await bob.getByRole('button', { name: 'Actions for Intro' }).click();
    await bob.getByRole('menuitem', { name: 'Open' }).waitFor();
    expect(await bob.getByRole('menuitem', { name: 'Download' }).count()).toBe(0);
    await bob.keyboard.press('Escape');

    await tile(bob, 'Intro').click();
    await bob.getByText('Selected Items: 1').waitFor();
    expect(await bob.getByRole('button', { name: 'Download selected' }).count()).toBe(0);

    await tile(bob, 'Intro').dblclick();
    const view = bob.getByRole('dialog', { name: 'Intro' });
    await view.getByText('v1', { exact: true }).waitFor();
    expect(await view.getByRole('button', { name: 'Download version 1' }).count()).toBe(0);
    await view.getByRole('button', { name: 'Actions for version 1' }).click();
    await bob.getByRole('menuitem', { name: 'Notes' }).waitFor();
    expect(await bob.getByRole('menuitem', { name: 'Download Version' }).count()).toBe(0);
    await bob.keyboard.press('Escape');
    await bob.keyboard.press('Escape');
    await screenshot(bob, 'walkthrough-viewer-no-download');

    // The folder itself may be zipped by a viewer, but nothing inside may be downloaded: the refusal
    // is a toast on the same page, never a raw error page.
    await bob.getByRole('navigation', { name: 'Breadcrumb' }).getByLabel('Home').click();
    await bob.waitForURL(`${server.url}/groups`);
    await bob.getByRole('button', { name: 'Actions for Three Songs' }).click();
    await bob.getByRole('menuitem', { name: 'Download' }).click();
    await bob.getByText('Downloads are not enabled for the projects here.').first().waitFor();
    expect(bob.url()).toBe(`${server.url}/groups`);
    await tile(bob, 'Three Songs').waitFor();
    expect(dialogs).toEqual([]);
  });
});
