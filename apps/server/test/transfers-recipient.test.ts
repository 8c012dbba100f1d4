import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateTransferBody, PublicTransferContent, TransferDetail } from '@mixroom/contracts';
import { DAY_MS, TRANSFER_GRACE_DAYS, TRANSFER_MESSAGES } from '@mixroom/shared';
import type { TransfersModule } from '../src/modules/transfers/transfers.module';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { storageClient } from './helpers/storage-client';
import { sendTransfer, startTransferWorld, transferForm, type TransferWorld } from './helpers/transfers';
import { unzip } from './helpers/unzip';
import { waitFor } from './helpers/wait-for';

let world: TransferWorld | undefined;
let smtp: TransferWorld['smtp'];
let server: TransferWorld['server'];
let paid: string;
let other: string;
let paidId: string;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const housekeeping = () =>
  (server.context.modules.find((m) => m.name === 'transfers') as TransfersModule).services.housekeeping;

const form = transferForm;
const send = (token: string, body: CreateTransferBody, paths: string[]) => sendTransfer(server.url, token, body, paths);

const token = (t: TransferDetail) => new URL(t.link).searchParams.get('transferId')!;
const publicGet = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
/** The link token in a mail (quoted-printable undone). */
const linkOf = (raw: string) =>
  /\/public\/share\?transferId=([A-Za-z0-9_-]+)/.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='));

beforeAll(async () => {
  world = await startTransferWorld();
  ({ smtp, server, paid, other, paidId } = world);
}, 180_000);
afterAll(() => world?.close());

describe('a sent transfer, from the recipient side', () => {
  const dir = {
    a: makeAudio('transfer-a.wav', { seconds: 2 }),
    b: makeAudio('transfer-b.mp3', { seconds: 2, codec: 'libmp3lame' }),
  };
  let transfer: TransferDetail;

  beforeAll(async () => {
    transfer = await send(
      paid,
      form({
        name: 'Album masters',
        mode: 'email',
        recipients: ['eve@studio.com'],
        password: 'open sesame',
        durationDays: 3,
        files: [
          { path: 'Album/Side A', fileName: 'track-a.wav', size: readFileSync(dir.a).length },
          { path: '', fileName: 'notes.mp3', size: readFileSync(dir.b).length },
        ],
      }),
      [dir.a, dir.b],
    );
  }, 120_000);

  it('is sent once its files are in, and mails each recipient the link', async () => {
    expect(transfer).toMatchObject({ status: 'available', fileCount: 2, hasPassword: true });
    expect(transfer.folders.map((f) => f.name).sort()).toEqual(['Album', 'Album masters', 'Side A']);
    const mail = await waitFor(() => smtp.inbox.find((m) => m.to.includes('eve@studio.com')), { what: 'the mail' });
    const raw = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    // Eve's own link, not the shared one: what comes through it is counted as hers.
    expect(linkOf(raw)?.[1]).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(raw).not.toContain(`transferId=${token(transfer)}`);
    expect(raw).toContain('Here are the stems.');
    expect(raw).toContain('Paula');
  });

  it('releases nothing before the password, then the files, peaks, Range and a ZIP with checksums', async () => {
    const t = token(transfer);
    const head = await call(server.url, `/api/public/transfers/${t}`);
    expect(head.body).toEqual({ title: 'Album masters', expiresAt: transfer.expiresAt, passwordRequired: true });
    expect((await call(server.url, `/api/public/transfers/${t}/access`, { method: 'POST', body: {} })).status).toBe(
      401,
    );
    const fileId = transfer.files[0]!.id;
    expect((await publicGet(`/api/public/transfers/${t}/files/${fileId}/download?g=${'x'.repeat(30)}`)).status).toBe(
      401,
    );
    const wrong = await call(server.url, `/api/public/transfers/${t}/access`, {
      method: 'POST',
      body: { password: 'nope' },
    });
    expect(wrong.body.error?.message).toBe('This transfer is password protected');
    const eve = linkOf(smtp.inbox.find((m) => m.to.includes('eve@studio.com'))!.raw)![1]!;
    const access = await call(server.url, `/api/public/transfers/${eve}/access`, {
      method: 'POST',
      body: { password: 'open sesame' },
    });
    expect(access.status).toBe(200);
    const g = encodeURIComponent(access.body.grant as string);
    const content = await waitFor(
      async () => {
        const c = (await call(server.url, `/api/public/transfers/${t}/content?g=${g}`))
          .body as unknown as PublicTransferContent;
        if (c.files.every((f) => f.sha256 && f.hasPeaks)) return c;
        throw new Error(JSON.stringify(c.files.map((f) => [f.fileName, f.status, f.sha256, f.hasPeaks])));
      },
      { what: 'checksums and peaks', timeoutMs: 30_000 },
    );
    const wav = content.files.find((f) => f.fileName === 'track-a.wav')!;
    const original = readFileSync(dir.a);
    expect(wav).toMatchObject({ path: 'Album/Side A', sha256: sha(original) });
    const full = await publicGet(wav.downloadUrl);
    expect(Buffer.from(await full.arrayBuffer()).equals(original)).toBe(true);
    const part = await publicGet(wav.downloadUrl, { range: 'bytes=10-99' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-99/${original.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(original.subarray(10, 100))).toBe(true);
    expect((await publicGet(wav.downloadUrl, { range: `bytes=${original.length}-` })).status).toBe(416);
    const peaks = await publicGet(wav.peaksUrl!);
    expect(((await peaks.json()) as { version: number }).version).toBe(1);
    // The tile's waveform picture: a PNG, reached only with the grant.
    const thumbnail = await waitFor(
      async () => {
        const c = (await call(server.url, `/api/public/transfers/${t}/content?g=${g}`))
          .body as unknown as PublicTransferContent;
        return c.files.find((f) => f.fileName === 'track-a.wav')?.thumbnailUrl ?? null;
      },
      { what: 'the waveform picture' },
    );
    const picture = Buffer.from(await (await publicGet(thumbnail)).arrayBuffer());
    expect(picture.subarray(1, 4).toString()).toBe('PNG');
    const forged = thumbnail.replace(/g=[^&]+/, 'g=forged');
    const refused = await fetch(`${server.url}${forged}`, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();

    const zip = await unzip(Buffer.from(await (await publicGet(content.zipUrl)).arrayBuffer()));
    expect([...zip.keys()].sort()).toEqual(['Album/Side A/track-a.wav', 'checksums.sha256', 'notes.mp3']);
    expect(zip.get('Album/Side A/track-a.wav')!.equals(original)).toBe(true);
    expect(zip.get('checksums.sha256')!.toString()).toBe(
      `${sha(original)}  Album/Side A/track-a.wav\n${sha(readFileSync(dir.b))}  notes.mp3\n`,
    );
    const log = await waitFor(
      async () => {
        const items = (
          (await call(server.url, `/api/transfers/${transfer.id}/downloads`, { token: paid })).body as {
            items: { email: string | null; fileId: string | null; completed: boolean }[];
          }
        ).items;
        return items.filter((i) => i.completed).length >= 2 ? items : null;
      },
      { what: 'completed downloads in the log' },
    );
    expect(log.some((i) => i.fileId === null && i.email === 'eve@studio.com' && i.completed)).toBe(true);
    const detail = (await call(server.url, `/api/transfers/${transfer.id}`, { token: paid }))
      .body as unknown as TransferDetail;
    expect(detail.recipients).toMatchObject([{ email: 'eve@studio.com', downloadCount: 2 }]);
  });

  it('slows a password guesser down while the right password still works from another address', async () => {
    const t = token(transfer);
    const attempt = (password: string, ip: string) =>
      fetch(`${server.url}/api/public/transfers/${t}/access`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ password }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await attempt(`guess-${i}`, '203.0.113.9')).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(35);
    const refused = await attempt('open sesame', '203.0.113.9');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      TRANSFER_MESSAGES.tooManyAttempts,
    );
    expect((await attempt('open sesame', '198.51.100.7')).status).toBe(200);
  });

  it('keeps other users, wrong ids and storage ids out', async () => {
    const paths = [`/api/transfers/${transfer.id}`, `/api/transfers/${transfer.id}/downloads`];
    for (const path of paths) expect((await call(server.url, path, { token: other })).status).toBe(404);
    expect((await call(server.url, `/api/transfers/${transfer.id}`, { method: 'DELETE', token: other })).status).toBe(
      404,
    );
    // A transfer's file is invisible to the storage area, and a storage folder is no transfer.
    expect((await call(server.url, `/api/projects/${transfer.files[0]!.id}`, { token: paid })).status).toBe(404);
    const folder = await storageClient(server.url, paid).createFolder('Mine', null);
    expect((await call(server.url, `/api/transfers/${folder.id}`, { token: paid })).status).toBe(404);
    expect((await call(server.url, `/api/public/transfers/${'A'.repeat(32)}`)).status).toBe(404);
  });

  it('moves the expiry only within its bounds, and a new password revokes grants handed out before', async () => {
    const patch = (body: unknown) =>
      call(server.url, `/api/transfers/${transfer.id}`, { method: 'PATCH', token: paid, body });
    const tooLate = new Date(new Date(transfer.expiryBounds.max).getTime() + DAY_MS).toISOString();
    const refused = await patch({ expiresAt: tooLate });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(
      `The expiry date must lie between ${transfer.expiryBounds.min.slice(0, 10)} and ${transfer.expiryBounds.max.slice(0, 10)}.`,
    );
    expect((await patch({ expiresAt: transfer.expiresAt })).status).toBe(200);
    const t = token(transfer);
    const before = await call(server.url, `/api/public/transfers/${t}/access`, {
      method: 'POST',
      body: { password: 'open sesame' },
    });
    const content = (grant: string) =>
      call(server.url, `/api/public/transfers/${t}/content?g=${encodeURIComponent(grant)}`);
    const granted = await content(before.body.grant as string);
    expect(granted.status).toBe(200);
    const fileId = (granted.body as unknown as PublicTransferContent).files[0]!.id;
    const picture = `/api/public/transfers/${t}/files/${fileId}/thumbnail?g=${encodeURIComponent(before.body.grant as string)}`;
    expect((await patch({ password: 'open sesame' })).body.hasPassword).toBe(true);
    expect((await content(before.body.grant as string)).status).toBe(401);
    expect((await call(server.url, picture)).status).toBe(401);
  });

  it('reminds a recipient who has not downloaded, once, a day before expiry', async () => {
    const quiet = await send(
      paid,
      form({
        name: 'Quiet one',
        mode: 'email',
        recipients: ['bob@studio.com'],
        durationDays: 3,
        files: [{ path: '', fileName: 'notes.mp3', size: readFileSync(dir.b).length }],
      }),
      [dir.b],
    );
    server.clock.set(new Date(new Date(quiet.expiresAt).getTime() - DAY_MS / 2));
    const before = smtp.inbox.length;
    expect(await housekeeping().remind()).toBeGreaterThanOrEqual(1);
    expect(await housekeeping().remind()).toBe(0);
    await waitFor(() => smtp.inbox.slice(before).some((m) => m.to.includes('bob@studio.com')), {
      what: 'the reminder',
    });
  });

  it('answers 410 once expired (by the clock), and purges the files after the grace period', async () => {
    const t = token(transfer);
    const access = await call(server.url, `/api/public/transfers/${t}/access`, {
      method: 'POST',
      body: { password: 'open sesame' },
    });
    const g = encodeURIComponent(access.body.grant as string);
    const file = transfer.files[0]!;
    server.clock.set(new Date(new Date(transfer.expiresAt).getTime() + 1000));
    const head = await call(server.url, `/api/public/transfers/${t}`);
    expect(head.status).toBe(410);
    expect(head.body.error?.message).toBe('This transfer is no longer available.');
    expect((await publicGet(`/api/public/transfers/${t}/files/${file.id}/download?g=${g}`)).status).toBe(410);
    expect((await publicGet(`/api/public/transfers/${t}/zip?g=${g}`)).status).toBe(410);
    // Bearer tokens expire with the moved clock: the owner's history is read through the service.
    const owner = { userId: paidId, isAdmin: false, email: 'paula@transfers.test', displayName: 'Paula' };
    const list = await server.context.services.transfers.list(owner, 'ALBUM');
    expect(list.items.map((i) => [i.name, i.status, i.capabilities.canReload])).toEqual([
      ['Album masters', 'expired', true],
    ]);
    // Reload (paid plans): an expired transfer is available again with a new duration.
    const [quiet] = (await server.context.services.transfers.list(owner, 'quiet')).items;
    expect(quiet?.status).toBe('expired');
    const reloaded = await server.context.services.transfers.reload(owner, quiet!.id, 7);
    expect(reloaded.status).toBe('available');
    const key = `projects/${file.id}/${file.versionId}/original.wav`;
    expect(await server.context.blobs.head(key)).not.toBeNull();
    await housekeeping().purge();
    expect(await server.context.blobs.head(key)).not.toBeNull();
    server.clock.advance(TRANSFER_GRACE_DAYS * DAY_MS);
    await housekeeping().purge();
    expect(await server.context.blobs.head(key)).toBeNull();
    await expect(server.context.services.transfers.reload(owner, transfer.id, 7)).rejects.toThrow(
      TRANSFER_MESSAGES.reloadTooLate,
    );
  });
});
