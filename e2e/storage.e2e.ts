import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '../apps/server/src/db/schema';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { unzip } from '../apps/server/test/helpers/unzip';
import { fillSignUp, launchBrowser, screenshot } from './helpers/browser';

let server: TestServer;
let browser: Browser;
let page: Page;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A folder tree of real audio, as a producer would drop it. */
function makeTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'mixroom-tree-'));
  const tree = join(root, 'Session Tree');
  mkdirSync(join(tree, 'Drums'), { recursive: true });
  mkdirSync(join(tree, 'Vocals'), { recursive: true });
  makeAudio('kick.wav', { dir: join(tree, 'Drums'), seconds: 3, frequency: 60, sampleRate: 44100 });
  makeAudio('lead.mp3', { dir: join(tree, 'Vocals'), seconds: 5, frequency: 440, sampleRate: 44100 });
  makeAudio('kick v2.wav', { dir: root, seconds: 2, frequency: 80, sampleRate: 44100 });
  return root;
}

const tile = (name: string) => page.locator(`[data-testid="tile"][data-name="${name}"]`);
async function openTileMenu(name: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
}

let tree: string;
beforeAll(async () => {
  tree = makeTree();
  server = await startTestServer();
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  await page.goto(`${server.url}/public/landing`);
  await page.getByRole('button', { name: 'Get started' }).click();
  await page.waitForURL('**/oidc/interaction/**');
  await fillSignUp(page, { name: 'Ana Mixer', email: 'ana@storage.example', password: 'ana-password-1' });
  await page.waitForURL(`${server.url}/groups`);
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

describe('the storage area in Chromium', () => {
  it('starts empty and creates nested folders', async () => {
    await page.getByText("Drag your files and folders here or use the 'New' button to upload").waitFor();
    await screenshot(page, 'groups-empty');
    await page.getByRole('button', { name: 'New' }).click();
    await page.getByRole('menuitem', { name: 'New Folder' }).click();
    await page.getByLabel('Folder name').fill('x'.repeat(51));
    await page.getByText('Use at most 50 characters.').waitFor();
    await page.getByLabel('Folder name').fill('Album');
    await page.getByRole('button', { name: 'Create' }).click();
    await tile('Album').dblclick();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Album').waitFor();
    await page.getByRole('button', { name: 'New' }).click();
    await page.getByRole('menuitem', { name: 'New Folder' }).click();
    await page.getByLabel('Folder name').fill('Singles');
    await page.keyboard.press('Enter');
    await tile('Singles').waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByLabel('Home').click();
    await page.waitForURL(`${server.url}/groups`);
  });

  it('uploads a folder tree of audio: sub-folders become folders, files become projects with waveforms', async () => {
    await page.locator('input[webkitdirectory]').setInputFiles(join(tree, 'Session Tree'));
    await tile('Session Tree').dblclick();
    await tile('Drums').waitFor();
    await tile('Vocals').waitFor();
    await tile('Drums').dblclick();
    await tile('kick').locator('img').waitFor({ timeout: 30_000 });
    await tile('kick').getByText('0:03').waitFor();
    await screenshot(page, 'groups-project-tiles');
  });

  it('adds a version and downloads it byte for byte', async () => {
    await tile('kick').dblclick();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('v1', { exact: true }).waitFor();
    await dialog.locator('input[type="file"]').setInputFiles(join(tree, 'kick v2.wav'));
    await expect(dialog.getByLabel('Version name').inputValue()).resolves.toBe('kick v2');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.getByText('v2', { exact: true }).waitFor({ timeout: 30_000 });
    await dialog.locator('[data-testid="version-row"]').first().getByText(/LUFS/).waitFor({ timeout: 30_000 });
    await screenshot(page, 'project-view');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download version 2' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('kick v2.wav');
    const saved = await download.path();
    expect(sha256(readFileSync(saved))).toBe(sha256(readFileSync(join(tree, 'kick v2.wav'))));
    await page.keyboard.press('Escape');
  });

  it('creates a project from a file with the wizard, then renames and deletes a version', async () => {
    await page.getByRole('button', { name: 'New' }).click();
    await page.getByRole('menuitem', { name: 'New Audio Project' }).click();
    const wizard = page.getByRole('dialog', { name: 'New Project' });
    await wizard.getByText('Step 0/1').waitFor();
    await wizard.getByText('Project from File').click();
    await wizard.getByText('Step 0/3').waitFor();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('A project name is required').waitFor();
    await wizard.getByLabel('Project name').fill('Snare Library');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.locator('input[type="file"]').setInputFiles(join(tree, 'kick v2.wav'));
    await wizard.getByRole('button', { name: 'Next' }).click();
    await expect(wizard.getByLabel('Version name').inputValue()).resolves.toBe('kick v2');
    await wizard.getByText('Step 3/3').waitFor();
    await wizard.getByRole('button', { name: 'Finish' }).click();

    const view = page.getByRole('dialog', { name: 'Snare Library' });
    await view.getByText('v1', { exact: true }).waitFor({ timeout: 30_000 });
    await view.getByRole('button', { name: 'Actions for version 1' }).click();
    await page.getByRole('menuitem', { name: 'Edit Version' }).click();
    await page.getByRole('dialog', { name: 'Edit Version' }).getByLabel('Version name').fill('Tight snare');
    await page.getByRole('dialog', { name: 'Edit Version' }).getByRole('button', { name: 'Save' }).click();
    await view.getByText('Tight snare').waitFor();
    await view.getByRole('button', { name: 'Actions for version 1' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Version Tight snare has been deleted!').waitFor();
    await tile('Snare Library').waitFor({ state: 'detached' });
  });

  it('renames through the settings and moves by drag and drop', async () => {
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Session Tree').click();
    await openTileMenu('Vocals');
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.getByLabel('Folder name').fill('Lead Vocals');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Group Settings Updated!').waitFor();
    await tile('Lead Vocals').waitFor();

    await tile('Lead Vocals').dragTo(tile('Drums'));
    await tile('Lead Vocals').waitFor({ state: 'detached' });
    await tile('Drums').dblclick();
    await tile('Lead Vocals').waitFor();
  });

  it('moves a project to another folder with the folder picker of Project Settings', async () => {
    const moveWithPicker = async (project: string, folderPath: string) => {
      await openTileMenu(project);
      await page.getByRole('menuitem', { name: 'Settings' }).click();
      const settings = page.getByRole('dialog', { name: 'Project Settings' });
      await settings.getByRole('textbox', { name: 'Folder', exact: true }).click();
      const option = page.getByRole('option', { name: folderPath, exact: true });
      await option.waitFor();
      await screenshot(page, 'project-settings-folder-picker');
      await option.click();
      await settings.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Project Settings Updated!').first().waitFor();
      await tile(project).waitFor({ state: 'detached' });
    };
    await moveWithPicker('kick', 'Session Tree / Drums / Lead Vocals');
    await tile('Lead Vocals').dblclick();
    await tile('kick').waitFor();
    await tile('lead').waitFor();
    // And back, so the folder keeps the layout the next steps expect.
    await moveWithPicker('kick', 'Session Tree / Drums');
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Drums').click();
    await tile('kick').waitFor();
  });

  it('finds a project from another folder with search', async () => {
    await page.goto(`${server.url}/groups`);
    await page.getByLabel('Search').fill('KICK');
    await page.getByRole('option', { name: /kick/ }).click();
    await page.getByRole('dialog').getByText('v2', { exact: true }).waitFor();
    expect(page.url()).toMatch(/\/groups\/[0-9a-f-]{36}$/);
    await page.keyboard.press('Escape');
  });

  it('selects several tiles with the mouse and the keyboard: each one is highlighted and counted', async () => {
    await page.goto(`${server.url}/groups`);
    await tile('Album').click();
    await tile('Session Tree').click({ modifiers: ['Control'] });
    const selected = page.locator('[role="gridcell"][aria-selected="true"]');
    await expect
      .poll(() => selected.evaluateAll((t) => t.map((e) => e.getAttribute('data-name'))))
      .toEqual(['Album', 'Session Tree']);
    await page.getByText('Selected Items: 2').waitFor();
    // Space on the focused tile takes it out of the selection and puts it back.
    await page.keyboard.press('Space');
    await page.getByText('Selected Items: 1').waitFor();
    await page.keyboard.press('Space');
    await page.getByText('Selected Items: 2').waitFor();
    await screenshot(page, 'groups-selected');
    await page.keyboard.press('Escape');
    await expect.poll(() => selected.count()).toBe(0);
  });

  it('downloads a folder as one ZIP whose entries are the uploaded files', async () => {
    await page.goto(`${server.url}/groups`);
    await openTileMenu('Session Tree');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Mixroom-.*\.zip$/);
    const entries = await unzip(readFileSync(await download.path()));
    expect([...entries.keys()].sort()).toEqual([
      'Session Tree/Drums/Lead Vocals/lead.mp3',
      'Session Tree/Drums/kick.wav',
    ]);
    expect(sha256(entries.get('Session Tree/Drums/Lead Vocals/lead.mp3')!)).toBe(
      sha256(readFileSync(join(tree, 'Session Tree', 'Vocals', 'lead.mp3'))),
    );
    expect(sha256(entries.get('Session Tree/Drums/kick.wav')!)).toBe(sha256(readFileSync(join(tree, 'kick v2.wav'))));
    await page
      .getByRole('region', { name: 'Activities' })
      .getByText(/Mixroom-.*\.zip/)
      .waitFor();
  });

  it('deletes to trash, recovers, and empties the trash, removing the blobs', async () => {
    const [kick] = await server.context.database.db.select().from(projects).where(eq(projects.name, 'kick'));
    const blobDir = join(server.dataDir, 'blobs', 'objects', 'projects', kick!.id);
    expect(readdirSync(blobDir).length).toBe(2);

    await page.goto(`${server.url}/groups`);
    await openTileMenu('Session Tree');
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Move to trash' }).click();
    await tile('Session Tree').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Trash' }).click();
    await page.waitForURL('**/groups/trash');
    await page.getByText('Items in trash will be automatically deleted after 30 days.').waitFor();
    await openTileMenu('Session Tree');
    await page.getByRole('menuitem', { name: 'Recover' }).click();
    await page.getByText('The trash is empty.').waitFor();
    expect(await page.getByRole('button', { name: 'Empty Trash' }).isDisabled()).toBe(true);

    await page.goto(`${server.url}/groups`);
    await tile('Session Tree').click();
    await page.getByText('Selected Items: 1').waitFor();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('button', { name: 'Move to trash' }).click();
    await tile('Session Tree').waitFor({ state: 'detached' });
    await page.goto(`${server.url}/groups/trash`);
    await tile('Session Tree').waitFor();
    await screenshot(page, 'trash');
    await page.getByRole('button', { name: 'Empty Trash' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Empty Trash' }).click();
    await page.getByText('The trash is empty.').waitFor();
    expect(existsSync(blobDir)).toBe(false);
  });
});
