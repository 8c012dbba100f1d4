import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, screenshot, signInAt } from './helpers/browser';

let server: TestServer;
let browser: Browser;
let page: Page;
const ana = { email: 'ana@zoom.example.com', password: 'ana-password-1', displayName: 'Ana Mixer' };

/** Labels of the time ruler in view, with their boxes. */
async function rulerLabels(): Promise<{ text: string; left: number; right: number }[]> {
  return page.getByTestId('ruler-label').evaluateAll((nodes) =>
    nodes.map((node) => {
      const box = node.getBoundingClientRect();
      return { text: node.textContent ?? '', left: box.left, right: box.right };
    }),
  );
}

const seconds = (label: string) => label.split(':').reduce((total, part) => total * 60 + Number(part), 0);

beforeAll(async () => {
  // An hour of pink noise that swells and fades; 8 kHz 16-bit keeps the file at 115 MB while the
  // server still stores 100 peaks a second, as for any rate.
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-zoom-'));
  const wav = generateAudio(join(dir, 'Hour Master.wav'), 'anoisesrc=d=3600:c=pink:r=8000:a=0.5', [
    '-af',
    "volume='0.15+0.85*abs(sin(t/9))':eval=frame",
    '-c:a',
    'pcm_s16le',
  ]);
  server = await startTestServer();
  const api = storageClient(server.url, (await signInThroughOidc(server.url, ana)).access_token);
  const folder = await api.createFolder('Masters', null);
  const { ticket } = await api.upload(wav, folder.id);
  await waitFor(async () => (await api.project(ticket.project.id)).versions[0]?.status === 'ready', {
    what: 'processing',
    timeoutMs: 120_000,
  });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInAt(page, server.url, `/version/${ticket.project.id}/1`, ana);
  await page.waitForFunction(() => performance.getEntriesByName('mixroom:waveform-drawn').length > 0, null, {
    timeout: 90_000,
  });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('zooming into an hour-long master', () => {
  it('at zoom 50, 30 minutes in, labels the ruler in one format and draws at least 50 peaks a second', async () => {
    // The ruler of the whole hour: h:mm:ss throughout, never "0, 30, 60, 1:30".
    await expect.poll(async () => (await rulerLabels()).length).toBeGreaterThan(2);
    for (const label of await rulerLabels()) expect(label.text).toMatch(/^\d:\d\d:\d\d$/);

    await page.evaluate(() =>
      (window as unknown as { __mixroomPlayer: { seek(t: number): void } }).__mixroomPlayer.seek(1800),
    );
    const zoom = page.getByRole('slider', { name: 'Zoom' });
    await zoom.focus();
    for (let step = 0; step < 50; step++) await zoom.press('ArrowRight');
    await expect.poll(() => zoom.getAttribute('aria-valuenow')).toBe('50');
    await expect.poll(() => page.getByTestId('current-time').innerText()).toMatch(/^30:00\.00/);

    await expect.poll(async () => (await rulerLabels()).map((l) => l.text)).toContain('0:30:00');
    const labels = await rulerLabels();
    const ruler = (await page.getByTestId('timeline').boundingBox())!;
    for (const label of labels) {
      expect(label.text).toMatch(/^\d:\d\d:\d\d$/);
      expect(Math.abs(seconds(label.text) - 1800)).toBeLessThan(5);
      expect(label.left).toBeGreaterThanOrEqual(ruler.x - 60);
    }
    for (let i = 1; i < labels.length; i++) expect(labels[i]!.left).toBeGreaterThan(labels[i - 1]!.right + 8);

    // What the bars were drawn from, as the renderer records it: the 100-a-second level.
    expect(Number(await page.getByTestId('waveform').getAttribute('data-peaks-per-second'))).toBeGreaterThanOrEqual(50);
    await screenshot(page, 'review-zoom-50');
  });

  it('scrolls the zoomed view with the wheel and zooms with Ctrl (a trackpad pinch)', async () => {
    const before = Math.min(...(await rulerLabels()).map((l) => seconds(l.text)));
    const wave = (await page.getByTestId('waveform').boundingBox())!;
    await page.mouse.move(wave.x + wave.width / 2, wave.y + wave.height / 2);
    await page.mouse.wheel(0, 600);
    await expect
      .poll(async () => Math.min(...(await rulerLabels()).map((l) => seconds(l.text))))
      .toBeGreaterThan(before);
    expect(Number(await page.getByTestId('waveform').getAttribute('data-peaks-per-second'))).toBeGreaterThanOrEqual(50);

    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await expect
      .poll(async () => Number(await page.getByRole('slider', { name: 'Zoom' }).getAttribute('aria-valuenow')))
      .toBeGreaterThan(50);
  });

  it('draws the waveform in the minimap, not a flat strip', async () => {
    // Column heights of the minimap's painted pixels: a waveform has many, a flat strip one or two.
    const heights = await page.getByTestId('minimap').evaluate((host) => {
      const canvases = [...host.querySelectorAll('*')].flatMap((el) => [
        ...(el.shadowRoot?.querySelectorAll('canvas') ?? []),
      ]);
      const canvas = canvases.find((c) => c.width > 100)!;
      const { data, width, height } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      const distinct = new Set<number>();
      for (let x = 0; x < width; x++) {
        let painted = 0;
        for (let y = 0; y < height; y++) if (data[(y * width + x) * 4 + 3]! > 0) painted++;
        if (painted > 0) distinct.add(painted);
      }
      return distinct.size;
    });
    expect(heights).toBeGreaterThanOrEqual(5);
  });
});
