import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { fillSignUp, launchBrowser } from './helpers/browser';

/**
 * The talkback of a live room in two Chromium contexts of one browser whose fake microphone plays a
 * speech-like signal (440/660/880 Hz steps under a 3 Hz swell): the host publishes it as music
 * (unprocessed) and both talk on it (processed); each hears the other's talkback, and the guest's
 * music dips by the depth the guest chose while the host talks.
 */
const SHOTS = process.env.MIXROOM_E2E_SHOTS;
let server: TestServer;
let browser: Browser;
let host: Page;
let guest: Page;

/** The app's audio graphs, handed to the test through its seam (set before any page script runs). */
const TAPS = `window.__mixroomTaps = {};`;

/** Ears on the talkback a page receives: the strongest of the probed tones over a far band, in dB. */
const HEAR_TALKBACK = `() => {
  const tb = window.__mixroomTaps.talkback;
  const pc = tb && tb.hearPeer;
  if (!pc) return null;
  const ctx = window.__tbEars?.ctx ?? new AudioContext({ sampleRate: 48000 });
  window.__tbEars = { ctx, tracks: window.__tbEars?.tracks ?? new Map() };
  for (const r of pc.getReceivers()) {
    const track = r.track;
    if (!track || track.kind !== 'audio' || track.readyState !== 'live' || window.__tbEars.tracks.has(track.id)) continue;
    const stream = new MediaStream([track]);
    const element = new Audio(); element.srcObject = stream; element.muted = true; element.play().catch(() => {});
    const analyser = ctx.createAnalyser(); analyser.fftSize = 4096; analyser.smoothingTimeConstant = 0.8;
    ctx.createMediaStreamSource(stream).connect(analyser);
    window.__tbEars.tracks.set(track.id, analyser);
  }
  ctx.resume();
  let best = -200;
  for (const a of window.__tbEars.tracks.values()) {
    const bins = new Float32Array(a.frequencyBinCount); a.getFloatFrequencyData(bins);
    const at = (hz) => bins[Math.round((hz / 48000) * a.fftSize)];
    const tone = Math.max(at(440), at(660), at(880));
    const far = Number.isFinite(at(3000)) ? at(3000) : -200;
    if (Number.isFinite(tone)) best = Math.max(best, tone - far);
  }
  return best;
}`;

/** The music before and after the ducking gain, read in one task (the same render quantum). */
const MUSIC_DUCK_DB = `() => {
  const live = window.__mixroomTaps.live;
  return { before: live.masterLevel(), after: live.duckedLevel() };
}`;

/** The processing each connection's microphone runs with, the music's bitrate and its SDP. */
const PROCESSING = `async () => {
  const { live, talkback } = window.__mixroomTaps;
  const settings = (pc) => pc.getSenders().find((s) => s.track)?.track.getSettings();
  let target = 0;
  (await live.publisherPeer.getStats()).forEach((s) => { if (s.type === 'outbound-rtp' && s.kind === 'audio') target = s.targetBitrate; });
  const m = settings(live.publisherPeer);
  const t = settings(talkback.talkPeer);
  return {
    music: { ec: m.echoCancellation, ns: m.noiseSuppression, agc: m.autoGainControl, target, answer: live.publisherPeer.remoteDescription.sdp },
    talk: { ec: t.echoCancellation, ns: t.noiseSuppression, agc: t.autoGainControl, answer: talkback.talkPeer.remoteDescription.sdp },
  };
}`;

/** Frames the page decoded from the talkback's video slots, and the largest frame width. */
const CAMERA_FRAMES = `async () => {
  const pc = window.__mixroomTaps.talkback?.hearPeer;
  let frames = 0; let width = 0;
  if (pc) (await pc.getStats()).forEach((s) => { if (s.type === 'inbound-rtp' && s.kind === 'video') { frames += s.framesDecoded ?? 0; width = Math.max(width, s.frameWidth ?? 0); } });
  return { frames, width };
}`;

const PAINTED = `() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(undefined))))`;

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await page.evaluate(PAINTED);
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    if (width > 1000) continue;
    // On a phone the participants, with who is speaking, sit in a drawer.
    await page.getByRole('button', { name: /^Participants/ }).click();
    await page.getByRole('dialog').getByTestId('participants').waitFor();
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    await page.screenshot({ path: join(SHOTS, `${name}-${width}-participants.png`) });
    await page.keyboard.press('Escape');
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function signUp(page: Page, name: string, email: string) {
  await page.goto(`${server.url}/public/landing`);
  await page.getByRole('button', { name: 'Get started' }).click();
  await page.waitForURL('**/oidc/interaction/**');
  await fillSignUp(page, { name, email, password: `${name}-password-1` });
  await page.waitForURL(`${server.url}/groups`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The ducking the guest's graph applies to the music now: the median of several paired readings. */
async function duckNow(page: Page): Promise<number> {
  const diffs: number[] = [];
  for (let i = 0; i < 9; i++) {
    const { before, after } = await page.evaluate<{ before: number; after: number }>(`(${MUSIC_DUCK_DB})()`);
    if (before > -60) diffs.push(after - before);
  }
  return diffs.length >= 5 ? median(diffs) : Number.NaN;
}

beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  const wav = join(mkdtempSync(join(tmpdir(), 'mixroom-talkback-')), 'voice.wav');
  // Steps between three pitches under a slow swell: not stationary, so noise suppression keeps it.
  const voice = '0.5*sin(2*PI*(440+220*floor(mod(t*5,3)))*t)*(0.6+0.4*sin(2*PI*3*t))';
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `aevalsrc='${voice}':s=48000:d=60`],
    ...['-ac', '2', '-c:a', 'pcm_s16le', wav],
  ]);
  server = await startTestServer();
  browser = await launchBrowser({ fakeAudioCapture: wav, autoplay: true });
  const pages: Page[] = [];
  for (const _ of [0, 1]) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(30_000);
    await context.grantPermissions(['microphone', 'clipboard-read', 'clipboard-write'], { origin: server.url });
    await context.addInitScript(TAPS);
    pages.push(await context.newPage());
  }
  [host, guest] = pages as [Page, Page];
  await Promise.all([
    signUp(host, 'Tara Host', 'tara@talkback.example'),
    signUp(guest, 'Gus Guest', 'gus@talkback.example'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('talkback in a live room', () => {
  it('two participants hear each other, the music stays unprocessed, and the music ducks while the other talks', async () => {
    await host.goto(`${server.url}/live`);
    const codeField = host.getByRole('textbox', { name: 'Your room code' });
    await expect.poll(() => codeField.inputValue()).toMatch(/^[0-9a-z]{4,32}$/);
    const code = await codeField.inputValue();
    await host.getByRole('button', { name: 'Start', exact: true }).click();
    await host.getByRole('button', { name: 'Ok' }).click();
    await guest.goto(`${server.url}/live/joined/${code}/guest`);
    await guest.getByRole('button', { name: 'Ok' }).click();
    for (const page of [host, guest])
      await expect
        .poll(() => page.getByTestId('talkback-state').getAttribute('data-state'), { timeout: 30_000 })
        .toBe('connected');
    await expect
      .poll(() => host.getByTestId('publish-state').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('connected');

    // Each hears the other's voice on the talkback (the tones stand 20 dB over a far band).
    for (const page of [host, guest])
      await expect
        .poll(() => page.evaluate<number | null>(`(${HEAR_TALKBACK})()`), { timeout: 30_000 })
        .toBeGreaterThan(20);
    // Each sees the other speaking in the participants panel.
    await expect
      .poll(() => guest.locator('[data-testid=participant][data-name="Tara Host"]').getAttribute('data-speaking'))
      .toBe('true');
    await expect
      .poll(() => host.locator('[data-testid=participant][data-name="Gus Guest"]').getAttribute('data-speaking'))
      .toBe('true');

    // The music still goes out unprocessed, at the room's quality; the talkback is processed speech.
    const processing = await host.evaluate<{
      music: { ec: boolean; ns: boolean; agc: boolean; target: number; answer: string };
      talk: { ec: boolean; ns: boolean; agc: boolean; answer: string };
    }>(`(${PROCESSING})()`);
    expect(processing.music).toMatchObject({ ec: false, ns: false, agc: false, target: 128_000 });
    expect(processing.music.answer).toMatch(/maxaveragebitrate=128000/);
    expect(processing.talk).toMatchObject({ ec: true, ns: true, agc: true });
    expect(processing.talk.answer).toMatch(/maxaveragebitrate=32000/);

    // The guest sets the dip to -12 dB; while the host talks, the guest's music is 12 dB down.
    const slider = guest.getByTestId('talkback').getByRole('slider');
    await slider.focus();
    await slider.press('ArrowLeft');
    await slider.press('ArrowLeft');
    await guest.getByText('Dim music while others talk: -12 dB').waitFor();
    await expect.poll(() => duckNow(guest), { timeout: 20_000 }).toBeLessThan(-10.5);
    const ducked = await duckNow(guest);
    console.log(`music at the guest while the host talks: ${ducked.toFixed(2)} dB`);
    expect(Math.abs(ducked - -12)).toBeLessThanOrEqual(1.5);

    // The guest shows its camera: the host's page decodes it and draws it under the guest's name.
    await guest.getByRole('button', { name: 'Turn camera on' }).click();
    await expect
      .poll(async () => (await host.evaluate<{ frames: number }>(`(${CAMERA_FRAMES})()`)).frames, { timeout: 20_000 })
      .toBeGreaterThan(10);
    await host.locator('[data-testid=camera-tile][data-name="Gus Guest"] video').waitFor();
    await expect
      .poll(() =>
        host
          .locator('[data-testid=camera-tile][data-name="Gus Guest"] video')
          .evaluate((v: HTMLVideoElement) => v.videoWidth),
      )
      .toBeGreaterThan(0);
    await shoot(guest, 'talkback-guest');
    await shoot(host, 'talkback-host');

    // The host mutes: the talk stops, the indicator goes out and the music comes back.
    await host.getByRole('button', { name: 'Mute talkback' }).click();
    await expect
      .poll(() => guest.locator('[data-testid=participant][data-name="Tara Host"]').getAttribute('data-speaking'))
      .toBe('false');
    // The release ramp settles within half a second: the reading is taken once it has.
    await expect.poll(() => duckNow(guest), { timeout: 20_000 }).toBeGreaterThan(-0.5);
    const back = await duckNow(guest);
    console.log(`music at the guest once the host is muted: ${back.toFixed(2)} dB`);
    expect(Math.abs(back)).toBeLessThanOrEqual(1.5);
    await shoot(host, 'talkback-host-muted');
  });
});
