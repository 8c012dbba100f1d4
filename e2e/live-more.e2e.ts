import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { artifacts, fillSignUp, launchBrowser } from './helpers/browser';
import { PageJournal, reportOnFailure } from './helpers/failure-report';
import { noise, normalisedPeak, writeStereoWav } from './helpers/signal';
import { decodeLosslessFrame, LOSSLESS_FRAME_LENGTH, type LosslessFrame } from '@mixroom/shared';

/**
 * The bridge's sound arrives in the guest as it left the file: the bridge loops a WAV of two
 * independent band-limited noises (left and right), the host publishes it with the Plugin source,
 * and the guest's page records what it receives; cross-correlation finds the file in the recording,
 * left in left and right in right. Then the host records the room (the recording is the bridge's
 * file too) and saves it to a project: the version is processed, as long as the recording, and its
 * review page plays it. With Lossless on, the PCM frames the host's page sends are the file's own
 * samples, bit for bit.
 */
let server: TestServer;
let browser: Browser;
let hostContext: BrowserContext;
let guestContext: BrowserContext;
let host: Page;
let guest: Page;
let guestCode = '';
let bridge: ChildProcess | null = null;
let bridgeWav = '';
let journals: PageJournal[] = [];

/** One loop of the bridge's file: 2^20 frames (21.8 s), so the correlation runs over one FFT size. */
const PERIOD = 1 << 20;
/** What the guest's page records for the correlation: 2^14 frames (0.34 s). */
const TAKE = 1 << 14;
let reference: [Float64Array, Float64Array];

/** Every RTCPeerConnection a page makes, so the test can listen to what it receives. */
const CAPTURE_PEERS = `(() => {
  const Original = window.RTCPeerConnection;
  window.__peers = [];
  window.RTCPeerConnection = class extends Original {
    constructor(...args) { super(...args); window.__peers.push(this); }
  };
})();`;

/**
 * Records `frames` stereo frames of every live received audio track (Web Audio, 48 kHz) and answers
 * the loudest one's channels and their RMS.
 */
const RECORD_RECEIVED = `(frames) => new Promise((done) => {
  const ctx = window.__rec ?? (window.__rec = new AudioContext({ sampleRate: 48000 }));
  const tracks = [];
  for (const pc of window.__peers) for (const r of pc.getReceivers())
    if (r.track && r.track.kind === 'audio' && r.track.readyState === 'live') tracks.push(r.track);
  const takes = tracks.map((track) => {
    const stream = new MediaStream([track]);
    const element = new Audio(); element.srcObject = stream; element.muted = true; element.play().catch(() => {});
    const source = ctx.createMediaStreamSource(stream);
    const node = ctx.createScriptProcessor(4096, 2, 2);
    node.channelCount = 2; node.channelCountMode = 'explicit'; node.channelInterpretation = 'discrete';
    const take = { left: new Float32Array(frames), right: new Float32Array(frames), n: 0, element, source, node };
    node.onaudioprocess = (e) => {
      if (take.n >= frames) return;
      const count = Math.min(e.inputBuffer.length, frames - take.n);
      take.left.set(e.inputBuffer.getChannelData(0).subarray(0, count), take.n);
      take.right.set(e.inputBuffer.getChannelData(1).subarray(0, count), take.n);
      take.n += count;
      if (takes.every((t) => t.n >= frames)) finish();
    };
    source.connect(node); node.connect(ctx.destination);
    return take;
  });
  const rms = (x) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);
  const finish = () => {
    for (const t of takes) { t.source.disconnect(); t.node.disconnect(); t.element.srcObject = null; }
    const loudest = takes.map((t) => ({ t, level: rms(t.left) + rms(t.right) })).sort((a, b) => b.level - a.level)[0];
    done(loudest
      ? { left: Array.from(loudest.t.left), right: Array.from(loudest.t.right), rmsLeft: rms(loudest.t.left), rmsRight: rms(loudest.t.right), tracks: takes.length }
      : { left: [], right: [], rmsLeft: 0, rmsRight: 0, tracks: 0 });
  };
  if (takes.length === 0) finish();
  ctx.resume();
})`;

interface Take {
  left: number[];
  right: number[];
  rmsLeft: number;
  rmsRight: number;
  tracks: number;
}

/** The room's state badges as they change, into the page's console (and so its journal). */
const WATCH_STATES = `(() => {
  const seen = {};
  new MutationObserver(() => {
    for (const id of ['publish-state', 'view-state']) {
      const state = document.querySelector('[data-testid="' + id + '"]')?.getAttribute('data-state') ?? 'absent';
      if (seen[id] !== state) { seen[id] = state; console.info(id + ': ' + state); }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
})();`;

/** The host's API, with the page's own access token. */
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

// The setup (server, browser, sign-ups) may take minutes while other work loads both cores.
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-live-more-'));
  reference = [noise(1, PERIOD), noise(2, PERIOD)];
  bridgeWav = join(dir, 'bridge-noise.wav');
  writeStereoWav(bridgeWav, reference[0], reference[1]);
  // The host's audio input is silent: whatever the guest hears loudly comes from the bridge.
  const silence = join(dir, 'silence.wav');
  writeStereoWav(silence, new Float64Array(48_000), new Float64Array(48_000));
  // The server's own account of the room, kept beside the pages' screenshots if a test fails.
  mkdirSync(artifacts, { recursive: true });
  server = await startTestServer({}, { logFile: join(artifacts, 'live-more-server.log') });
  browser = await launchBrowser({ fakeAudioCapture: silence, autoplay: true });
  const origin = server.url;
  hostContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  guestContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  for (const context of [hostContext, guestContext]) {
    context.setDefaultTimeout(30_000);
    await context.grantPermissions(['microphone', 'clipboard-read', 'clipboard-write'], { origin });
    await context.addInitScript(CAPTURE_PEERS);
    await context.addInitScript(WATCH_STATES);
  }
  host = await hostContext.newPage();
  guest = await guestContext.newPage();
  journals = [new PageJournal(host, 'host'), new PageJournal(guest, 'guest')];
  await signUp(host, 'Hana Host', 'hana@live-more.example');
  await signUp(guest, 'Gil Guest', 'gil@live-more.example');
}, 300_000);

afterAll(async () => {
  bridge?.kill('SIGINT');
  await browser?.close();
  await server?.close();
});

describe('live room: what the bridge plays, what the room keeps', () => {
  it('the guest hears the bridge file itself: left in left, right in right (normalised correlation > 0.6)', async () => {
    reportOnFailure(journals, 'live-more-correlation');
    // Hana signed up first and administers: Studio, so that she may record later.
    const me = await api<{ id: string }>(host, 'GET', '/api/me');
    expect((await api(host, 'POST', `/api/admin/users/${me.body.id}/plans`, { sku: 'STUDIO' })).status).toBe(201);

    await host.goto(`${server.url}/live`);
    const codeField = host.getByRole('textbox', { name: 'Your room code' });
    await expect.poll(() => codeField.inputValue()).toMatch(/^[0-9a-z]{4,32}$/);
    guestCode = await codeField.inputValue();
    await host.getByRole('button', { name: 'Start', exact: true }).click();
    await host.waitForURL('**/live/joined/*/host');
    await host.getByRole('button', { name: 'Ok' }).click();
    await expect
      .poll(() => host.getByTestId('publish-state').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('connected');
    // High (256k) for the correlation's sake.
    await host.getByLabel('Quality').first().click();
    await host.getByRole('option', { name: /High 256k/ }).click();

    await guest.goto(`${server.url}/live`);
    await guest.getByRole('textbox', { name: 'Enter room code' }).fill(guestCode);
    await guest.getByRole('button', { name: 'JOIN' }).click();
    await guest.waitForURL(`**/live/joined/${guestCode}/guest`);
    await guest.getByRole('button', { name: 'Ok' }).click();
    await expect
      .poll(() => guest.getByTestId('view-state').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('connected');

    bridge = spawn(process.execPath, ['packages/bridge/src/cli.ts', '--source', 'file', bridgeWav, '--loop'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await host.getByText('Plugin', { exact: true }).click();

    // Until the bridge's noise is loud on both channels in the guest (the host's input is silent)…
    await expect
      .poll(
        async () => {
          const take = await guest.evaluate<Take>(`(${RECORD_RECEIVED})(4096)`);
          return Math.min(take.rmsLeft, take.rmsRight);
        },
        { timeout: 30_000, message: "the bridge's noise on both channels in the guest" },
      )
      .toBeGreaterThan(0.02);
    // …then a fresh take, wholly after the switch.
    const take = await guest.evaluate<Take>(`(${RECORD_RECEIVED})(${TAKE})`);
    // Judged on the take's cleanest quarter: a concealed packet or a jitter-buffer stretch (a loaded
    // machine) lowers a whole-take correlation (0.76 and 0.50 seen on CI), and hits both channels at
    // once, so the quarter where the left finds the file best is as clean for the right.
    const quarter = TAKE / 4;
    const windowOf = (samples: number[], i: number) => Float64Array.from(samples.slice(i * quarter, (i + 1) * quarter));
    const cleanest = [0, 1, 2, 3].reduce((best, i) =>
      normalisedPeak(windowOf(take.left, i), reference[0]).peak >
      normalisedPeak(windowOf(take.left, best), reference[0]).peak
        ? i
        : best,
    );
    const left = windowOf(take.left, cleanest);
    const right = windowOf(take.right, cleanest);
    const ll = normalisedPeak(left, reference[0]);
    const rr = normalisedPeak(right, reference[1]);
    const lr = normalisedPeak(left, reference[1]);
    const rl = normalisedPeak(right, reference[0]);
    console.log(
      `bridge → guest correlation: L·L ${ll.peak.toFixed(3)} (lag ${ll.lag}), R·R ${rr.peak.toFixed(3)} (lag ${rr.lag}), L·R ${lr.peak.toFixed(3)}, R·L ${rl.peak.toFixed(3)}; rms ${take.rmsLeft.toFixed(3)}/${take.rmsRight.toFixed(3)} over ${take.tracks} track(s)`,
    );
    // The file is found where it belongs, and not in the other channel, at one lag for both.
    expect(ll.peak).toBeGreaterThan(0.6);
    expect(rr.peak).toBeGreaterThan(0.6);
    expect(lr.peak).toBeLessThan(0.3);
    expect(rl.peak).toBeLessThan(0.3);
    // Both channels were taken at one moment: they found the file at the same place (± a frame).
    expect(Math.abs(ll.lag - rr.lag)).toBeLessThanOrEqual(1);
  }, 300_000);

  it("Lossless from the bridge: every PCM frame the page sends holds the file's samples, bit for bit", async () => {
    reportOnFailure(journals, 'live-more-lossless');
    // Frames leave the host's page on its `lossless` data channel: keep byte copies of the first
    // 260 while recording (the page's own work stays small on a loaded machine: no per-frame arrays,
    // and the hook stops by itself), then take them out at once as base64.
    await host.evaluate(`(() => {
      window.__sent = [];
      const send = RTCDataChannel.prototype.send;
      RTCDataChannel.prototype.send = function (data) {
        if (window.__recordSent && this.label === 'lossless' && data instanceof ArrayBuffer && window.__sent.length < 260)
          window.__sent.push(new Uint8Array(data.slice(0)));
        return send.call(this, data);
      };
    })()`);
    await host.getByRole('switch', { name: 'Lossless' }).click({ force: true });
    await expect.poll(() => host.getByRole('switch', { name: 'Lossless' }).isChecked(), { timeout: 30_000 }).toBe(true);
    await host.evaluate('window.__recordSent = true');
    // The first half second after the switch is left out: the page's lossless path is still starting.
    // 2 s of audio after it.
    await expect.poll(() => host.evaluate<number>('window.__sent.length'), { timeout: 120_000 }).toBeGreaterThan(250);
    await host.evaluate('window.__recordSent = false');
    const sent = await host.evaluate<string[]>(
      `window.__sent.map((bytes) => { let text = ''; for (const b of bytes) text += String.fromCharCode(b); return btoa(text); })`,
    );
    const frames = sent
      .slice(50, 250)
      .map((base64) => decodeLosslessFrame(Uint8Array.from(Buffer.from(base64, 'base64')))!);
    await host.getByRole('switch', { name: 'Lossless' }).click({ force: true });
    await expect
      .poll(() => host.getByRole('switch', { name: 'Lossless' }).isChecked(), { timeout: 30_000 })
      .toBe(false);

    // The file holds 16-bit samples; the same sample in 24 bits is 256 times the value. Each frame
    // (480 per channel) is looked up in the looping file by its first samples, then compared whole.
    const file = [0, 1].map((c) => Int32Array.from(reference[c]!, (x) => Math.round(x * 32_767) * 256));
    const at = (frame: LosslessFrame): number => {
      const [left, right] = [frame.channels[0]!, frame.channels[1]!];
      for (let i = 0; i < PERIOD; i++)
        if (file[0]![i] === left[0] && file[1]![i] === right[0] && file[0]![(i + 1) % PERIOD] === left[1]) {
          const whole = left.every(
            (v, k) => file[0]![(i + k) % PERIOD] === v && file[1]![(i + k) % PERIOD] === right[k],
          );
          if (whole) return i;
        }
      return -1;
    };
    const offsets = frames.map(at);
    // A loaded machine can starve the page's feed from the bridge for a few blocks: the page then
    // sends silence (a dropout), never altered samples. Every frame is the file's, bit for bit, or
    // holds a dropout's run of zeros; the file's frames follow each other in order.
    const zeroRun = (frame: LosslessFrame): boolean => {
      let run = 0;
      for (let k = 0; k < LOSSLESS_FRAME_LENGTH; k++) {
        run = frame.channels[0]![k] === 0 && frame.channels[1]![k] === 0 ? run + 1 : 0;
        if (run >= 32) return true;
      }
      return false;
    };
    const dropouts = frames.filter((frame, k) => offsets[k]! < 0);
    // How many depends on the machine (27 of 200 on a loaded CI run): what they hold does not.
    expect(dropouts.every(zeroRun)).toBe(true);
    const steps = offsets.slice(1).flatMap((o, k) => {
      const previous = offsets[k]!;
      if (o < 0 || previous < 0 || frames[k + 1]!.sequence !== frames[k]!.sequence + 1) return [];
      return [(o - previous + PERIOD) % PERIOD];
    });
    console.log(
      `lossless from the bridge: ${frames.length - dropouts.length} of ${frames.length} frames bit-identical to the file, ${dropouts.length} in dropouts`,
    );
    expect(steps.length).toBeGreaterThan(frames.length / 2);
    expect(steps.every((step) => step === LOSSLESS_FRAME_LENGTH)).toBe(true);
  }, 300_000);

  it('"Save to project" makes a version as long as the recording, and its review page plays it', async () => {
    reportOnFailure(journals, 'live-more-save');
    const project = await api<{ id: string }>(host, 'POST', '/api/projects', { name: 'Live takes', groupId: null });
    expect(project.status).toBe(201);

    await host.getByRole('button', { name: 'Start Rec' }).click();
    await host.getByRole('button', { name: 'Stop Rec' }).waitFor();
    await expect
      .poll(async () => Number(await host.getByTestId('record-time').getAttribute('data-seconds')), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(3);
    const [download] = await Promise.all([
      host.waitForEvent('download'),
      host.getByRole('button', { name: 'Stop Rec' }).click(),
    ]);
    const wav = readFileSync(await download.path());
    const seconds = wav.readUInt32LE(40) / (wav.readUInt16LE(22) * (wav.readUInt16LE(34) / 8)) / wav.readUInt32LE(24);
    expect(seconds).toBeGreaterThan(2.5);
    // What was recorded is the bridge's file, channel for channel: five TAKE windows spread over the
    // recording, each correlated on its own. A loaded machine may starve the page's audio for a block
    // (an underrun shifts what follows), which splits one window's peak between two lags (0.62 seen
    // on CI); the median window still finds the file where it belongs, and no window finds the other
    // channel's file.
    expect(wav.readUInt16LE(34)).toBe(24);
    const frames = wav.readUInt32LE(40) / 6;
    const windowAt = (from: number, at: number): Float64Array =>
      Float64Array.from({ length: TAKE }, (_, i) => wav.readIntLE(44 + (from + i) * 6 + at, 3) / 8_388_608);
    const starts = [1, 2, 3, 4, 5].map((k) => Math.floor(((frames - TAKE) * k) / 6));
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const same = starts.map((from) => [
      normalisedPeak(windowAt(from, 0), reference[0]).peak,
      normalisedPeak(windowAt(from, 3), reference[1]).peak,
    ]);
    const crossed = starts.map((from) =>
      Math.max(
        normalisedPeak(windowAt(from, 0), reference[1]).peak,
        normalisedPeak(windowAt(from, 3), reference[0]).peak,
      ),
    );
    console.log(
      `recording correlation by window: L·L ${same.map(([l]) => l!.toFixed(3)).join(' ')}, R·R ${same.map(([, r]) => r!.toFixed(3)).join(' ')}, crossed ≤ ${Math.max(...crossed).toFixed(3)}`,
    );
    expect(median(same.map(([l]) => l!))).toBeGreaterThan(0.8);
    expect(median(same.map(([, r]) => r!))).toBeGreaterThan(0.8);
    expect(Math.max(...crossed)).toBeLessThan(0.3);

    await host.getByRole('button', { name: 'Save to project' }).click();
    const dialog = host.getByRole('dialog', { name: 'Save to project' });
    await dialog.getByText(download.suggestedFilename()).waitFor();
    await dialog.getByRole('button', { name: 'Live takes' }).click();
    await expect
      .poll(() => dialog.getByRole('button', { name: 'Live takes' }).getAttribute('aria-pressed'))
      .toBe('true');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await host.locator('.mantine-Notification-root', { hasText: 'Saved to Live takes' }).waitFor({ timeout: 60_000 });
    await dialog.waitFor({ state: 'hidden' });

    type Version = { status: string; durationSeconds: number | null; fileName: string; fileSize: number };
    let versions: Version[] = [];
    await expect
      .poll(
        async () => {
          versions = (await api<{ versions: Version[] }>(host, 'GET', `/api/projects/${project.body.id}`)).body
            .versions;
          return versions.map((v) => v.status).join(',');
        },
        { timeout: 120_000, message: 'the saved recording processed' },
      )
      .toBe('ready');
    console.log(
      `saved version: ${versions[0]!.fileName}, ${versions[0]!.durationSeconds} s (recording ${seconds.toFixed(3)} s)`,
    );
    expect(versions[0]!.fileName).toBe(download.suggestedFilename());
    expect(versions[0]!.fileSize).toBe(wav.length);
    expect(Math.abs(versions[0]!.durationSeconds! - seconds)).toBeLessThan(0.1);

    // The version's review page plays it: its clock shows the recording's length and runs. (The host leaves
    // the room first: the sign-in lives in this tab's session storage.)
    await host.getByRole('button', { name: 'Exit' }).click();
    await host.getByRole('dialog', { name: 'Live' }).getByRole('button', { name: 'Leave' }).click();
    await host.waitForURL(`${server.url}/live/`);
    await host.goto(`${server.url}/version/${project.body.id}/1`);
    await host.locator('[data-testid="waveform"] canvas').first().waitFor();
    const clock = () => host.getByTestId('current-time').innerText();
    await expect.poll(clock).toMatch(/^0:00\.00 \/ \d+:\d\d\.\d\d/);
    const [, minutes, secs] = /\/ (\d+):(\d\d\.\d\d)/.exec(await clock())!;
    expect(Math.abs(Number(minutes) * 60 + Number(secs) - seconds)).toBeLessThan(0.1);
    await host.getByTestId('play-pause').click();
    await expect.poll(clock, { timeout: 15_000 }).not.toMatch(/^0:00\.00/);
  }, 300_000);
});
