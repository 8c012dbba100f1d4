import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioDir, generateAudio } from './helpers/audio';
import { startMediaHarness, type MediaHarness } from './helpers/media-harness';

let harness: MediaHarness;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  harness = await startMediaHarness();
  // Debian's Chromium, headless, as the e2e journeys run it.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

/**
 * Runs in the page (plain JavaScript: this workspace compiles without the DOM's types). Decodes
 * the file as Web Audio does, finds its loudest sample, and asks a media element for its length.
 */
const MEASURE_IN_PAGE = `async ({ base64, type }) => {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const decoded = await new OfflineAudioContext(1, 1, 48000).decodeAudioData(bytes.slice().buffer);
  const samples = decoded.getChannelData(0);
  let at = 0;
  for (let i = 1; i < samples.length; i++) if (Math.abs(samples[i]) > Math.abs(samples[at])) at = i;
  const audio = new Audio(URL.createObjectURL(new Blob([bytes], { type })));
  await new Promise((resolve, reject) => {
    audio.onloadedmetadata = resolve;
    audio.onerror = () => reject(new Error('media element refused ' + type));
  });
  return { clickMs: (at / decoded.sampleRate) * 1000, seconds: samples.length / decoded.sampleRate, elementSeconds: audio.duration };
}`;

/** How Chromium hears a file: where its click is (ms), its decoded length and its media element length (s). */
async function inChromium(
  path: string,
  type: string,
): Promise<{ clickMs: number; seconds: number; elementSeconds: number }> {
  const args = JSON.stringify({ base64: readFileSync(path).toString('base64'), type });
  return page.evaluate<{ clickMs: number; seconds: number; elementSeconds: number }>(`(${MEASURE_IN_PAGE})(${args})`);
}

describe('the lossy preview in a browser', () => {
  it('plays in Chromium with its click where the original has it and the same length', async () => {
    const source = `aevalsrc='if(eq(n,72000),0.95,0.01*sin(2*PI*220*t))':s=48000:d=4`;
    const original = generateAudio(join(audioDir, 'browser-click.flac'), source, ['-c:a', 'flac']);
    const version = await harness.process(original);
    const preview = harness.blobs.localPath(version.lossyPreviewKey!);
    const [heard, reference] = [await inChromium(preview, 'audio/mp4'), await inChromium(original, 'audio/flac')];
    expect(Math.abs(heard.clickMs - reference.clickMs)).toBeLessThan(5);
    expect(Math.abs(heard.seconds - reference.seconds)).toBeLessThan(0.05);
    expect(Math.abs(heard.elementSeconds - 4)).toBeLessThan(0.05);
  });
});
