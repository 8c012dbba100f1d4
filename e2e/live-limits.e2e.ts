import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_MESSAGES, PLANS } from '@mixroom/shared';
import type { TestClock } from '../apps/server/src/platform/clock/clock';
import { call } from '../apps/server/test/helpers/api';
import { startClockedServer } from '../apps/server/test/helpers/clocked-server';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import type { TestServer } from '../apps/server/test/helpers/test-server';
import { fillSignUp, launchBrowser } from './helpers/browser';

/**
 * The Free plan's limits as a host and a guest meet them in Chromium: a room over its guest limit
 * turns the next guest away with the plan's text.
 */
let server: TestServer & { clock: TestClock };
let browser: Browser;
let host: Page;
let guest: Page;
let code = '';

async function signUp(page: Page, name: string, email: string) {
  await page.goto(`${server.url}/public/landing`);
  await page.getByRole('button', { name: 'Get started' }).click();
  await page.waitForURL('**/oidc/interaction/**');
  await fillSignUp(page, { name, email, password: `${name}-password-1` });
  await page.waitForURL(`${server.url}/groups`);
}

// The setup (server, browser, sign-ups) may take minutes while other work loads both cores.
beforeAll(async () => {
  const wav = join(mkdtempSync(join(tmpdir(), 'mixroom-live-limits-')), 'tone.wav');
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=30', '-ac', '2', wav],
  ]);
  server = await startClockedServer();
  browser = await launchBrowser({ fakeAudioCapture: wav, autoplay: true });
  const contexts = await Promise.all(
    [0, 1].map(() => browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ['microphone'] })),
  );
  for (const context of contexts) context.setDefaultTimeout(60_000);
  [host, guest] = (await Promise.all(contexts.map((context) => context.newPage()))) as [Page, Page];
  await signUp(host, 'Fay Free', 'fay@limits.example');
  await signUp(guest, 'Sixto Sixth', 'sixto@limits.example');
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a Free host’s live room', () => {
  it('turns away the guest over the plan’s limit with the plan’s text', async () => {
    await host.goto(`${server.url}/live`);
    const codeField = host.getByRole('textbox', { name: 'Your room code' });
    await expect.poll(() => codeField.inputValue()).toMatch(/^[0-9a-z]{4,32}$/);
    code = await codeField.inputValue();
    await host.getByRole('button', { name: 'Start', exact: true }).click();
    await host.waitForURL('**/live/joined/*/host');
    await host.getByRole('button', { name: 'Ok' }).click();
    await expect
      .poll(() => host.getByTestId('publish-state').getAttribute('data-state'), { timeout: 60_000 })
      .toBe('connected');
    await host.getByText(/FREE TIME LEFT (30:00|29:[0-5]\d)/).waitFor();

    // The plan's guests join first, as other people's browsers would.
    const limit = PLANS.FREE.limits.liveGuests;
    for (let i = 0; i < limit; i++) {
      const { access_token } = await signInThroughOidc(server.url, {
        email: `guest${i}@limits.example`,
        password: `guest-${i}-password`,
      });
      const joined = await call(server.url, `/api/live/${code}/join`, {
        method: 'POST',
        token: access_token,
        body: { instanceId: randomUUID() },
      });
      expect(joined.status).toBe(200);
    }

    await guest.goto(`${server.url}/live`);
    await guest.getByRole('textbox', { name: 'Enter room code' }).fill(code);
    await guest.getByRole('button', { name: 'JOIN' }).click();
    await guest.waitForURL(`**/live/joined/${code}/guest`);
    await guest.getByRole('button', { name: 'Ok' }).click();
    const full = guest.getByRole('dialog', { name: LIVE_MESSAGES.roomFullTitle });
    await full.getByText(LIVE_MESSAGES.roomFull).waitFor();
    await guest.keyboard.press('Escape');
    await guest.waitForURL(`${server.url}/live/`);
    await expect.poll(() => host.getByTestId('participants').getByText('Sixto Sixth').count()).toBe(0);
  });
});
