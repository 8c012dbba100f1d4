import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETION_MESSAGES } from '../apps/server/src/modules/users/account-deletion.service';
import { call } from '../apps/server/test/helpers/api';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { launchBrowser, screenshot, signInAt } from './helpers/browser';

let server: TestServer;
let browser: Browser;
const ana = { email: 'ana@settings.test', password: 'ana-password-long', displayName: 'Ana Mixer' };

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('/settings', () => {
  it('shows credits, storage and plan cards, and follows an admin grant without a reload', async () => {
    const admin = (
      await signInThroughOidc(server.url, { email: 'admin@settings.test', password: 'admin-password-long' })
    ).access_token;
    const anaToken = (await signInThroughOidc(server.url, ana)).access_token;
    const anaId = ((await call(server.url, '/api/me', { token: anaToken })).body as { id: string }).id;
    await storageClient(server.url, anaToken).upload(makeAudio('Mix.wav', { seconds: 2 }), null);

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signInAt(page, server.url, '/settings', ana);
    await page.getByText('Available credits').waitFor();
    expect(await page.getByTestId('credits-balance').innerText()).toMatch(/^20\s+credits$/);
    await page.getByText('Monthly credits (Free)').waitFor();
    await page.getByText('of 15 GB').waitFor();
    await page.getByText('Projects and versions').waitFor();
    // Free is the active plan; its buttons are disabled; '$' lines are headings, not check items.
    const free = page.getByTestId('plan-FREE');
    expect(await free.getByRole('button', { name: 'Active' }).isDisabled()).toBe(true);
    // No shop on this server: paid plans are given by an administrator, and the button says so.
    expect(
      await page.getByTestId('plan-ESSENTIAL').getByRole('button', { name: 'Ask your administrator' }).isDisabled(),
    ).toBe(true);
    // The longest feature list fits the 400 px content area at this width: nothing scrolls inside a card.
    const overflow = await page
      .getByTestId('plan-STUDIO')
      .locator('.mantine-ScrollArea-viewport')
      .evaluate((viewport) => viewport.scrollHeight - viewport.clientHeight);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await page.getByText('$Storage').count()).toBe(0);
    await page.getByText('Annual', { exact: true }).click();
    await page.getByTestId('plan-STUDIO').getByText('€335.16').waitFor();
    await screenshot(page, 'settings-1440');

    const granted = await call(server.url, `/api/admin/users/${anaId}/plans`, {
      method: 'POST',
      token: admin,
      body: { sku: 'STUDIO' },
    });
    expect(granted.status).toBe(201);
    // No reload: the realtime user.updated refreshes the user, the ledger and the cards.
    await page.getByTestId('plan-STUDIO').getByText('Active').waitFor();
    await page.getByTestId('credits-balance').getByText('400').waitFor();
    await page.getByText('Monthly credits topped up to 400 (Studio)').waitFor();
    await page.getByText('of 5 TB').waitFor();
    await screenshot(page, 'settings-1440-studio');

    await page.setViewportSize({ width: 420, height: 900 });
    await page.getByRole('heading', { name: 'Settings' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-420-top', { fullPage: false });
    await page.getByTestId('plan-STUDIO').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-420-studio', { fullPage: false });
    await context.close();
  });

  it('changes the display name in place, and deletes the account (typed e-mail) which signs out and removes its files', async () => {
    const bo = { email: 'bo@settings.test', password: 'bo-password-long', displayName: 'Bo Producer' };
    const boToken = (await signInThroughOidc(server.url, bo)).access_token;
    const { ticket } = await storageClient(server.url, boToken).upload(makeAudio('Gone.wav', { seconds: 1 }), null);
    const files = join(server.dataDir, 'blobs', 'objects', 'projects', ticket.project.id);

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signInAt(page, server.url, '/settings', bo);
    await page.getByTestId('display-name').getByText('Bo Producer').waitFor();
    await page.getByRole('button', { name: 'Edit display name' }).click();
    await page.getByLabel('Display name').fill('Bo the Producer');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('display-name').getByText('Bo the Producer').waitFor();
    expect((await call(server.url, '/api/me', { token: boToken })).body.displayName).toBe('Bo the Producer');
    await page.getByText('Download my data').waitFor();
    await screenshot(page, 'settings-account-1440');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Settings' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-account-390-top', { fullPage: false });
    await page.getByText('Download my data').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-account-390-privacy', { fullPage: false });

    await page.getByRole('button', { name: 'Delete account' }).click();
    const confirm = page.getByRole('button', { name: 'Delete my account' });
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel('Your e-mail').fill('bo@settings.test');
    await screenshot(page, 'settings-account-390-delete', { fullPage: false });
    await confirm.click();
    await page.waitForURL((url) => url.pathname.startsWith('/public'));
    // The landing page says what happened, once.
    await page.getByRole('status').getByText(DELETION_MESSAGES.started).waitFor();
    await screenshot(page, 'settings-account-390-deleted', { fullPage: false });
    expect((await call(server.url, '/api/me', { token: boToken })).status).toBe(401);
    await expect
      .poll(() => existsSync(files), { timeout: 20_000, message: 'the account’s files are removed' })
      .toBe(false);
    await page.reload();
    await page.getByRole('button', { name: 'Get started' }).first().waitFor();
    expect(await page.getByText(DELETION_MESSAGES.started).count()).toBe(0);
    await context.close();
  });

  it('asks for the current password to change the e-mail, and confirms again before ending a plan an administrator gave', async () => {
    const cy = { email: 'cy@settings.test', password: 'cy-plays-bass-lines', displayName: 'Cy Bass' };
    const cyToken = (await signInThroughOidc(server.url, cy)).access_token;
    const cyId = ((await call(server.url, '/api/me', { token: cyToken })).body as { id: string }).id;
    const admin = (
      await signInThroughOidc(server.url, { email: 'admin@settings.test', password: 'admin-password-long' })
    ).access_token;
    const granted = await call(server.url, `/api/admin/users/${cyId}/plans`, {
      method: 'POST',
      token: admin,
      body: { sku: 'ESSENTIAL' },
    });
    expect(granted.status).toBe(201);

    const context = await browser.newContext({ viewport: { width: 420, height: 900 } });
    const page = await context.newPage();
    await signInAt(page, server.url, '/settings', cy);
    await page.getByRole('button', { name: 'Change e-mail' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change e-mail' });
    await dialog.getByLabel('New e-mail').fill('cy.new@settings.test');
    await dialog.getByRole('button', { name: 'Send link' }).click();
    await dialog.getByText('Please enter your current password.').waitFor();
    await dialog.getByLabel('Current password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Send link' }).click();
    await dialog.getByText('Your current password is not correct.').waitFor();
    await screenshot(page, 'settings-email-420-password', { fullPage: false });
    await dialog.getByLabel('Current password').fill(cy.password);
    await dialog.getByRole('button', { name: 'Send link' }).click();
    await page.getByText('Waiting for you to confirm cy.new@settings.test').waitFor();

    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.getByLabel('Your e-mail').fill(cy.email);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByText(DELETION_MESSAGES.planGranted('Essential')).waitFor();
    await screenshot(page, 'settings-delete-420-granted-plan', { fullPage: false });
    // Nothing is deleted until the second confirmation.
    expect((await call(server.url, '/api/me', { token: cyToken })).status).toBe(200);
    await page.getByRole('button', { name: 'Delete account and plan' }).click();
    await page.waitForURL((url) => url.pathname === '/public/landing');
    await page.getByRole('status').getByText(DELETION_MESSAGES.started).waitFor();
    await screenshot(page, 'settings-delete-420-landing', { fullPage: false });
    expect((await call(server.url, '/api/me', { token: cyToken })).status).toBe(401);
    await context.close();
  });
});
