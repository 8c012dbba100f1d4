import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeLosslessFrame, LOSSLESS_FRAME_LENGTH, type LosslessFrame } from '@mixroom/shared';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { fillSignUp, launchBrowser } from './helpers/browser';

/**
 * Lossless mode in two Chromium contexts: the host (Studio plan) publishes its fake audio input
 * (440 Hz left, 1000 Hz right) with Lossless on; the guest's page plays the relayed PCM through its
 * jitter buffer and shows "Lossless" with the buffer's depth. Every frame the host's page sent in a
 * window of two seconds reaches the guest's page byte for byte, in order. A guest on the Free plan
 * who starts a room of their own finds the switch disabled, with the reason.
 */
const SHOTS = process.env.MIXROOM_E2E_SHOTS;
/** Every wait for a condition: generous, the suite runs while other work loads both cores. */
const WAIT = 60_000;
let server: TestServer;
let browser: Browser;
let hostContext: BrowserContext;
let guestContext: BrowserContext;
let host: Page;
let guest: Page;

/**
 * Every peer a page makes; the lossless frames a page sends (copies, by sequence number, while
 * `__recordSent` is on) and receives on relayed `lossless` channels (while `__recordReceived` is on).
 */
const RECORD_FRAMES = `(() => {
  const Original = window.RTCPeerConnection;
  window.__sent = new Map();
  window.__received = [];
  const b64 = (buffer) => { let s = ''; const bytes = new Uint8Array(buffer); for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]); return btoa(s); };
  const sequence = (buffer) => new DataView(buffer).getUint32(4, true);
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) {
    if (window.__recordSent && this.label === 'lossless' && data instanceof ArrayBuffer) window.__sent.set(sequence(data), b64(data));
    return send.call(this, data);
  };
  window.RTCPeerConnection = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('datachannel', ({ channel }) => {
        if (channel.label !== 'lossless') return;
        channel.addEventListener('message', ({ data }) => {
          if (window.__recordReceived && data instanceof ArrayBuffer) window.__received.push(b64(data));
        });
      });
    }
  };
})();`;

const API = `async ([method, path, body]) => {
  const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'));
  const token = JSON.parse(sessionStorage.getItem(key)).access_token;
  const headers = { authorization: 'Bearer ' + token, 'content-type': 'application/json' };
  const r = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}`;

async function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate<{ status: number; body: T }>(`(${API})(${JSON.stringify([method, path, body ?? null])})`);
}

async function signUp(page: Page, name: string, email: string) {
  await page.goto(`${server.url}/public/landing`);
  await page.getByRole('button', { name: 'Get started' }).click();
  await page.waitForURL('**/oidc/interaction/**');
  await fillSignUp(page, { name, email, password: `${name}-password-1` });
  await page.waitForURL(`${server.url}/groups`);
}

/** Starts the page's own room and waits until its stream is sent; answers the guest code. */
async function startRoom(page: Page): Promise<string> {
  await page.goto(`${server.url}/live`);
  const codeField = page.getByRole('textbox', { name: 'Your room code' });
  await expect.poll(() => codeField.inputValue(), { timeout: WAIT }).toMatch(/^[0-9a-z]{4,32}$/);
  const code = await codeField.inputValue();
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await page.waitForURL('**/live/joined/*/host');
  await page.getByRole('button', { name: 'Ok' }).click();
  await expect
    .poll(() => page.getByTestId('publish-state').getAttribute('data-state'), { timeout: WAIT })
    .toBe('connected');
  return code;
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1440, 420]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(`new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))`);
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Power of one frequency in 24-bit samples (Goertzel). */
function tonePower(samples: Int32Array, hz: number): number {
  const coeff = 2 * Math.cos((2 * Math.PI * hz) / 48_000);
  let s1 = 0;
  let s2 = 0;
  for (const sample of samples) {
    const s0 = sample / 8_388_608 + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return s1 * s1 + s2 * s2 - coeff * s1 * s2;
}

// The setup (server, browser, sign-ups) may take minutes while other work loads both cores.
beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  const wav = join(mkdtempSync(join(tmpdir(), 'mixroom-lossless-')), 'tones.wav');
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=60'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=1000:sample_rate=48000:duration=60'],
    ...['-filter_complex', '[0][1]amerge=inputs=2,volume=0.5', '-ac', '2', '-c:a', 'pcm_s16le', wav],
  ]);
  server = await startTestServer();
  browser = await launchBrowser({ fakeAudioCapture: wav, autoplay: true });
  hostContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ['microphone'] });
  guestContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ['microphone'] });
  for (const context of [hostContext, guestContext]) {
    context.setDefaultTimeout(60_000);
    await context.addInitScript(RECORD_FRAMES);
  }
  host = await hostContext.newPage();
  guest = await guestContext.newPage();
  // The first account administers: Hana gives herself the Studio plan.
  await signUp(host, 'Hana Host', 'hana@lossless.example');
  await signUp(guest, 'Gil Guest', 'gil@lossless.example');
  const me = await api<{ id: string }>(host, 'GET', '/api/me');
  expect((await api(host, 'POST', `/api/admin/users/${me.body.id}/plans`, { sku: 'STUDIO' })).status).toBe(201);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('lossless mode in Chromium', () => {
  it('is disabled, with the reason, for a host whose plan has no lossless', async () => {
    await startRoom(guest);
    const toggle = guest.getByTestId('lossless-toggle');
    await expect.poll(() => toggle.getAttribute('data-allowed'), { timeout: WAIT }).toBe('false');
    const lossless = guest.getByRole('switch', { name: 'Lossless' });
    expect(await lossless.isDisabled()).toBe(true);
    expect(await lossless.getAttribute('aria-description')).toBe(
      'Lossless mode is available on the Studio and Live plans.',
    );
    await guest.getByRole('button', { name: 'Exit' }).click();
    await guest.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
    await guest.waitForURL(`${server.url}/live/`);
  });

  it('the guest receives every PCM frame the host sent, bit for bit, and hears it instead of Opus', async () => {
    const code = await startRoom(host);
    await expect
      .poll(() => host.getByTestId('lossless-toggle').getAttribute('data-allowed'), { timeout: WAIT })
      .toBe('true');
    await host.getByRole('switch', { name: 'Lossless' }).click({ force: true });
    await expect.poll(() => host.getByRole('switch', { name: 'Lossless' }).isChecked(), { timeout: WAIT }).toBe(true);
    await expect
      .poll(() => host.getByTestId('publish-state').getAttribute('data-state'), { timeout: WAIT })
      .toBe('connected');

    await guest.goto(`${server.url}/live/joined/${code}/guest`);
    await guest.getByRole('button', { name: 'Ok' }).click();
    const indicator = guest.getByTestId('lossless-indicator');
    await expect.poll(() => indicator.getAttribute('data-preferred'), { timeout: WAIT }).toBe('true');
    await expect
      .poll(async () => Number(await indicator.getAttribute('data-depth-ms')), { timeout: WAIT })
      .toBeGreaterThan(0);
    await guest.getByText('Lossless', { exact: true }).waitFor();
    await shoot(host, 'live-lossless-host');
    await shoot(guest, 'live-lossless-guest');

    // The guest records from before the host's window opens until the window's last frame arrived.
    await guest.evaluate('window.__recordReceived = true');
    await host.evaluate('window.__recordSent = true');
    await expect.poll(() => host.evaluate<number>('window.__sent.size'), { timeout: WAIT }).toBeGreaterThan(200);
    await host.evaluate('window.__recordSent = false');
    const sent = new Map(await host.evaluate<[number, string][]>('[...window.__sent]'));
    const lastSent = Math.max(...sent.keys());
    const decode = (b64: string) => decodeLosslessFrame(Buffer.from(b64, 'base64'))!;
    await expect
      .poll(
        async () => (await guest.evaluate<string[]>('window.__received')).some((m) => decode(m).sequence === lastSent),
        { timeout: WAIT },
      )
      .toBe(true);
    const received = new Map<number, string>();
    for (const m of await guest.evaluate<string[]>('window.__received')) received.set(decode(m).sequence, m);

    // The host's page skips frames rather than queue more than a second of them (a starved machine
    // can't always carry 2.3 Mbit/s); what it did send must all arrive, as sent.
    const sequences = [...sent.keys()].sort((a, b) => a - b);
    const missing = sequences.filter((s) => !received.has(s));
    const differing = sequences.filter((s) => received.has(s) && received.get(s) !== sent.get(s));
    expect({ missing, differing }).toEqual({ missing: [], differing: [] });
    const span = sequences.at(-1)! - sequences[0]! + 1;
    const dropouts = await indicator.getAttribute('data-dropouts');
    console.info(
      `lossless e2e: ${sequences.length} of ${span} frames sent in the window, all identical; guest dropouts ${dropouts}`,
    );

    // What went out is the host's input: 10 ms stereo frames at 48 kHz, 440 Hz left, 1000 Hz right.
    const frames = sequences.map((s) => decode(sent.get(s)!));
    const joined = (channel: number) =>
      Int32Array.from(frames.slice(0, 50).flatMap((f: LosslessFrame) => [...f.channels[channel]!]));
    expect(frames.every((f) => f.sampleRate === 48_000 && f.channels[0]!.length === LOSSLESS_FRAME_LENGTH)).toBe(true);
    expect(tonePower(joined(0), 440)).toBeGreaterThan(100 * tonePower(joined(0), 1000));
    expect(tonePower(joined(1), 1000)).toBeGreaterThan(100 * tonePower(joined(1), 440));

    // Lossless off: the PCM stops, the guest's page falls back to the Opus stream within a second.
    await host.getByRole('switch', { name: 'Lossless' }).click({ force: true });
    await expect.poll(() => indicator.getAttribute('data-preferred'), { timeout: WAIT }).toBe('false');
    await guest.getByText('Opus (lossless stalled)').waitFor();
    expect(await guest.getByTestId('view-state').getAttribute('data-state')).toBe('connected');
  }, 300_000);
});
