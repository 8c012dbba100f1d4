import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, signInAt } from './helpers/browser';

let server: TestServer;
let browser: Browser;
let page: Page;
const ana = { email: 'ana@comments.example.com', password: 'ana-password-1', displayName: 'Ana Mixer' };
const comment = (text: string) => page.locator('[data-testid="comment"]', { hasText: text });

beforeAll(async () => {
  server = await startTestServer();
  const api = storageClient(server.url, (await signInThroughOidc(server.url, ana)).access_token);
  const folder = await api.createFolder('Mixes', null);
  const { ticket } = await api.upload(makeAudio('Chorus.wav', { seconds: 12 }), folder.id);
  await waitFor(async () => (await api.project(ticket.project.id)).versions[0]?.status === 'ready', {
    what: 'processing',
    timeoutMs: 60_000,
  });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInAt(page, server.url, `/version/${ticket.project.id}/1`, ana);
  await page.waitForFunction(() => performance.getEntriesByName('mixroom:waveform-drawn').length > 0, null, {
    timeout: 90_000,
  });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('writing comments on the review screen', () => {
  it('stamps a comment with the time the playhead shows, to the hundredth', async () => {
    // 4.987 s: shown truncated it read 0:04.98 while the comment was stored as 0:04.99.
    await page.evaluate(() =>
      (window as unknown as { __mixroomPlayer: { seek(t: number): void } }).__mixroomPlayer.seek(4.987),
    );
    await expect.poll(() => page.getByTestId('current-time').innerText()).toMatch(/^0:04\.\d\d/);
    const shown = (await page.getByTestId('current-time').innerText()).split(' ')[0]!;
    await page.getByLabel('Comment', { exact: true }).fill('Kick drifts here');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await comment('Kick drifts here').waitFor();
    expect(await comment('Kick drifts here').getByTestId('comment-time').innerText()).toBe(shown);
    expect(shown).toBe('0:04.99');
  });

  it('posts with Enter and keeps Shift+Enter for a new line, in comments and replies', async () => {
    const box = page.getByLabel('Comment', { exact: true });
    await box.click();
    await page.keyboard.type('First line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await box.inputValue()).toBe('First line\nsecond line');
    await page.keyboard.press('Enter');
    await comment('First line').waitFor();
    expect(await comment('First line').getByTestId('comment-text').innerText()).toBe('First line\nsecond line');
    await expect.poll(() => box.inputValue()).toBe('');

    await comment('Kick drifts here').getByRole('button', { name: 'Reply' }).click();
    await page.getByLabel('Reply', { exact: true }).fill('Nudged it 5 ms');
    await page.getByLabel('Reply', { exact: true }).press('Enter');
    await comment('Kick drifts here').getByText('Nudged it 5 ms').waitFor();
  });
});
