import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, screenshot, signInAt } from './helpers/browser';

// The walkthrough at 1440 and 420 px: the version screen of a 0:30 mix and the admin grid.
let server: TestServer;
let browser: Browser;
let page: Page;
let projectId: string;
// The first account of a server is its administrator; a long, ordinary name.
const operator = {
  email: 'margaret@walkthrough.test',
  password: 'operator-password-long',
  displayName: 'Margaret Oyelaran-Whitfield',
};
const ana = { email: 'ana@walkthrough.test', password: 'ana-password-long', displayName: 'Ana Mixer' };
const V2_NAME = 'Mix v2 — louder vocals, wider chorus, softer bass';
const ACTIONS = [
  'Version',
  'Download',
  'Loop range',
  'Notes',
  'Spectrogram',
  'Peak meter',
  'Attachments',
  'Loudness',
  'Markers',
];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-walkthrough-'));
  const v1 = generateAudio(join(dir, 'Song.wav'), 'anoisesrc=d=30:c=pink:r=44100:a=0.5');
  const v2 = generateAudio(join(dir, 'Song v2.wav'), 'anoisesrc=d=30:c=pink:r=44100:a=0.3');
  server = await startTestServer();
  const token = (await signInThroughOidc(server.url, operator)).access_token;
  await signInThroughOidc(server.url, ana);
  const api = storageClient(server.url, token);
  const folder = await api.createFolder('Album', null);
  const { ticket } = await api.upload(v1, folder.id);
  projectId = ticket.project.id;
  await api.addVersion(projectId, v2, V2_NAME);
  await waitFor(async () => (await api.project(projectId)).versions.every((v) => v.status === 'ready'), {
    what: 'processing',
    timeoutMs: 120_000,
  });
  browser = await launchBrowser();
  // One signed-in tab for the whole walk, resized between the widths as a user turns a tablet.
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInAt(page, server.url, `/version/${projectId}/2`, operator);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openAt(width: number, path: string): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  if (!page.url().endsWith(path)) await page.goto(`${server.url}${path}`);
}

async function openVersion(width: number): Promise<void> {
  await openAt(width, `/version/${projectId}/2`);
  await page.waitForFunction(() => performance.getEntriesByName('mixroom:waveform-drawn').length > 0, null, {
    timeout: 90_000,
  });
}

/** The toolbar's buttons a user sees, by name (a count badge left off), with their boxes. */
function shownActions(toolbar: Locator) {
  return toolbar.evaluate((row) =>
    [...row.querySelectorAll('button')]
      .filter((button) => button.checkVisibility({ visibilityProperty: true }))
      .map((button) => {
        const box = button.getBoundingClientRect();
        return { name: button.innerText.replace(/\s*\d+$/, '').trim(), left: box.left, right: box.right };
      }),
  );
}

/** True when an element shows all of its text: nothing cut off on either axis. */
const whole = (locator: Locator) =>
  locator.evaluate((e) => e.scrollWidth <= e.clientWidth + 0.5 && e.scrollHeight <= e.clientHeight + 0.5);

describe('the version screen as users find it', () => {
  it('at 1440 px shows every action in the row and ends the ruler of the 0:30 file with 0:30', async () => {
    await openVersion(1440);
    const toolbar = page.getByTestId('review-toolbar');
    const bar = (await toolbar.boundingBox())!;
    await expect.poll(async () => (await shownActions(toolbar)).map((b) => b.name)).toEqual(ACTIONS);
    for (const button of await shownActions(toolbar)) expect(button.right).toBeLessThanOrEqual(bar.x + bar.width);

    const ruler = (await page.getByTestId('timeline').boundingBox())!;
    const labels = await page.getByTestId('ruler-label').evaluateAll((nodes) =>
      nodes.map((node) => {
        const box = node.getBoundingClientRect();
        return { text: node.textContent ?? '', left: box.left, right: box.right };
      }),
    );
    expect(labels[0]!.text).toBe('0:00');
    expect(labels.at(-1)!.text).toBe('0:30');
    // The last label ends at the end of the ruler, inside it.
    expect(labels.at(-1)!.right).toBeLessThanOrEqual(ruler.x + ruler.width + 0.5);
    expect(labels.at(-1)!.right).toBeGreaterThan(ruler.x + ruler.width - 12);
    for (let i = 1; i < labels.length; i++) expect(labels[i]!.left).toBeGreaterThan(labels[i - 1]!.right + 4);

    expect(await whole(page.getByRole('combobox', { name: 'Version' }))).toBe(true);
    await screenshot(page, 'walkthrough-version-1440', { fullPage: false });
  });

  it('at 420 px keeps every action within reach: what does not fit is in More, by keyboard too', async () => {
    await openVersion(420);
    const toolbar = page.getByTestId('review-toolbar');
    const more = toolbar.getByRole('button', { name: 'More actions' });
    await more.waitFor();
    // The row settles once the page's data is in (the fit measures again as actions appear or a
    // count gains a digit): read the row and More together until they hold every action once, in
    // one row that does not scroll sideways.
    const menu = page.getByTestId('toolbar-more');
    let row: Awaited<ReturnType<typeof shownActions>> = [];
    let items: string[] = [];
    await expect
      .poll(async () => {
        row = await shownActions(toolbar);
        await more.click();
        await menu.waitFor();
        items = (await menu.locator('[role^="menuitem"]').allInnerTexts()).map((t) => t.replace(/\s*\d+$/, '').trim());
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'hidden' });
        const fits = await toolbar.evaluate((e) => e.scrollWidth <= e.clientWidth);
        return { fits, actions: [...row.map((b) => b.name).filter((name) => name !== 'More'), ...items] };
      })
      .toEqual({ fits: true, actions: ACTIONS });
    const inRow = row.map((b) => b.name).filter((name) => name !== 'More');
    expect(inRow.length).toBeGreaterThan(0);
    for (const button of row) expect(button.right).toBeLessThanOrEqual(420);

    // Enter opens More from the keyboard, and the arrows reach Notes.
    await more.focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    // The menu moves focus onto its first item as it opens; keys pressed before that reach the
    // button, so each step waits for focus to land before the next key.
    const focused = () =>
      page.evaluate(() => {
        const active = document.activeElement;
        if (!active?.closest('[data-testid="toolbar-more"]')) return null;
        return active.textContent?.replace(/\s*\d+$/, '').trim() ?? '';
      });
    await expect.poll(focused).not.toBeNull();
    for (let i = 0; i < items.length && (await focused()) !== 'Notes'; i++) {
      const before = await focused();
      await page.keyboard.press('ArrowDown');
      await expect.poll(focused).not.toBe(before);
    }
    expect(await focused()).toBe('Notes');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Version notes' }).waitFor();
    await screenshot(page, 'walkthrough-version-notes-420');
    await page.getByRole('dialog', { name: 'Version notes' }).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('dialog', { name: 'Version notes' }).waitFor({ state: 'detached' });

    // Markers from More: the same export, in a dialog.
    await more.click();
    await menu.getByRole('menuitem', { name: 'Markers' }).click();
    const markers = page.getByRole('dialog', { name: 'Comments as DAW markers' });
    await markers.getByLabel('Session start').waitFor();
    await page.keyboard.press('Escape');
    await markers.waitFor({ state: 'detached' });

    // The picker shows the whole version label, wrapped, within the screen.
    const picker = page.getByRole('combobox', { name: 'Version' });
    expect(await picker.innerText()).toBe(`v2 · ${V2_NAME}`);
    expect(await whole(picker)).toBe(true);
    const box = (await picker.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(420);
    // It opens from the keyboard like a select.
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: /^v1 · Song/ }).waitFor();
    await page.keyboard.press('Escape');
    await screenshot(page, 'walkthrough-version-420', { fullPage: false });
  });
});

describe('the admin grid as users find it', () => {
  const columnWidths = () =>
    page
      .getByTestId('users-table')
      .evaluate((table) =>
        [...table.querySelectorAll('thead th')].map((th) => Math.round(th.getBoundingClientRect().width)),
      );

  it('at 1440 px opens a row without narrowing a column, names and the admin badge whole, plans by name', async () => {
    await openAt(1440, '/admin/users');
    await page.getByRole('heading', { name: 'User Management (2)' }).waitFor();
    const before = await columnWidths();
    const row = page.getByTestId('user-row').filter({ hasText: operator.email });
    await row.click();
    await page.getByTestId('user-details').getByText('No plans (Free)').waitFor();
    expect(await columnWidths()).toEqual(before);

    for (const name of [operator.displayName, ana.displayName]) {
      const cells = page.getByTestId('user-row').getByText(name, { exact: true });
      expect(await cells.count()).toBe(2);
      for (const cell of await cells.all()) expect(await whole(cell)).toBe(true);
    }
    const badge = row.getByText('admin', { exact: true });
    expect(await whole(badge)).toBe(true);
    // The badge stays in its own column, clear of the e-mail beside it.
    const badgeBox = (await badge.boundingBox())!;
    const email = (await row.getByText(operator.email).boundingBox())!;
    expect(badgeBox.x + badgeBox.width).toBeLessThan(email.x);

    // Every plan has its own name: the two Live plans no longer read 'Live' twice.
    await page.getByRole('textbox', { name: 'Plan' }).click();
    const options = await page.getByRole('option').allInnerTexts();
    expect(options).toEqual(['Essential', 'Studio', 'Live Basic', 'Live Premium']);
    await page.getByRole('option', { name: 'Live Premium' }).click();
    await page.getByRole('button', { name: 'Grant' }).click();
    await page.getByText(`Live Premium granted to ${operator.displayName}`).waitFor();
    const granted = page.getByTestId('user-details').getByText('Live Premium', { exact: true });
    await granted.waitFor();
    expect(await whole(granted)).toBe(true);
    expect(await columnWidths()).toEqual(before);
    await screenshot(page, 'walkthrough-admin-1440', { fullPage: false });
  });

  it('at 420 px shows the card of an opened account with its whole name and admin badge', async () => {
    await openAt(420, '/admin/users');
    const card = page.getByTestId('user-card').filter({ hasText: operator.email });
    // The row opened at 1440 px stays open as the grid turns into cards.
    const toggle = card.getByRole('button').first();
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await card.getByTestId('user-details').waitFor();
    expect(await whole(card.getByText(operator.displayName, { exact: true }).first())).toBe(true);
    expect(await whole(card.getByText('admin', { exact: true }))).toBe(true);
    await screenshot(page, 'walkthrough-admin-420');
  });
});
