import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClock } from '../apps/server/src/platform/clock/clock';
import { call } from '../apps/server/test/helpers/api';
import { accessOf, broadcastApi, tokenExchange } from '../apps/server/test/helpers/broadcast';
import { startClockedServer } from '../apps/server/test/helpers/clocked-server';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { Listener } from '../apps/server/test/helpers/rtc-clients';
import type { TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, screenshot, signInAt } from './helpers/browser';

/**
 * A broadcast end to end: an administrator lets an account broadcast; it sets a countdown and
 * starts from Chromium with a (fake) stereo input, 440 Hz left and 1000 Hz right; signed-out
 * listeners (headless WHEP peers in Node and Chromium pages) hear both sides apart; the clock moves
 * past the countdown; the broadcast stops; a new room link locks the old one out.
 */
// 28 headless listeners and two pages: 30 signed-out listeners (the step takes about 7 s on a quiet
// machine). MIXROOM_BROADCAST_LISTENERS sets another count.
const NODE_LISTENERS = Number(process.env.MIXROOM_BROADCAST_LISTENERS ?? 28);
const admin = { email: 'root@cast.test', password: 'root-password-long' };
const caster = { email: 'cara@cast.test', password: 'cara-password-long', displayName: 'Cara Caster' };
const bystander = { email: 'bo@cast.test', password: 'bo-password-long', displayName: 'Bo Bystander' };

let server: TestServer & { clock: TestClock };
let browser: Browser;
const contexts: BrowserContext[] = [];
const ears: Listener[] = [];
let bystanderToken = '';
let casterPage: Page;
let listenerPages: Page[] = [];
let roomLink = '';

/** Every RTCPeerConnection a page makes, so the test can listen to what it receives. */
const CAPTURE_PEERS = `(() => {
  const Original = window.RTCPeerConnection;
  window.__peers = [];
  window.RTCPeerConnection = class extends Original {
    constructor(...args) { super(...args); window.__peers.push(this); }
  };
})();`;

/** Left and right levels at 440 Hz and 1000 Hz of every live received track. */
const LISTEN = `() => {
  const ctx = window.__ears?.ctx ?? new AudioContext({ sampleRate: 48000 });
  window.__ears = { ctx, tracks: window.__ears?.tracks ?? new Map() };
  for (const pc of window.__peers) for (const r of pc.getReceivers()) {
    const track = r.track;
    if (!track || track.kind !== 'audio' || track.readyState !== 'live' || window.__ears.tracks.has(track.id)) continue;
    const stream = new MediaStream([track]);
    const element = new Audio(); element.srcObject = stream; element.muted = true; element.play().catch(() => {});
    const splitter = ctx.createChannelSplitter(2);
    ctx.createMediaStreamSource(stream).connect(splitter);
    const analysers = [0, 1].map((c) => { const a = ctx.createAnalyser(); a.fftSize = 4096; splitter.connect(a, c); return a; });
    window.__ears.tracks.set(track.id, { analysers });
  }
  ctx.resume();
  return [...window.__ears.tracks.values()].map(({ analysers }) => analysers.map((a) => {
    const bins = new Float32Array(a.frequencyBinCount); a.getFloatFrequencyData(bins);
    const at = (hz) => bins[Math.round((hz / 48000) * a.fftSize)];
    return { a440: at(440), a1000: at(1000) };
  }));
}`;

type Level = { a440: number; a1000: number };
const apart = (levels: Level[][]) => levels.some(([l, r]) => l!.a440 > l!.a1000 + 20 && r!.a1000 > r!.a440 + 20);

async function tab(account: { email: string; password: string } | null, path: string, width = 1440): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, permissions: ['microphone'] });
  contexts.push(context);
  await context.grantPermissions(['microphone', 'clipboard-read', 'clipboard-write'], { origin: server.url });
  await context.addInitScript(CAPTURE_PEERS);
  // The machine is shared: every wait for a condition may last a minute.
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  if (account) await signInAt(page, server.url, path, account);
  else await page.goto(`${server.url}${path}`);
  return page;
}

async function atWidths(page: Page, name: string) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** A datetime-local value (local time, minutes) for epoch ms. */
function localInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-broadcast-'));
  const wav = join(dir, 'tones.wav');
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=120'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=1000:sample_rate=48000:duration=120'],
    ...['-filter_complex', '[0][1]amerge=inputs=2,volume=0.5', '-ac', '2', '-c:a', 'pcm_s16le', wav],
  ]);
  server = await startClockedServer();
  for (const account of [admin, caster, bystander]) await signInThroughOidc(server.url, account);
  bystanderToken = (await signInThroughOidc(server.url, bystander, 'signin')).access_token;
  browser = await launchBrowser({ fakeAudioCapture: wav });
}, 120_000);

afterAll(async () => {
  for (const ear of ears) ear.close();
  await browser?.close();
  await server?.close();
});

describe('a broadcast', () => {
  it('has no Broadcaster card for a user without the right, whose API calls get 403', async () => {
    const page = await tab(bystander, '/live');
    await page.getByRole('heading', { name: 'Host' }).waitFor();
    // The card depends on the account's flags, which /live has loaded by now.
    await page.getByRole('heading', { name: 'Guest' }).waitFor();
    expect(await page.getByTestId('broadcaster-card').count()).toBe(0);
    expect((await call(server.url, '/api/broadcast', { token: bystanderToken })).status).toBe(403);
  });

  it('an administrator grants canBroadcast; the broadcaster sets a countdown', async () => {
    const operator = await tab(admin, '/admin/users');
    await operator.getByLabel('Search users').fill(caster.email);
    await operator.getByTestId('user-row').filter({ hasText: caster.email }).click();
    await operator.getByTestId('user-details').waitFor();
    const flag = operator.getByRole('switch', { name: 'canBroadcast' });
    await flag.click();
    await expect.poll(() => flag.isChecked()).toBe(true);

    casterPage = await tab(caster, '/live');
    const card = casterPage.getByTestId('broadcaster-card');
    await card.waitFor();
    roomLink = await card.getByRole('textbox', { name: 'Room link (listeners)' }).inputValue();
    expect(roomLink).toMatch(/\/public\/live\/[0-9a-z]{10}$/);
    // Three to four minutes ahead: the move past it (below) stays shorter than an access token's five
    // minutes, so the signed-in broadcaster's page keeps calling the API with the token it holds.
    const countdown = Math.ceil((server.clock.now().getTime() + 3 * 60_000) / 60_000) * 60_000;
    await card.getByLabel('Countdown').fill(localInput(countdown));
    await casterPage.getByText('Countdown has been set').waitFor();
    await atWidths(casterPage, 'broadcast-card');
  }, 240_000);

  it('signed-out listeners see the countdown, then hear the broadcast in stereo; the broadcaster counts them', async () => {
    listenerPages = [await tab(null, new URL(roomLink).pathname), await tab(null, new URL(roomLink).pathname, 390)];
    for (const page of listenerPages) {
      await expect.poll(() => page.getByTestId('countdown-label').innerText()).toMatch(/^LIVE IN 0d 0h \d+m \d+s$/);
      await page.getByText('The broadcast has not started yet.').waitFor();
    }
    await atWidths(listenerPages[0]!, 'broadcast-public-countdown');

    await casterPage.getByTestId('broadcaster-card').getByRole('button', { name: 'START' }).click();
    await casterPage.waitForURL('**/live/joined/*/broadcaster');
    await casterPage.getByRole('button', { name: 'Ok' }).click();
    await expect
      .poll(() => casterPage.getByTestId('publish-state').getAttribute('data-state'), { timeout: 60_000 })
      .toBe('connected');
    await expect.poll(() => casterPage.getByTestId('broadcast-state').innerText(), { timeout: 60_000 }).toBe('LIVE');

    const code = new URL(roomLink).pathname.split('/').pop()!;
    for (let i = 0; i < NODE_LISTENERS; i++) {
      const access = accessOf(await broadcastApi(server, null).publicAccess(code));
      ears.push(await Listener.start(tokenExchange(server, access.media), { slots: 1, probeHz: [440, 1000] }));
    }
    for (const ear of ears)
      await waitFor(() => ear.slotHearing(440, 'left') && ear.slotHearing(1000, 'right'), {
        what: 'stereo at a Node listener',
        timeoutMs: 90_000,
      });
    expect(ears.every((ear) => [...ear.slots.values()][0]!.stereoFrames > 0)).toBe(true);

    for (const page of listenerPages) {
      await page.getByRole('button', { name: 'Play' }).click();
      await expect
        .poll(() => page.getByTestId('broadcast-state').getAttribute('data-stream'), { timeout: 60_000 })
        .toBe('connected');
      await expect
        .poll(async () => apart(await page.evaluate<Level[][]>(`(${LISTEN})()`)), { timeout: 60_000 })
        .toBe(true);
    }
    const everyone = String(NODE_LISTENERS + listenerPages.length);
    await expect.poll(() => casterPage.getByTestId('listener-count').innerText(), { timeout: 60_000 }).toBe(everyone);
    await expect
      .poll(() => listenerPages[0]!.getByTestId('listener-count').textContent(), { timeout: 60_000 })
      .toBe(`${everyone} listening`);
  }, 600_000);

  it('moves past the countdown on the server clock: LIVE STARTED', async () => {
    // Still counting down (the server's clock stands still; only its move may start the broadcast).
    for (const page of [...listenerPages, casterPage])
      expect(await page.getByTestId('countdown-label').innerText()).toMatch(/^LIVE IN 0d 0h \d+m \d+s$/);
    server.clock.advance(4.5 * 60_000);
    for (const page of [...listenerPages, casterPage])
      await expect
        .poll(() => page.getByTestId('countdown-label').innerText(), { timeout: 30_000 })
        .toBe('LIVE STARTED');
    await atWidths(casterPage, 'broadcast-room');
    await atWidths(listenerPages[0]!, 'broadcast-public-live');
  }, 240_000);

  it('stopping shows "ended"; a new room link locks the old one out, listeners included', async () => {
    await casterPage.getByRole('button', { name: 'Stop broadcast' }).click();
    for (const page of listenerPages)
      await expect
        .poll(() => page.getByTestId('broadcast-state').getAttribute('data-phase'), { timeout: 30_000 })
        .toBe('ended');
    await listenerPages[0]!.getByText('The broadcast has ended.').waitFor();
    await atWidths(listenerPages[0]!, 'broadcast-public-ended');

    await casterPage.getByRole('button', { name: 'Exit' }).click();
    await casterPage.waitForURL('**/live');
    const card = casterPage.getByTestId('broadcaster-card');
    await card.getByRole('button', { name: 'Generate new room link' }).click();
    await expect
      .poll(() => card.getByRole('textbox', { name: 'Room link (listeners)' }).inputValue())
      .not.toBe(roomLink);
    for (const page of listenerPages) await page.getByText('No such room').waitFor();
    await atWidths(listenerPages[1]!, 'broadcast-public-gone');
    const code = new URL(roomLink).pathname.split('/').pop()!;
    expect((await broadcastApi(server, null).publicView(code)).status).toBe(404);
    await waitFor(() => ears.every((ear) => ear.pc.connectionState !== 'connected'), { what: 'old listeners dropped' });
  }, 240_000);
});
