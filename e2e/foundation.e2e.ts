import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { fillSignIn, fillSignUp, launchBrowser, screenshot, signInAt } from './helpers/browser';

let server: TestServer;
let browser: Browser;
const ana = { name: 'Ana Mixer', email: 'ana@e2e.test', password: 'ana-password-1' };
const bob = { name: 'Bob Producer', email: 'bob@e2e.test', password: 'bob-password-1' };

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

describe('a newcomer in Chromium', () => {
  it('opens /, signs up, lands on /groups and stays signed in after a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForURL('**/public/landing');
    await page.getByRole('heading', { name: /versioned, reviewed and shared/ }).waitFor();
    await screenshot(page, 'landing');

    await page.getByRole('button', { name: 'Get started' }).click();
    await page.waitForURL('**/oidc/interaction/**');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await screenshot(page, 'sign-up');
    await fillSignUp(page, ana);

    await page.waitForURL(`${server.url}/groups`);
    await page.getByRole('button', { name: 'Account menu' }).getByText(ana.name).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Account menu' }).getByText(ana.name).waitFor();
    expect(new URL(page.url()).pathname).toBe('/groups');
    // The first account administers the installation: the Admin section is in the navigation.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByText('Admin', { exact: true }).waitFor();
    await screenshot(page, 'groups-signed-in');
    await context.close();
  });

  it('returns to a deep link after signing in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAt(page, server.url, '/settings?tab=plans', ana);
    await page.getByText('What your plans allow').waitFor();
    await context.close();
  });

  it('shows the wrong-password error in place', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/public/sign-in`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/oidc/interaction/**');
    await fillSignIn(page, { email: ana.email, password: 'not-the-password' });
    await page.getByText('The e-mail or password is not correct.').waitFor();
    expect(page.url()).toContain('/oidc/interaction/');
    await context.close();
  });

  it('signs out through the confirmation, which clears the session', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAt(page, server.url, '/public/sign-in', ana, '/groups');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByText('Are you sure you want to sign-out?').waitFor();
    await screenshot(page, 'sign-out-confirm');
    // The provider's end of the session is the last hop: the landing page seen before it is the
    // app's own, which the redirect to the provider then leaves.
    const ended = page.waitForResponse((r) => new URL(r.url()).pathname === '/oidc/session/end/confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'Sign out' }).click();
    await ended;
    await page.waitForURL((url) => url.pathname === '/public/landing', { waitUntil: 'load' });
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('oidc.user')))).toEqual([]);

    await page.goto(`${server.url}/settings`);
    await page.waitForURL('**/public/sign-in');
    await context.close();
  });

  it('gives a second account no administrator rights: /admin/users is refused', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/public/landing`);
    await page.getByRole('button', { name: 'Get started' }).click();
    await page.waitForURL('**/oidc/interaction/**');
    await fillSignUp(page, bob);
    await page.waitForURL(`${server.url}/groups`);
    await page.getByRole('link', { name: 'Settings' }).waitFor();
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);

    await page.goto(`${server.url}/admin/users`);
    await page.waitForURL('**/forbidden');
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    await screenshot(page, 'forbidden');
    await context.close();
  });

  it('lets the administrator see every user in the admin grid', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signInAt(page, server.url, '/admin/users', ana);
    await page.getByRole('heading', { name: 'User Management (2)' }).waitFor();
    await page.getByText(bob.email).click();
    await page.getByText('No Live Room').waitFor();
    await screenshot(page, 'admin-users');
    await context.close();
  });

  it('uses the mobile layout below 1000 px', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signInAt(page, server.url, '/public/sign-in', bob, '/groups');
    const burger = page.getByRole('button', { name: 'Toggle navigation' });
    await burger.waitFor();
    await burger.click();
    await page.getByRole('link', { name: 'Settings' }).waitFor();
    await screenshot(page, 'mobile-navigation');
    await context.close();
  });
});
