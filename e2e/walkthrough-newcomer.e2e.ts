import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { fillSignUp, launchBrowser, screenshot } from './helpers/browser';

// A newcomer's first minutes: the first upload lands where they expect, mistakes get the spec's
// words and a way back, an invitation explains itself before sign-in, and collaborators are seen.

let server: TestServer;
let browser: Browser;
let ana: Page;
let dir = '';
let inviteUrl = '';
const tile = (page: Page, name: string) => page.locator(`[data-testid="tile"][data-name="${name}"]`);
const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mixroom-walk-new-'));
  makeAudio('First Take.wav', { dir, seconds: 2, frequency: 330, sampleRate: 44100 });
  makeAudio('Second Take.wav', { dir, seconds: 2, frequency: 440, sampleRate: 44100 });
  server = await startTestServer();
  browser = await launchBrowser();
  ana = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await ana.goto(`${server.url}/public/landing`);
  await ana.getByRole('button', { name: 'Get started' }).click();
  await ana.waitForURL('**/oidc/interaction/**');
  await fillSignUp(ana, { name: 'Ana', email: 'ana@walk-new.example', password: 'ana-password-1' });
  await ana.waitForURL(`${server.url}/groups`);
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

describe('a newcomer in Chromium', () => {
  it('New Folder says the name is required; a created folder clicked once is selected, and says where uploads go', async () => {
    await ana.getByRole('button', { name: 'New' }).click();
    await ana.getByText('Adds to Home').waitFor();
    await ana.getByRole('menuitem', { name: 'New Folder' }).click();
    await ana.getByLabel('Folder name').fill('x');
    await ana.getByLabel('Folder name').fill('');
    await ana.getByText('A name is required').waitFor();
    await ana.getByLabel('Folder name').fill('First Folder');
    expect(await ana.getByText('A name is required').count()).toBe(0);
    await ana.getByRole('button', { name: 'Create' }).click();

    // Selecting floats the selection bar at the foot: the tile under the pointer does not move.
    const before = await tile(ana, 'First Folder').boundingBox();
    await tile(ana, 'First Folder').click();
    await ana.getByText('Double-click “First Folder” to open it. New and Upload add to Home.').waitFor();
    expect(await tile(ana, 'First Folder').boundingBox()).toEqual(before);
    await screenshot(ana, 'walkthrough-selection-1440');
    await tile(ana, 'First Folder').dblclick();
    await crumbs(ana).getByText('First Folder').waitFor();
    await ana.getByRole('button', { name: 'New' }).click();
    await ana.getByText('Adds to First Folder').waitFor();
    await ana.keyboard.press('Escape');
    await ana.locator('input[type="file"]:not([webkitdirectory])').first().setInputFiles(join(dir, 'First Take.wav'));
    await tile(ana, 'First Take').locator('img').waitFor({ timeout: 60_000 });
  });

  it('finds a nested project under its folder name, not "Home"', async () => {
    await crumbs(ana).getByLabel('Home').click();
    await ana.getByLabel('Search').fill('first take');
    await ana
      .getByRole('option', { name: /First Take/ })
      .getByText('in First Folder')
      .waitFor();
    await ana.keyboard.press('Escape');
  });

  it('stale errors clear once the value is fine again (group settings, wizard after Previous)', async () => {
    await ana.getByRole('button', { name: 'Actions for First Folder' }).click();
    await ana.getByRole('menuitem', { name: 'Settings' }).click();
    const settings = ana.getByRole('dialog', { name: 'Group Settings' });
    await settings.getByLabel('Folder name').fill('');
    await settings.getByText('A folder name is required').waitFor();
    await settings.getByLabel('Folder name').fill('First Folder');
    expect(await settings.getByText('A folder name is required').count()).toBe(0);
    await settings.getByRole('button', { name: 'Cancel' }).click();

    await tile(ana, 'First Folder').dblclick();
    await ana.getByRole('button', { name: 'New' }).click();
    await ana.getByRole('menuitem', { name: 'New Audio Project' }).click();
    const wizard = ana.getByRole('dialog', { name: 'New Project' });
    await wizard.getByText('Project from File').click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('A project name is required').waitFor();
    await wizard.getByRole('button', { name: 'Previous' }).click();
    await wizard.getByText('Step 0/3').waitFor();
    expect(await wizard.getByText('A project name is required').count()).toBe(0);
    await wizard.getByRole('button', { name: 'Cancel' }).click();
    await crumbs(ana).getByLabel('Home').click();
    await ana.waitForURL(`${server.url}/groups`);
  });

  it('reaches Notes from the tile and version menus; the project view has Share, the publisher menu and the people', async () => {
    await tile(ana, 'First Folder').dblclick();
    await ana.getByRole('button', { name: 'Actions for First Take' }).click();
    expect(await ana.getByRole('menuitem', { name: 'Notes' }).isEnabled()).toBe(true);
    await ana.getByRole('menuitem', { name: 'Notes' }).click();
    await ana.getByRole('button', { name: 'Export as PDF' }).waitFor();
    await ana.getByRole('button', { name: 'Close' }).click();

    await tile(ana, 'First Take').dblclick();
    const view = ana.getByRole('dialog', { name: 'First Take' });
    await view.getByText('v1', { exact: true }).waitFor();
    await view.getByRole('button', { name: 'Share' }).waitFor();
    await view.getByRole('button', { name: 'Actions for version 1' }).click();
    await ana.getByRole('menuitem', { name: 'Notes' }).waitFor();
    await ana.keyboard.press('Escape');
    await view.getByRole('button', { name: 'Actions for project First Take' }).click();
    await ana.getByRole('menuitem', { name: 'Settings' }).waitFor();
    await ana.keyboard.press('Escape');
    await view.getByLabel('People: Ana').waitFor();
  });

  it('New Version refuses a 51-character name and an empty one with the spec texts', async () => {
    const view = ana.getByRole('dialog', { name: 'First Take' });
    await view.locator('input[type="file"]').setInputFiles(join(dir, 'Second Take.wav'));
    const name = view.getByLabel('Version name');
    await name.fill('y'.repeat(51));
    await view.getByText('Use at most 50 characters.').waitFor();
    await view.getByRole('button', { name: 'Upload' }).click();
    expect(await view.getByText('v2', { exact: true }).count()).toBe(0);
    await name.fill('');
    await view.getByText('A version name is required', { exact: true }).waitFor();
    await view.getByRole('button', { name: 'Upload' }).click();
    await ana.getByText('A version name is required.', { exact: true }).waitFor();
    await name.fill('Second');
    expect(await view.getByText('A version name is required', { exact: true }).count()).toBe(0);
    await screenshot(ana, 'walkthrough-project-view-1440');
  });

  it('the project view fits a 420 px phone: version menu and download inside the dialog', async () => {
    await ana.setViewportSize({ width: 420, height: 860 });
    const view = ana.getByRole('dialog', { name: 'First Take' });
    const box = await view.boundingBox();
    for (const control of [
      view.getByRole('button', { name: 'Actions for version 1' }),
      view.getByRole('button', { name: 'Download version 1' }),
    ]) {
      const inner = await control.boundingBox();
      expect(inner!.x).toBeGreaterThanOrEqual(box!.x);
      expect(inner!.x + inner!.width).toBeLessThanOrEqual(box!.x + box!.width);
    }
    await screenshot(ana, 'walkthrough-project-view-420');
    await ana.setViewportSize({ width: 1440, height: 900 });
    await ana.keyboard.press('Escape');
  });

  it('a malformed address shows a not-found screen with a way back', async () => {
    await ana.goto(`${server.url}/groups/not-a-folder`);
    await ana.getByRole('heading', { name: 'Folder not found' }).waitFor();
    await ana.goto(`${server.url}/version/xyz/1`);
    await ana.getByRole('heading', { name: 'Version not found' }).waitFor();
    await ana.getByRole('link', { name: 'Back to my groups' }).click();
    await ana.waitForURL(`${server.url}/groups`);
    await ana.goto(`${server.url}/unauthorized`);
    await ana.getByRole('heading', { name: 'Your account could not be verified' }).waitFor();
    expect(await ana.getByText('Not signed in').count()).toBe(0);
  });

  it('a signed-out invitee is told who invites to what, signs up, and comes back to the Join Request', async () => {
    await ana.goto(`${server.url}/groups`);
    await ana.getByRole('button', { name: 'Actions for First Folder' }).click();
    await ana.getByRole('menuitem', { name: 'Share' }).click();
    const share = ana.getByRole('dialog', { name: 'Share “First Folder”' });
    inviteUrl = await share.getByRole('textbox', { name: /Invitation link/ }).inputValue();
    await share.getByRole('switch', { name: /Public link/ }).click({ force: true });
    const publicUrl = await share.getByRole('textbox', { name: 'Public link' }).inputValue();
    await screenshot(ana, 'walkthrough-share-dialog-1440');
    await ana.setViewportSize({ width: 420, height: 860 });
    await screenshot(ana, 'walkthrough-share-dialog-420');
    await ana.setViewportSize({ width: 1440, height: 900 });
    await ana.keyboard.press('Escape');

    const context = await browser.newContext({ viewport: { width: 420, height: 860 } });
    const bob = await context.newPage();
    await bob.goto(inviteUrl);
    await bob.getByRole('heading', { name: 'You have been invited to the group: First Folder' }).waitFor();
    await bob.getByText(/Ana shares this folder/).waitFor();
    await screenshot(bob, 'walkthrough-invitation-420');
    await bob.getByRole('button', { name: 'Create account' }).click();
    await bob.waitForURL('**/oidc/interaction/**');
    await fillSignUp(bob, { name: 'Bob', email: 'bob@walk-new.example', password: 'bob-password-1' });
    const join = bob.getByRole('dialog', { name: 'Join Request' });
    await join.getByText('You have been invited to the group: First Folder').waitFor();
    await join.getByRole('button', { name: 'Accept' }).click();
    await bob.getByText('Your response has been sent! Please wait for the publisher to verify it.').waitFor();

    await ana.getByRole('button', { name: 'Notifications' }).click();
    await ana.locator('[data-testid="join-request"]').getByRole('button', { name: 'Accept' }).click();
    await ana.keyboard.press('Escape');
    await ana.reload();
    await tile(ana, 'First Folder').getByLabel('People: Ana, Bob').waitFor();
    await tile(ana, 'First Folder').dblclick();
    await tile(ana, 'First Take').getByLabel('People: Ana, Bob').waitFor();
    await screenshot(ana, 'walkthrough-folder-1440');
    await ana.setViewportSize({ width: 420, height: 860 });
    await ana.reload();
    await tile(ana, 'First Take').locator('img').waitFor();
    await screenshot(ana, 'walkthrough-folder-420');
    await ana.setViewportSize({ width: 1440, height: 900 });

    // The public page names the shared folder in its first breadcrumb chip, not "root".
    await bob.goto(publicUrl);
    await bob.getByRole('heading', { name: 'First Folder' }).waitFor();
    await screenshot(bob, 'walkthrough-public-share-420');
    await bob.setViewportSize({ width: 1440, height: 900 });
    await screenshot(bob, 'walkthrough-public-share-1440');
    expect(await bob.getByText('root', { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('deleting from the project view says the spec text', async () => {
    await tile(ana, 'First Take').dblclick();
    const view = ana.getByRole('dialog', { name: 'First Take' });
    await view.getByRole('button', { name: 'Actions for project First Take' }).click();
    await ana.getByRole('menuitem', { name: 'Delete' }).click();
    await ana.getByRole('button', { name: 'Move to trash' }).click();
    await ana.getByText('Project First Take has been deleted!').waitFor();
    await tile(ana, 'First Take').waitFor({ state: 'detached' });
    // The closed view does not fetch the project again, so no error follows the success.
    expect(await ana.getByText('This item is in the trash.').count()).toBe(0);
  });

  it('a folder the server fails to make says so with its name, and nothing is added', async () => {
    await ana.goto(`${server.url}/groups`);
    await ana.getByRole('button', { name: 'New' }).click();
    await ana.getByRole('menuitem', { name: 'New Folder' }).click();
    await ana.getByLabel('Folder name').fill('Inside');
    // The database failing under the request: the page must say so rather than hang or pretend.
    await ana.route('**/api/groups', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, json: { error: { code: 'INTERNAL', message: 'Something went wrong' } } })
        : route.fallback(),
    );
    await ana.getByRole('button', { name: 'Create' }).click();
    await ana.getByText('An error occurred creating folder: Inside').waitFor();
    await ana.unroute('**/api/groups');
    expect(await tile(ana, 'Inside').count()).toBe(0);
  });

  it('placeholders carry the logo and a way back; the landing page says what is coming', async () => {
    const context = await browser.newContext();
    const visitor = await context.newPage();
    for (const path of ['/public/live/ABCD']) {
      await visitor.goto(`${server.url}${path}`);
      await visitor.getByRole('link', { name: 'Mixroom home' }).waitFor();
      await screenshot(visitor, `walkthrough-placeholder${path.replace(/\//g, '-')}`);
      await visitor.getByRole('link', { name: 'Back to Mixroom' }).click();
      await visitor.waitForURL('**/public/landing');
    }
    const coming = visitor.locator('[data-testid="feature"]').filter({ hasText: 'Coming' });
    await coming.first().waitFor();
    await screenshot(visitor, 'walkthrough-landing');
    expect(await coming.count()).toBe(2);
    for (const title of ['Stream your DAW live', 'AI tools'])
      expect(await coming.filter({ hasText: title }).count()).toBe(1);
    await context.close();
  });
});
