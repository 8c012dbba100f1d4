import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_MESSAGES, PLANS } from '@mixroom/shared';
import type { TestClock } from '../apps/server/src/platform/clock/clock';
import type { SfuEvent } from '../apps/server/src/platform/rtc/sfu-driver';
import { call } from '../apps/server/test/helpers/api';
import { mediaHub } from '../apps/server/test/helpers/live';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import type { TestServer } from '../apps/server/test/helpers/test-server';
import { fillSignUp, launchBrowser } from './helpers/browser';
import { startServerBehindWallClock } from './helpers/server-clock';

/**
 * The Free plan's limits as a host and a guest meet them in Chromium: a room over its guest limit
 * turns the next guest away with the plan's text, and a session is cut at 30 minutes of the
 * server's clock, moved by the test in steps (never waited for): the free time left counts down
 * with it, and at the end the host is told, leaves, and its publisher is dropped.
 */
const MINUTE = 60_000;
const HOST = { email: 'fay@limits.example', password: 'Fay Free-password-1' };
let server: TestServer & { clock: TestClock };
let browser: Browser;
let host: Page;
let guest: Page;
let code = '';
const sfuEvents: SfuEvent[] = [];

/** The label for `minutes` left, or any second of the minute before (the page counts down between steps). */
const freeTimeLeft = (minutes: number) => {
  const mm = (n: number) => String(n).padStart(2, '0');
  return new RegExp(`FREE TIME LEFT (${mm(minutes)}:00|${mm(minutes - 1)}:[0-5]\\d)`);
};

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ['microphone'] });
  return context.newPage();
}

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
  // The test moves the server's clock on by 30 minutes: it starts that far behind, and more, so
  // the pages' access tokens (stamped with the wall clock) stay good for it throughout.
  server = await startServerBehindWallClock(40 * MINUTE);
  mediaHub(server).sfu.onEvent((event) => sfuEvents.push(event));
  browser = await launchBrowser({ fakeAudioCapture: wav, autoplay: true });
  [host, guest] = await Promise.all([newPage(), newPage()]);
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

    // The host leaves through the guard's Leave: the session ends (the next test starts a new one).
    await host.getByRole('button', { name: 'Exit' }).click();
    const guard = host.getByRole('dialog', { name: LIVE_MESSAGES.leaveTitle });
    await guard.getByText(LIVE_MESSAGES.leaveConfirm).waitFor();
    await guard.getByRole('button', { name: 'Leave' }).click();
    await host.waitForURL(`${server.url}/live/`);
    await expect
      .poll(() => sfuEvents.some((e) => e.type === 'publisher-stopped' && e.room === code), { timeout: 30_000 })
      .toBe(true);
  });

  it('cuts the session at 30 minutes of the server’s clock, moved in steps: the time left counts down, then the host is told and leaves', async () => {
    sfuEvents.length = 0;
    const codeField = host.getByRole('textbox', { name: 'Your room code' });
    await expect.poll(() => codeField.inputValue()).toMatch(/^[0-9a-z]{4,32}$/);
    code = await codeField.inputValue();
    await host.getByRole('button', { name: 'Start', exact: true }).click();
    await host.waitForURL('**/live/joined/*/host');
    await host.getByRole('button', { name: 'Ok' }).click();
    await expect
      .poll(() => host.getByTestId('publish-state').getAttribute('data-state'), { timeout: 60_000 })
      .toBe('connected');
    await host.getByText(freeTimeLeft(30)).waitFor();

    await guest.getByRole('textbox', { name: 'Enter room code' }).fill(code);
    await guest.getByRole('button', { name: 'JOIN' }).click();
    await guest.waitForURL(`**/live/joined/${code}/guest`);
    await guest.getByRole('button', { name: 'Ok' }).click();
    await expect
      .poll(() => guest.getByTestId('view-state').getAttribute('data-state'), { timeout: 60_000 })
      .toBe('connected');
    const hearsHost = () =>
      expect
        .poll(async () => Number(await guest.getByTestId('level-bar').first().getAttribute('data-db')), {
          timeout: 30_000,
          message: "the host's tone in the guest's room level",
        })
        .toBeGreaterThan(-40);
    await hearsHost();

    // Minute by minute the server persists the elapsed time; a step of several minutes counts them
    // all, and the room is told what is left (the pages show it at once).
    let moved = 0;
    for (const step of [5, 5, 5, 5, 5, 4]) {
      server.clock.advance(step * MINUTE);
      moved += step;
      await host.getByText(freeTimeLeft(30 - moved)).waitFor();
    }
    await guest.getByText(freeTimeLeft(1)).waitFor();
    // 29 minutes in: still live, the guest still hears the host.
    expect(await host.getByTestId('publish-state').getAttribute('data-state')).toBe('connected');
    expect(sfuEvents.some((e) => e.type === 'publisher-stopped')).toBe(false);
    await hearsHost();

    server.clock.advance(MINUTE);
    const expired = host.getByRole('dialog', { name: LIVE_MESSAGES.freeTierExpiredTitle });
    await expired.getByText(LIVE_MESSAGES.freeTierExpired).waitFor();
    await host.waitForURL(`${server.url}/live/`);
    // The server dropped the host's publisher, and the guest's room closed with the same words.
    await expect
      .poll(() => sfuEvents.find((e) => e.type === 'publisher-stopped' && e.room === code && e.reason === 'dropped'))
      .toBeTruthy();
    await guest
      .getByRole('dialog', { name: LIVE_MESSAGES.freeTierExpiredTitle })
      .getByText(LIVE_MESSAGES.freeTierExpired)
      .waitFor();
    await guest.waitForURL(`${server.url}/live/`);
    // The dialog takes focus as it opens; Escape pressed before that reaches the page instead.
    await host.bringToFront();
    await expect
      .poll(() => expired.evaluate((dialog) => dialog.contains(dialog.ownerDocument.activeElement)), {
        timeout: 30_000,
      })
      .toBe(true);
    await host.keyboard.press('Escape');
    await expired.waitFor({ state: 'hidden' });
    expect(host.url()).toBe(`${server.url}/live/`);

    // The room is over: a new publish token for it is refused with the same words.
    const { access_token } = await signInThroughOidc(server.url, HOST, 'signin');
    const token = await call(server.url, `/api/live/${code}/media-token`, {
      method: 'POST',
      token: access_token,
      body: { mode: 'publish' },
    });
    expect(token.status).toBe(403);
    expect(token.body.error?.message).toBe(LIVE_MESSAGES.freeTierExpired);
    const session = await call(server.url, `/api/live/${code}`, { token: access_token });
    expect(session.body).toMatchObject({ availability: 'EXPIRED', remainingMs: 0 });
    // The 30 minutes count as the host's live minutes this month (the first session ran none).
    const me = await call(server.url, '/api/me', { token: access_token });
    expect((me.body.entitlements as { liveMinutesThisMonth: number }).liveMinutesThisMonth).toBe(30);
  }, 300_000);
});
