import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferDetail } from '@mixroom/contracts';
import { DAY_MS } from '@mixroom/shared';
import { call } from '../apps/server/test/helpers/api';
import { makeAudio } from '../apps/server/test/helpers/audio';
import { startClockedServer } from '../apps/server/test/helpers/clocked-server';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { startSmtp } from '../apps/server/test/helpers/smtp';
import type { TestServer } from '../apps/server/test/helpers/test-server';
import { unzip } from '../apps/server/test/helpers/unzip';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import type { TestClock } from '../apps/server/src/platform/clock/clock';
import { launchBrowser, signInAt } from './helpers/browser';

/**
 * A transfer from end to end in Chromium: Ana (Studio plan) sends a folder of real audio by e-mail
 * with a password; Rita, signed out, gets the mail over SMTP, is refused without the password,
 * hears a file, downloads it and everything as a ZIP; Ana sees the downloads, moves the expiry and
 * changes the password; once the server's clock passes the expiry the link is gone.
 */
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let server: TestServer & { clock: TestClock };
let browser: Browser;
let ana: Page;
let rita: Page;
let anaToken = '';
let transfer: TransferDetail;
let mailLink = '';
/** A file URL Rita's page was given (with her grant), tried again after the expiry. */
let fileUrl = '';
const account = { email: 'ana@transfers-e2e.test', password: 'ana-password-long', displayName: 'Ana Mixer' };
const password = 'open-sesame-42';
/** Screenshots (desktop and phone width) are taken when this names a folder: they cost seconds. */
const shots = process.env.MIXROOM_E2E_SHOTS;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The folder Ana sends: Session/Mix.wav, Session/Notes.txt, Session/Stems/Bass.wav. */
const dir = mkdtempSync(join(tmpdir(), 'mixroom-transfer-e2e-'));
const session = join(dir, 'Session');
mkdirSync(join(session, 'Stems'), { recursive: true });
const files = {
  'Session/Mix.wav': makeAudio('Mix.wav', { dir: session, seconds: 4, frequency: 330 }),
  'Session/Stems/Bass.wav': makeAudio('Bass.wav', { dir: join(session, 'Stems'), seconds: 2, frequency: 80 }),
  'Session/Notes.txt': join(session, 'Notes.txt'),
};
writeFileSync(files['Session/Notes.txt'], 'Mastering notes: -14 LUFS, leave 1 dB of headroom.\n');

/** Full-page screenshots at the desktop and the phone width. */
async function shoot(page: Page, name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // The side navigation slides away below 1000 px: shot once it has.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
  );
  await page.screenshot({ path: join(shots, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
  );
}

/** A mail's text part, with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startClockedServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Mixroom <mixroom@transfers-e2e.test>' });
  const admin = (
    await signInThroughOidc(server.url, { email: 'admin@transfers-e2e.test', password: 'admin-password-long' })
  ).access_token;
  anaToken = (await signInThroughOidc(server.url, account)).access_token;
  const anaId = ((await call(server.url, '/api/me', { token: anaToken })).body as { id: string }).id;
  const grant = await call(server.url, `/api/admin/users/${anaId}/plans`, {
    method: 'POST',
    token: admin,
    body: { sku: 'STUDIO' },
  });
  expect(grant.status).toBe(201);
  browser = await launchBrowser();
  const anaContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await anaContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  ana = await anaContext.newPage();
  rita = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.stop();
});

describe('a transfer in Chromium', () => {
  it('is sent from /transfer: a folder, by e-mail, with a password, checked in order on the way', async () => {
    await signInAt(ana, server.url, '/transfer', account);
    await ana.getByRole('button', { name: 'Transfer', exact: true }).waitFor();
    await shoot(ana, 'transfer-empty');
    await ana.getByRole('button', { name: 'Transfer', exact: true }).click();
    await ana.getByText('Please add files to your transfer').waitFor();

    await ana.getByTestId('transfer-folder-input').setInputFiles(session);
    await ana.getByText('Selected files 3').waitFor();
    await ana.getByLabel('Send Email').check();
    await ana.getByRole('button', { name: 'Transfer', exact: true }).click();
    await ana.getByText('Please add at least one recipient').waitFor();

    const emailTo = ana.getByRole('textbox', { name: 'Email to' });
    await emailTo.fill('not-an-address');
    await emailTo.press('Enter');
    await ana.getByText('Please add a valid email').first().waitFor();
    await emailTo.fill('rita@mastering.io,');
    await emailTo.press(',');
    await ana.getByRole('button', { name: 'Remove rita@mastering.io' }).waitFor();
    await ana.getByRole('button', { name: 'Transfer', exact: true }).click();
    await ana.getByText('Please give your transfer a name').waitFor();
    await ana.getByLabel('Name').fill('Album masters for Rita');
    await ana.getByRole('button', { name: 'Transfer', exact: true }).click();
    await ana.getByText('Please add a message to your transfer').waitFor();
    await ana.getByLabel('Message').fill('Here is the session. Notes inside.');
    await ana.getByLabel('Password', { exact: true }).fill(password);
    await shoot(ana, 'transfer-filled');

    await ana.getByRole('button', { name: 'Transfer', exact: true }).click();
    const sent = ana.getByRole('dialog', { name: 'Success' });
    await sent.getByText('Your transfer has been sent!').waitFor({ timeout: 30_000 });
    await sent.getByText('An e-mail with the link went to rita@mastering.io.', { exact: false }).waitFor();
    // The dialog says it; no toast says it a second time over the Activities panel.
    expect(await ana.locator('.mantine-Notification-root', { hasText: 'Your transfer has been sent!' }).count()).toBe(
      0,
    );
    const link = await sent.getByRole('textbox', { name: 'Link' }).inputValue();
    expect(link).toMatch(/\/public\/share\?transferId=[A-Za-z0-9_-]{22,}$/);
    await sent.getByRole('button', { name: 'Copy link' }).first().click();
    await ana.getByText('Link Copied!').waitFor();
    await shoot(ana, 'transfer-sent');
    await sent.getByRole('button', { name: 'Close' }).click();
    await ana.waitForURL(`${server.url}/transfer/history`);
    await ana.locator('[data-testid="transfer-tile"][data-name="Album masters for Rita"]').waitFor();

    const list = (await call(server.url, '/api/transfers', { token: anaToken })).body as { items: TransferDetail[] };
    const id = list.items[0]!.id;
    // The recipient page plays and checks files once their waveform and checksum are made.
    transfer = await waitFor(
      async () => {
        const detail = (await call(server.url, `/api/transfers/${id}`, { token: anaToken })).body as TransferDetail;
        return detail.files.every((f) => f.sha256 && (f.kind !== 'AUDIO' || f.hasPeaks)) ? detail : null;
      },
      { what: 'waveforms and checksums', timeoutMs: 30_000 },
    );
    expect(transfer.files.map((f) => `${f.path}/${f.fileName}`).sort()).toEqual(Object.keys(files).sort());
    expect(transfer.hasPassword).toBe(true);

    const mail = await waitFor(() => smtp.inbox.find((m) => m.to.includes('rita@mastering.io')), { what: 'the mail' });
    mailLink = /https?:\/\/\S+\/public\/share\?transferId=[\w-]+/.exec(decoded(mail.raw))?.[0] ?? '';
    // Rita's own link: what she downloads through it counts as hers, which the shared link cannot claim.
    expect(new URL(mailLink).searchParams.get('transferId')).toMatch(/^[\w-]{22,}$/);
    expect(new URL(mailLink).searchParams.get('transferId')).not.toBe(new URL(link).searchParams.get('transferId'));
  }, 60_000);

  it('opens for Rita, signed out, only with the password; she hears a file and downloads it and the ZIP', async () => {
    // The mail's link, on this test's server.
    const url = new URL(mailLink);
    rita.on('response', (response) => {
      if (!/\/api\/public\/transfers\/[\w-]+\/content/.test(response.url()) || fileUrl) return;
      void response.json().then((body: { files: { downloadUrl: string }[] }) => (fileUrl = body.files[0]!.downloadUrl));
    });
    await rita.goto(`${server.url}${url.pathname}${url.search}`);
    await rita.getByText('This transfer is password protected').first().waitFor();
    await rita.getByLabel('Password').fill('wrong-guess');
    await rita.getByRole('button', { name: 'Open transfer' }).click();
    await rita.getByText('That password is not right. Try again.').waitFor();
    await shoot(rita, 'recipient-password');
    await rita.getByLabel('Password').fill(password);
    await rita.getByRole('button', { name: 'Open transfer' }).click();
    await rita.getByRole('heading', { name: 'Album masters for Rita' }).waitFor();
    await rita.getByText('Here is the session. Notes inside.').waitFor();
    await rita.locator('[data-testid="transfer-item"][data-name="Session"]').click();
    await rita.locator('[data-testid="transfer-item"][data-name="Stems"]').waitFor();
    await shoot(rita, 'recipient-folder');

    await rita.locator('[data-testid="transfer-item"][data-name="Notes.txt"]').click();
    await rita.getByText('Preview not available, please download.').waitFor();
    await rita.keyboard.press('Escape');
    // An audio tile shows its waveform, drawn by the server, before anything is opened.
    await expect
      .poll(
        () =>
          rita
            .locator('[data-testid="transfer-item"][data-name="Mix.wav"] img')
            .evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0), undefined, { timeout: 1000 })
            .catch(() => 0),
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    await rita.locator('[data-testid="transfer-item"][data-name="Mix.wav"]').click();
    const dialog = rita.getByRole('dialog');
    await dialog.getByTestId('transfer-waveform').waitFor();
    const mix = readFileSync(files['Session/Mix.wav']);
    expect(await dialog.getByTestId('sha256').innerText()).toBe(sha(mix));
    await shoot(rita, 'recipient-player');
    // The preview plays from the server's copy.
    await dialog.getByRole('button', { name: 'Play' }).click();
    await rita.waitForFunction(
      () => (document.querySelector('[data-testid="transfer-player"] audio') as HTMLAudioElement).currentTime > 0.2,
    );
    await dialog.getByRole('button', { name: 'Pause' }).click();

    const single = rita.waitForEvent('download');
    await dialog.getByRole('button', { name: /^Download/ }).click();
    const singlePath = join(dir, 'got-mix.wav');
    await (await single).saveAs(singlePath);
    expect(readFileSync(singlePath).equals(mix)).toBe(true);
    await rita.keyboard.press('Escape');

    const all = rita.waitForEvent('download');
    await rita.getByRole('button', { name: 'Download all' }).click();
    const zipPath = join(dir, 'got-all.zip');
    await (await all).saveAs(zipPath);
    const entries = await unzip(readFileSync(zipPath));
    for (const [name, path] of Object.entries(files))
      expect(entries.get(name)?.equals(readFileSync(path)), name).toBe(true);
    const checksums = entries.get('checksums.sha256')?.toString() ?? '';
    for (const [name, path] of Object.entries(files))
      expect(checksums).toContain(`${sha(readFileSync(path))}  ${name}`);
  }, 40_000);

  it('shows Ana the downloads live, and lets her move the expiry and change the password', async () => {
    const tile = ana.locator('[data-testid="transfer-tile"][data-name="Album masters for Rita"]');
    await waitFor(async () => Number(await tile.getByTestId('download-count').innerText()) >= 2, {
      what: 'the download count on the tile',
      timeoutMs: 15_000,
    });
    await shoot(ana, 'history');
    await tile.click();
    await ana.waitForURL(`**/transfer/history/${transfer.id}`);
    const recipient = ana.getByTestId('recipient').filter({ hasText: 'rita@mastering.io' });
    await recipient.getByText(/[2-9] downloads/).waitFor();
    await ana.getByTestId('download-log').getByText('All files (ZIP)').waitFor();
    await ana.getByTestId('download-log').getByText('Mix.wav').waitFor();

    const newExpiry = new Date(Date.parse(transfer.createdAt) + 20 * DAY_MS);
    const day = `${newExpiry.getFullYear()}-${String(newExpiry.getMonth() + 1).padStart(2, '0')}-${String(newExpiry.getDate()).padStart(2, '0')}`;
    await ana.getByLabel('Expiration date').fill(day);
    // The field saves on a confirm (Enter or leaving it), never while a date is typed.
    await ana.getByLabel('Expiration date').press('Enter');
    await ana.getByText('Transfer expiry date updated').waitFor();
    await ana.getByRole('button', { name: 'Change' }).click();
    await ana.getByLabel('New password').fill('another-secret-7');
    await ana.getByRole('button', { name: 'Save password' }).click();
    await ana.getByText('Transfer password updated').waitFor();
    // Three files are listed at once; the list still folds away.
    const fileList = ana.getByRole('button', { name: 'Files 3' });
    expect(await fileList.getAttribute('aria-expanded')).toBe('true');
    await ana.getByText('Session/Stems/Bass.wav').waitFor();
    await shoot(ana, 'edit');
    const detail = (await call(server.url, `/api/transfers/${transfer.id}`, { token: anaToken }))
      .body as TransferDetail;
    expect(new Date(detail.expiresAt).getDate()).toBe(newExpiry.getDate());
  }, 30_000);

  it('is no longer available once the clock passes its expiry, and its file URLs answer 410', async () => {
    // The expiry a minute after the creation (the earliest the bounds allow), then the server's clock
    // two minutes on: well within the sessions' token lifetime, so Ana stays signed in.
    const moved = await call(server.url, `/api/transfers/${transfer.id}`, {
      method: 'PATCH',
      token: anaToken,
      body: { expiresAt: new Date(Date.parse(transfer.createdAt) + 60_000).toISOString() },
    });
    expect(moved.status).toBe(200);
    await rita.getByRole('heading', { name: 'Album masters for Rita' }).waitFor();
    server.clock.advance(120_000);
    await rita.reload();
    await rita.getByText('This transfer is no longer available.').waitFor();
    await shoot(rita, 'recipient-gone');
    expect(fileUrl).toMatch(/\/download\?g=/);
    expect((await fetch(new URL(fileUrl, server.url))).status).toBe(410);
    await ana.goto(`${server.url}/transfer/history`);
    const tile = ana.locator('[data-testid="transfer-tile"][data-name="Album masters for Rita"]');
    await tile.getByText(/^Expired on/).waitFor();
    // Expired: Delete only (no copy, no edit).
    expect(await tile.getByRole('button', { name: /^Copy link/ }).count()).toBe(0);
    await tile.getByRole('button', { name: 'Actions for Album masters for Rita' }).click();
    await ana.getByRole('menuitem', { name: 'Delete' }).waitFor();
    expect(await ana.getByRole('menuitem', { name: 'Edit' }).count()).toBe(0);
    await shoot(ana, 'history-expired');

    // Studio reloads an expired transfer: the same link answers again, for the duration chosen.
    await ana.getByRole('menuitem', { name: 'Reload' }).click();
    const reload = ana.getByRole('dialog', { name: 'Reload transfer' });
    await reload.getByRole('button', { name: 'Reload' }).click();
    await ana.getByText('Transfer reloaded').waitFor();
    await tile.getByText(/^Expired on/).waitFor({ state: 'detached' });
    const token = new URL(mailLink).searchParams.get('transferId');
    expect((await call(server.url, `/api/public/transfers/${token}`)).status).toBe(200);
  }, 30_000);

  it('collects files through a request link from someone without an account', async () => {
    await ana.goto(`${server.url}/transfer/requests`);
    await ana.getByText('No request links yet').waitFor();
    await ana.getByLabel('Message').fill('Please send the vocal takes, 24-bit WAV.');
    await ana.getByRole('button', { name: 'Create link' }).click();
    const card = ana.getByTestId('file-request');
    await card.getByText('0 received').waitFor();
    const link = await card.getByRole('textbox', { name: 'Link' }).inputValue();
    await shoot(ana, 'file-requests');

    const url = new URL(link);
    await rita.goto(`${server.url}${url.pathname}${url.search}`);
    await rita.getByRole('heading', { name: 'Ana Mixer asks you for files' }).waitFor();
    await rita.getByText('Please send the vocal takes, 24-bit WAV.').waitFor();
    await rita.getByTestId('transfer-files-input').setInputFiles(files['Session/Stems/Bass.wav']);
    await rita.getByText('Selected files 1').waitFor();
    await rita.getByLabel('Your name').fill('Rita');
    await rita.getByLabel('Your e-mail').fill('rita@mastering.io');
    await shoot(rita, 'file-request-filled');
    await rita.getByRole('button', { name: 'Upload' }).click();
    await rita.getByText('Ana Mixer received 1 file and has been told.').waitFor({ timeout: 30_000 });
    await shoot(rita, 'file-request-sent');

    // Live on Ana's side: the count on the link, and the transfer in her history with the same bytes.
    await card.getByText('1 received').waitFor();
    await ana.goto(`${server.url}/transfer/history`);
    await ana.locator('[data-testid="transfer-tile"][data-name="Files from Rita"]').waitFor();
    const got = (await call(server.url, '/api/transfers?q=rita', { token: anaToken })).body as {
      items: TransferDetail[];
    };
    const id = got.items.find((t) => t.name === 'Files from Rita')!.id;
    const received = (await call(server.url, `/api/transfers/${id}`, { token: anaToken })).body as TransferDetail;
    expect(received.files.map((f) => [f.fileName, f.size])).toEqual([
      ['Bass.wav', readFileSync(files['Session/Stems/Bass.wav']).length],
    ]);
  }, 40_000);
});

describe('a visitor who presses Transfer signed out', () => {
  it('signs in and comes back to /transfer with the form and the files, then sends', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/public/transfer`);
    await page.getByTestId('transfer-files-input').setInputFiles(files['Session/Mix.wav']);
    await page.getByText('Selected files 1').waitFor();
    await page.getByLabel('Name').fill('Mix for the label');
    await page.getByLabel('Message').fill('The mix, as promised.');
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await page.waitForURL('**/oidc/interaction/**');
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.locator('form').getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/transfer`);
    await page.getByText('Your transfer is back: press Transfer to send it.').waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe('Mix for the label');
    await page.getByText('Selected files 1').waitFor();
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await page.getByRole('dialog', { name: 'Success' }).getByText('Your transfer has been sent!').waitFor();
    const list = (await call(server.url, '/api/transfers?q=label', { token: anaToken })).body as {
      items: TransferDetail[];
    };
    expect(list.items.map((t) => [t.name, t.fileCount])).toEqual([['Mix for the label', 1]]);
    await context.close();
  }, 40_000);
});
