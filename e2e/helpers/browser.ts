import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const artifacts = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

/** What a journey's browser needs beyond the defaults. */
export interface BrowserOptions {
  /** A WAV that every page's (fake) microphone and audio input plays, with media permissions granted. */
  fakeAudioCapture?: string;
  /** Pages may play sound before a click (the live rooms' own players); off where a page's Play is under test. */
  autoplay?: boolean;
}

/** Debian's Chromium, headless, with the flags this machine needs. */
export async function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...(options.autoplay ? ['--autoplay-policy=no-user-gesture-required'] : []),
      ...(options.fakeAudioCapture
        ? [
            '--use-fake-ui-for-media-stream',
            '--use-fake-device-for-media-stream',
            `--use-file-for-fake-audio-capture=${options.fakeAudioCapture}`,
          ]
        : []),
    ],
  });
  // The journeys run beside the server tests, so media jobs can take longer than on a quiet machine:
  // every wait for a condition may last a minute (Playwright's default is 30 s). Nothing waits longer
  // than its condition needs.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(60_000);
    return context;
  };
  return browser;
}

/**
 * Saves what the page looks like into e2e/artifacts, for a person to open. On CI nobody opens them,
 * so there they are only taken with E2E_SCREENSHOTS=1: encoding sixty pages costs the run its CPU.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.CI && !process.env.E2E_SCREENSHOTS) return;
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: options.fullPage ?? true });
}

/** Fills the embedded provider's sign-up form; the browser must be on the interaction page. */
export async function fillSignUp(
  page: Page,
  account: { name: string; email: string; password: string },
): Promise<void> {
  await page.getByLabel('Name').fill(account.name);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.locator('form').getByRole('button', { name: 'Create account' }).click();
}

export async function fillSignIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.locator('form').getByRole('button', { name: 'Sign in' }).click();
}

/** Opens `path` signed out, goes through /public/sign-in and the provider, and lands on `landing`. */
export async function signInAt(
  page: Page,
  baseUrl: string,
  path: string,
  account: { email: string; password: string },
  landing = path,
): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.waitForURL('**/public/sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/oidc/interaction/**');
  await fillSignIn(page, account);
  await page.waitForURL(`${baseUrl}${landing}`);
}
