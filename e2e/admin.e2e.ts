import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@mixroom/shared';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { launchBrowser, screenshot, signInAt } from './helpers/browser';

let server: TestServer;
let browser: Browser;
const admin = { email: 'operator@admin.test', password: 'operator-password-long' };
const ana = { email: 'ana@admin.test', password: 'ana-password-long', displayName: 'Ana Mixer' };
const ben = { email: 'ben@admin.test', password: 'ben-password-long', displayName: 'Ben Bass' };
const COLUMNS = ['photo', 'uid', 'displayName', 'email', 'name', 'phone number', 'providerId', 'authProviders'];

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  // The first account of a server is its administrator.
  for (const account of [admin, ana, ben]) await signInThroughOidc(server.url, account);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openTab(
  path: string,
  account: { email: string; password: string },
  width = 1440,
  landing = path,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await signInAt(page, server.url, path, account, landing);
  return page;
}

/** Searches the grid for one account and opens its row. */
async function expand(page: Page, email: string): Promise<void> {
  await page.getByLabel('Search users').fill(email);
  await page.getByTestId('user-row').filter({ hasText: email }).waitFor();
  await page.getByTestId('user-row').filter({ hasText: email }).click();
  await page.getByTestId('user-details').waitFor();
}

describe('/admin', () => {
  it('grants Studio live to an open /settings tab, disables an account whose tab signs out, and logs both', async () => {
    const anaTab = await openTab('/settings', ana);
    await anaTab.getByText('of 15 GB').waitFor();
    const benTab = await openTab('/settings', ben);

    const operator = await openTab('/admin', admin, 1440, '/admin/users');
    await operator.getByRole('heading', { name: 'User Management (3)' }).waitFor();
    // Sent on from /admin, the navigation opens Admin and marks Users.
    const usersLink = operator
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Users' });
    await expect.poll(() => usersLink.getAttribute('data-active')).toBe('true');
    expect(await usersLink.isVisible()).toBe(true);
    const headers = await operator.getByTestId('users-table').locator('thead th').allInnerTexts();
    expect(headers.filter(Boolean)).toEqual(COLUMNS);

    // Ana: private data with its 'No …' texts, then Studio.
    await expand(operator, ana.email);
    for (const text of ['No store account', 'No Live Room codes', 'No Live Streaming Room codes', 'No live trial'])
      await operator.getByText(text, { exact: true }).waitFor();
    await operator.getByRole('textbox', { name: 'Plan' }).click();
    await operator.getByRole('option', { name: 'Studio', exact: true }).click();
    await operator.getByRole('button', { name: 'Grant' }).click();
    await operator.getByText('Studio granted to Ana Mixer').waitFor();
    await screenshot(operator, 'admin-users-1440');

    // Ana's open tab follows without a reload: plan, credits and storage bar.
    await anaTab.getByTestId('plan-STUDIO').getByText('Active').waitFor();
    await anaTab.getByTestId('credits-balance').getByText('400').waitFor();
    await anaTab.getByText('of 5 TB').waitFor();

    // Ben: disabled; his open tab is signed out and told why.
    await expand(operator, ben.email);
    await operator.getByRole('button', { name: 'Disable account' }).click();
    await operator.getByRole('dialog').getByRole('button', { name: 'Disable account' }).click();
    await operator.getByTestId('user-row').filter({ hasText: ben.email }).getByText('disabled').waitFor();
    await benTab.waitForURL('**/public/sign-in?reason=disabled');
    await benTab.getByText(MESSAGES.accountDisabled).waitFor();
    await screenshot(benTab, 'admin-disabled-sign-in');

    // The audit log shows both, newest first, with before → after.
    await operator.getByRole('tab', { name: 'Audit log' }).click();
    await operator.getByRole('heading', { name: 'Audit log (2)' }).waitFor();
    const entries = operator.getByTestId('audit-entry');
    expect(await entries.nth(0).innerText()).toMatch(/Account disabled[\s\S]*ben@admin\.test[\s\S]*false → true/i);
    expect(await entries.nth(1).innerText()).toMatch(/operator@admin\.test[\s\S]*Plan granted[\s\S]*ana@admin\.test/i);
    await screenshot(operator, 'admin-audit-1440');
    await operator.getByRole('tab', { name: 'Server' }).click();
    await operator.getByText('PGlite (embedded)').waitFor();
    await screenshot(operator, 'admin-overview-1440');

    // Phones: the same screens in one column.
    await operator.setViewportSize({ width: 390, height: 844 });
    await screenshot(operator, 'admin-overview-390');
    await operator.getByRole('tab', { name: 'Audit log' }).click();
    await operator.getByTestId('audit-cards').waitFor();
    await screenshot(operator, 'admin-audit-390');
    await operator.getByRole('tab', { name: 'Users' }).click();
    await operator.getByTestId('user-card').first().waitFor();
    await operator.getByTestId('user-card').filter({ hasText: ana.email }).getByRole('button').first().click();
    await operator.getByTestId('user-details').waitFor();
    await screenshot(operator, 'admin-users-390');
  });
});
