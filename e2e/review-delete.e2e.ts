import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
let api: ReturnType<typeof storageClient>;
let folderId: string;
const ana = { email: 'ana@delete.example.com', password: 'ana-password-1', displayName: 'Ana Mixer' };

/** Every toast the page showed since it loaded, in order (they fade, so they are recorded as they come). */
const toasts = () => page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);

async function uploaded(file: string, status: 'ready' | 'corrupt'): Promise<string> {
  const { ticket } = await api.upload(file, folderId);
  await waitFor(async () => (await api.project(ticket.project.id)).versions[0]?.status === status, {
    what: status,
    timeoutMs: 60_000,
  });
  return ticket.project.id;
}

beforeAll(async () => {
  server = await startTestServer();
  api = storageClient(server.url, (await signInThroughOidc(server.url, ana)).access_token);
  folderId = (await api.createFolder('Sessions', null)).id;
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __toasts: string[] }).__toasts = seen;
    new MutationObserver(() => {
      for (const node of document.querySelectorAll('[role="alert"]')) {
        const text = node.textContent ?? '';
        if (text && !seen.includes(text)) seen.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  page = await context.newPage();
  await signInAt(page, server.url, '/public/sign-in', ana, '/groups');
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('editing and deleting the only version of a project from its review screen', () => {
  it('from the corrupt-version dialog: the success toast only, then the groups', async () => {
    const broken = join(mkdtempSync(join(tmpdir(), 'mixroom-broken-')), 'Broken.wav');
    writeFileSync(broken, randomBytes(64 * 1024));
    const projectId = await uploaded(broken, 'corrupt');
    await page.goto(`${server.url}/version/${projectId}/1`);
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Version Broken has been deleted!').waitFor();
    await page.waitForURL(`${server.url}/groups`);
    await page.getByText('Sessions').first().waitFor();
    const shown = await toasts();
    expect(shown.some((text) => text.includes('Version Broken has been deleted!'))).toBe(true);
    expect(shown.filter((text) => !text.includes('has been deleted!'))).toEqual([]);
  });

  it('from the version menu: the single-field editor asks for a name; deleting shows the success toast only, then the groups', async () => {
    const projectId = await uploaded(makeAudio('Tone.wav', { seconds: 4 }), 'ready');
    await page.goto(`${server.url}/version/${projectId}/1`);
    await page.locator('[data-testid="waveform"] canvas').first().waitFor();
    // The screen's single-field editor: required with its own text, then saved.
    await page.getByRole('button', { name: 'Actions for version 1' }).click();
    await page.getByRole('menuitem', { name: 'Edit Version' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit Version' });
    await editor.getByLabel('Version name').fill('');
    await editor.getByText('This field is required', { exact: true }).waitFor();
    await editor.getByLabel('Version name').fill('Tone');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Actions for version 1' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Version Tone has been deleted!').waitFor();
    await page.waitForURL(`${server.url}/groups`);
    await page.getByText('Sessions').first().waitFor();
    expect((await toasts()).filter((text) => !text.includes('has been deleted!'))).toEqual([]);
  });
});
