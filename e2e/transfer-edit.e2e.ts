import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicTransferContent, TransferDetail } from '@mixroom/contracts';
import { DAY_MS, TRANSFER_MESSAGES } from '@mixroom/shared';
import { call } from '../apps/server/test/helpers/api';
import { startClockedServer } from '../apps/server/test/helpers/clocked-server';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { sendTransfer, transferForm } from '../apps/server/test/helpers/transfers';
import type { TestServer } from '../apps/server/test/helpers/test-server';
import type { TestClock } from '../apps/server/src/platform/clock/clock';
import { launchBrowser, signInAt } from './helpers/browser';

/**
 * The transfer screens as a Free user finds them, then on Studio: sending four files (the duration
 * checked on Transfer, the Activities panel naming each file and clear of the form), the history
 * tile's download count, the edit page's expiry typed digit by digit, Expire now, Delete, and a
 * password the owner can copy.
 */
let server: TestServer & { clock: TestClock };
let browser: Browser;
let page: Page;
let token = '';
let admin = '';
let userId = '';
let sent: TransferDetail;
const account = { email: 'sam@transfer-edit.test', password: 'sam-password-long', displayName: 'Sam Engineer' };
const name = 'Session Bounce 2026 — stems';
const recipients = ['rita@mastering.io', 'bob@mastering.io', 'cleo@mastering.io', 'dan@mastering.io'];
/** Walkthrough screenshots go here (not committed). */
const shots = process.env.MIXROOM_SHOTS_DIR ?? '/tmp/shots';

const dir = mkdtempSync(join(tmpdir(), 'mixroom-transfer-edit-'));
const stemNames = ['Kick.wav', 'Snare.wav', 'Bass.wav', 'Vocals.wav'];
const stems = stemNames.map((file, i) => {
  const path = join(dir, file);
  writeFileSync(path, Buffer.alloc(200_000 + i * 1000, i + 1));
  return path;
});

const api = <T>(path: string, init: { method?: string; body?: unknown } = {}) =>
  call(server.url, path, { token, ...init }).then((r) => ({ status: r.status, body: r.body as unknown as T }));
const pad = (n: number) => String(n).padStart(2, '0');
/** The keys a person types into Chromium's en-US date field for a day: month, day, year, digit by digit. */
const typedDay = (date: Date) => `${pad(date.getMonth() + 1)}${pad(date.getDate())}${date.getFullYear()}`;
const dayOf = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const toasts = (p: Page) => p.locator('.mantine-Notification-root');

async function shoot(p: Page, shot: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  for (const width of [1440, 420]) {
    await p.setViewportSize({ width, height: 900 });
    await p.waitForFunction(() =>
      document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
    );
    await p.screenshot({ path: join(shots, `${shot}-${width}.png`), fullPage: true });
  }
  await p.setViewportSize({ width: 1440, height: 900 });
}

/** Whether a Mantine badge shows its whole label (nothing cut off by the tile). */
const badgeFits = (badge: Locator) =>
  badge.evaluate((el) => {
    const label = el.querySelector('.mantine-Badge-label') ?? el;
    return label.scrollWidth <= label.clientWidth + 1 && el.getBoundingClientRect().width >= el.scrollWidth - 1;
  });

/**
 * Focuses the expiry field's first part (the month) and types a day as a person does, one key at a
 * time, then confirms it: Enter, or a click elsewhere on the page (leaving the field).
 */
async function typeExpiry(p: Page, date: Date, confirm: 'Enter' | 'click away'): Promise<void> {
  const field = p.getByLabel('Expiration date');
  await field.click({ position: { x: 14, y: 18 } });
  await p.keyboard.type(typedDay(date));
  if (confirm === 'Enter') await p.keyboard.press('Enter');
  else await p.getByText('Expiry', { exact: true }).click();
}

beforeAll(async () => {
  server = await startClockedServer();
  admin = (await signInThroughOidc(server.url, { email: 'admin@transfer-edit.test', password: 'admin-password-long' }))
    .access_token;
  token = (await signInThroughOidc(server.url, account)).access_token;
  userId = (await api<{ id: string }>('/api/me')).body.id;
  // Sent by e-mail to four people, so its tile carries avatars and a '+1'.
  sent = await sendTransfer(
    server.url,
    token,
    transferForm({
      name: 'Album stems for Rita',
      mode: 'email',
      recipients,
      files: [{ path: '', fileName: stemNames[0]!, size: 200_000 }],
    }),
    [stems[0]!],
  );
  // A two-digit day and a two-digit download count: the widest a tile's last line gets.
  const moved = await api<TransferDetail>(`/api/transfers/${sent.id}`, {
    method: 'PATCH',
    body: { expiresAt: new Date(Date.parse(sent.createdAt) + 18 * DAY_MS).toISOString() },
  });
  expect(moved.status).toBe(200);
  sent = moved.body;
  const link = new URL(sent.link).searchParams.get('transferId') ?? '';
  const access = await call(server.url, `/api/public/transfers/${link}/access`, { method: 'POST', body: {} });
  const grant = encodeURIComponent(String(access.body.grant));
  const content = (await call(server.url, `/api/public/transfers/${link}/content?g=${grant}`))
    .body as unknown as PublicTransferContent;
  for (let i = 0; i < 12; i++) await (await fetch(new URL(content.files[0]!.downloadUrl, server.url))).arrayBuffer();
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await context.newPage();
  await signInAt(page, server.url, '/transfer', account);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('transfers as a Free user finds them', () => {
  it('keeps a paid duration chosen, locked, and says so on Transfer; the Activities panel names each file and leaves the form clear', async () => {
    await page.goto(`${server.url}/transfer`);
    const transferButton = page.getByRole('button', { name: 'Transfer', exact: true });
    await transferButton.waitFor();

    // A paid duration stays chosen (marked as locked); nothing pops up until Transfer.
    await page.getByRole('textbox', { name: 'Duration' }).click();
    await page.getByRole('option', { name: /^90 days/ }).click();
    expect(await page.getByRole('textbox', { name: 'Duration' }).inputValue()).toBe('90 days');
    expect(await page.getByRole('dialog', { name: 'Warning' }).count()).toBe(0);
    await page.getByText('Paid plans only', { exact: false }).waitFor();

    // The checks keep their order: files, recipients, name, message come before the duration.
    await transferButton.click();
    await page.getByText(TRANSFER_MESSAGES.noFiles).waitFor();
    await page.getByTestId('transfer-files-input').setInputFiles(stems);
    await page.getByText('Selected files 4').waitFor();
    await page.getByLabel('Send Email').check();
    const emailTo = page.getByRole('textbox', { name: 'Email to' });
    await emailTo.fill(`${recipients.join(',')},`);
    await emailTo.press(',');
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Message').fill('Four stems, 48 kHz.');
    await transferButton.click();
    const prompt = page.getByRole('dialog', { name: 'Warning' });
    await prompt.getByText(TRANSFER_MESSAGES.durationLocked, { exact: false }).waitFor();
    await prompt.getByRole('button', { name: 'Not now' }).click();
    await prompt.waitFor({ state: 'detached' });
    expect(await page.getByRole('textbox', { name: 'Duration' }).inputValue()).toBe('90 days');

    await page.getByRole('textbox', { name: 'Duration' }).click();
    await page.getByRole('option', { name: /^7 days/ }).click();
    await transferButton.click();

    // Every row starts with its own file's name (rows come and go as files start and finish: each
    // label shown is recorded).
    const labels = await page.waitForFunction(
      (count) => {
        const seen = ((window as unknown as { seenLabels?: Set<string> }).seenLabels ??= new Set<string>());
        document.querySelectorAll('[data-testid="activity"] p[title]').forEach((p) => seen.add(p.textContent ?? ''));
        return seen.size >= count ? [...seen] : null;
      },
      stemNames.length,
      { polling: 'raf' },
    );
    const shownLabels = (await labels.jsonValue()) as string[];
    expect(shownLabels.map((label) => label.split(' · ')[0]).sort()).toEqual([...stemNames].sort());
    // The Transfer button and the upgrade hint are not under the panel.
    const hint = page.getByText('Increase your transfer limits by upgrading to a premium plan.');
    await page.waitForFunction(
      () => {
        const region = document.querySelector('[aria-label="Activities"]');
        const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Transfer');
        const upgrade = [...document.querySelectorAll('button')].find((b) =>
          b.textContent?.startsWith('Increase your transfer limits'),
        );
        if (!region || !button || !upgrade) return false;
        const top = region.getBoundingClientRect().top;
        return button.getBoundingClientRect().bottom <= top && upgrade.getBoundingClientRect().bottom <= top;
      },
      undefined,
      { timeout: 10_000 },
    );
    expect(await hint.isVisible()).toBe(true);

    const dialog = page.getByRole('dialog', { name: 'Success' });
    await dialog.getByText('Your transfer has been sent!').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(`${server.url}/transfer/history`);
    await page.locator(`[data-testid="transfer-tile"][data-name="${name}"]`).waitFor();
    // Finished uploads are not carried to the next page.
    expect(await page.getByTestId('activity').count()).toBe(0);
  }, 120_000);

  it('shows the whole download count on a tile with recipient avatars, wide and narrow (a small phone too)', async () => {
    await page.goto(`${server.url}/transfer/history`);
    const tile = page.locator(`[data-testid="transfer-tile"][data-name="${sent.name}"]`);
    const count = tile.getByTestId('download-count');
    for (const width of [1440, 420, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await tile.getByTestId('recipients').waitFor();
      expect(await count.innerText()).toBe('12');
      expect(await badgeFits(count), `the download count at ${width} px`).toBe(true);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await shoot(page, 'transfer-history');
  });

  it('moves the expiry only on a whole typed date and a confirm, and refuses a past or too late one', async () => {
    const patches: string[] = [];
    const onRequest = (request: Request) => {
      if (request.method() === 'PATCH' && request.url().includes(`/api/transfers/${sent.id}`))
        patches.push(request.postData() ?? '');
    };
    page.on('request', onRequest);
    await page.goto(`${server.url}/transfer/history/${sent.id}`);
    await page.getByLabel('Expiration date').waitFor();

    const start = new Date(sent.createdAt);
    const wanted = new Date(start.getTime() + 24 * DAY_MS);
    await typeExpiry(page, wanted, 'Enter');
    await page.getByText('Transfer expiry date updated').waitFor();
    expect(patches).toHaveLength(1);
    expect(page.url()).toContain(`/transfer/history/${sent.id}`);
    let detail = (await api<TransferDetail>(`/api/transfers/${sent.id}`)).body;
    expect(detail.status).toBe('available');
    expect(dayOf(new Date(detail.expiresAt))).toBe(dayOf(wanted));

    // A day before the send (so in the past): refused where it was typed, nothing sent.
    await typeExpiry(page, new Date(start.getTime() - 26 * DAY_MS), 'click away');
    await page.getByText(TRANSFER_MESSAGES.expiryPast).waitFor();
    // Past the plan's longest duration (30 days on Free): refused, not cut to the maximum.
    await typeExpiry(page, new Date(start.getTime() + 95 * DAY_MS), 'Enter');
    await page.getByText(/^The expiry date must lie between/).waitFor();
    await shoot(page, 'transfer-edit-refused');
    expect(patches).toHaveLength(1);
    detail = (await api<TransferDetail>(`/api/transfers/${sent.id}`)).body;
    expect(detail.status).toBe('available');
    expect(dayOf(new Date(detail.expiresAt))).toBe(dayOf(wanted));
    expect(page.url()).toContain(`/transfer/history/${sent.id}`);
    page.off('request', onRequest);
    await page.keyboard.press('Escape');
    await shoot(page, 'transfer-edit');
  });

  it('deletes from the edit page with one message', async () => {
    const other = await sendTransfer(
      server.url,
      token,
      transferForm({ name: 'Old rough mix', files: [{ path: '', fileName: stemNames[0]!, size: 200_000 }] }),
      [stems[0]!],
    );
    await page.goto(`${server.url}/transfer/history/${other.id}`);
    await page.getByRole('heading', { name: 'Old rough mix' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete transfer' }).getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${server.url}/transfer/history`);
    await page.getByText('Transfer deleted').waitFor();
    await page.locator(`[data-testid="transfer-tile"][data-name="${sent.name}"]`).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await toasts(page).allInnerTexts()).toEqual([expect.stringContaining('Transfer deleted')]);
    expect((await api(`/api/transfers/${other.id}`)).status).toBe(404);
  });

  it('ends a transfer early only through Expire now, naming who loses access', async () => {
    await page.goto(`${server.url}/transfer/history/${sent.id}`);
    await page.getByRole('button', { name: 'Expire now' }).click();
    const confirm = page.getByRole('dialog', { name: 'Expire this transfer now?' });
    for (const email of recipients) await confirm.getByText(email, { exact: false }).waitFor();
    await confirm.getByText("Your plan can't reload an expired transfer", { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Expire now' }).click();
    await page.waitForURL(`${server.url}/transfer/history`);
    await page.getByText('The transfer has expired.').waitFor();
    const tile = page.locator(`[data-testid="transfer-tile"][data-name="${sent.name}"]`);
    await tile.getByText(/^Expired on/).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await toasts(page).allInnerTexts()).toEqual([expect.stringContaining('The transfer has expired.')]);
    const head = await call(server.url, `/api/public/transfers/${new URL(sent.link).searchParams.get('transferId')}`);
    expect(head.status).toBe(410);
  });
});

describe('a password-protected transfer', () => {
  it('tells the sender recipients need the password, and lets the owner copy it', async () => {
    const grant = await call(server.url, `/api/admin/users/${userId}/plans`, {
      method: 'POST',
      token: admin,
      body: { sku: 'STUDIO' },
    });
    expect(grant.status).toBe(201);
    await page.goto(`${server.url}/transfer`);
    await page.getByTestId('transfer-files-input').setInputFiles([stems[1]!]);
    await page.getByLabel('Name').fill('Vocal comp');
    await page.getByLabel('Message').fill('Comp 3 of the lead.');
    await page.getByLabel('Password', { exact: true }).fill('blue-moon-77');
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Success' });
    await dialog.getByText('Your transfer has been sent!').waitFor();
    await dialog.getByText('Recipients need the password to open it', { exact: false }).waitFor();
    expect(await dialog.getByText('works for anyone who has it', { exact: false }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Copy the password' }).click();
    await page.getByText('Password copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('blue-moon-77');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.locator('[data-testid="transfer-tile"][data-name="Vocal comp"]').click();
    await page.getByRole('heading', { name: 'Vocal comp' }).waitFor();
    await page.getByText('can’t be shown again', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Change' }).click();
    await page.getByLabel('New password').fill('red-sun-12');
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.getByText('Transfer password updated').waitFor();
    await page.getByRole('button', { name: 'Show the password' }).click();
    await page.getByText('red-sun-12').waitFor();
    await page.getByRole('button', { name: 'Copy the password' }).click();
    await page.getByText('Password copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('red-sun-12');
    await shoot(page, 'transfer-edit-password');
  });
});
