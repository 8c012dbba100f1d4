import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateTransferBody, TransferDetail } from '@mixroom/contracts';
import { TRANSFER_MESSAGES } from '@mixroom/shared';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { sendTransfer, startTransferWorld, transferForm, type TransferWorld } from './helpers/transfers';
import { waitFor } from './helpers/wait-for';

let world: TransferWorld | undefined;
let smtp: TransferWorld['smtp'];
let server: TransferWorld['server'];
let admin: string;
let free: string;
let paid: string;

const form = transferForm;
const create = (token: string, body: CreateTransferBody) =>
  call(server.url, '/api/transfers', { method: 'POST', token, body });
const send = (token: string, body: CreateTransferBody, paths: string[]) => sendTransfer(server.url, token, body, paths);

const token = (t: TransferDetail) => new URL(t.link).searchParams.get('transferId')!;
const publicGet = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
/** The link token in a mail (quoted-printable undone). */
const linkOf = (raw: string) =>
  /\/public\/share\?transferId=([A-Za-z0-9_-]+)/.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='));

beforeAll(async () => {
  world = await startTransferWorld();
  ({ smtp, server, admin, free, paid } = world);
}, 180_000);
afterAll(() => world?.close());

describe('creating a transfer', () => {
  it('checks the form in order, each failure with its own text', async () => {
    const steps: [Partial<CreateTransferBody>, string][] = [
      [{ files: [], mode: 'email', name: '', message: '', durationDays: 90 }, TRANSFER_MESSAGES.noFiles],
      [{ mode: 'email', name: '', message: '', durationDays: 90 }, TRANSFER_MESSAGES.noRecipients],
      [{ name: ' ', message: '', durationDays: 90 }, TRANSFER_MESSAGES.noName],
      [{ message: '', durationDays: 90 }, TRANSFER_MESSAGES.noMessage],
      [{ durationDays: 90 }, TRANSFER_MESSAGES.durationLocked],
      [{ password: 'secret' }, TRANSFER_MESSAGES.passwordLocked],
      [
        { files: [{ path: '', fileName: 'big.wav', size: 15_000_000_001 }] },
        'You have exceeded the maximum transfer size of 15 GB.',
      ],
    ];
    for (const [overrides, message] of steps) {
      const answer = await create(free, form(overrides));
      expect(answer.body.error?.message, message).toBe(message);
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
  });

  it("refuses a Free user's 16th transfer of the month and a 90-day duration; a paid user's go", async () => {
    for (let i = 0; i < 15; i++) expect((await create(free, form({ name: `T${i}` }))).status).toBe(201);
    const sixteenth = await create(free, form({ name: 'T15' }));
    expect(sixteenth.status).toBe(403);
    expect(sixteenth.body.error).toMatchObject({
      code: 'TRANSFER_MONTHLY_LIMIT_PLAN',
      message: TRANSFER_MESSAGES.monthlyLimit,
    });
    for (let i = 0; i < 16; i++)
      expect((await create(paid, form({ name: `P${i}`, durationDays: 90 }))).status).toBe(201);
  });
});

describe('whose link it is, and what the download log counts', () => {
  const audio = makeAudio('masters.wav', { seconds: 2 });
  const size = readFileSync(audio).length;
  let masters: TransferDetail;
  const mailTo = (address: string) =>
    waitFor(() => smtp.inbox.find((m) => m.to.includes(address) && m.raw.includes('Masters')), {
      what: `the mail to ${address}`,
    });
  const grantOf = async (link: string, body: Record<string, string> = {}) =>
    encodeURIComponent(
      String((await call(server.url, `/api/public/transfers/${link}/access`, { method: 'POST', body })).body.grant),
    );
  const download = (link: string, g: string, range?: string) =>
    publicGet(
      `/api/public/transfers/${link}/files/${masters.files[0]!.id}/download?g=${g}`,
      range ? { range } : {},
    ).then(async (r) => ({ status: r.status, bytes: (await r.arrayBuffer()).byteLength }));
  type Entry = { email: string | null; bytes: number; completed: boolean };
  const log = async () =>
    ((await call(server.url, `/api/transfers/${masters.id}/downloads`, { token: paid })).body as { items: Entry[] })
      .items;

  beforeAll(async () => {
    masters = await send(
      paid,
      form({
        name: 'Masters',
        mode: 'email',
        recipients: ['ron@studio.com', 'sue@studio.com'],
        files: [{ path: '', fileName: 'masters.wav', size }],
      }),
      [audio],
    );
  }, 120_000);

  it('mails each recipient a link of their own; the shared link counts as someone with the link, whatever address it names', async () => {
    const shared = token(masters);
    const ron = linkOf((await mailTo('ron@studio.com')).raw)?.[1] ?? '';
    const sue = linkOf((await mailTo('sue@studio.com')).raw)?.[1] ?? '';
    expect(new Set([shared, ron, sue]).size).toBe(3);
    expect((await mailTo('ron@studio.com')).raw).not.toContain('email=');
    // Someone with the shared link names a recipient: the download is not counted as hers.
    expect((await download(shared, await grantOf(shared, { email: 'sue@studio.com' }))).bytes).toBe(size);
    expect((await download(ron, await grantOf(ron))).bytes).toBe(size);
    const entries = await waitFor(async () => ((await log()).filter((e) => e.completed).length >= 2 ? log() : null), {
      what: 'both downloads logged',
    });
    expect(new Set(entries.map((e) => e.email))).toEqual(new Set(['ron@studio.com', null]));
    const detail = (await call(server.url, `/api/transfers/${masters.id}`, { token: paid }))
      .body as unknown as TransferDetail;
    expect(detail.recipients).toMatchObject([
      { email: 'ron@studio.com', downloadCount: 1 },
      { email: 'sue@studio.com', downloadCount: 0 },
    ]);
    expect(detail.anonymousDownloads).toBe(1);
  });

  it('counts each byte of a file once across Range continuations, never more than the file', async () => {
    const ranges = await send(paid, form({ name: 'Ranges', files: [{ path: '', fileName: 'r.wav', size }] }), [audio]);
    const link = token(ranges);
    const g = await grantOf(link);
    const get = (range: string) =>
      publicGet(`/api/public/transfers/${link}/files/${ranges.files[0]!.id}/download?g=${g}`, { range }).then(
        async (r) => ({ status: r.status, bytes: (await r.arrayBuffer()).byteLength }),
      );
    const half = Math.floor(size / 2);
    expect((await get(`bytes=0-${half - 1}`)).status).toBe(206);
    expect((await get(`bytes=${half}-`)).status).toBe(206);
    // The last 100 bytes again: the same entry goes on, and stays at the file's size.
    expect((await get('bytes=-100')).bytes).toBe(100);
    // A marker after them (a new entry, from byte 0): once it is in the log, so are the responses before it.
    expect((await get('bytes=0-9')).bytes).toBe(10);
    const entries = await waitFor(
      async () => {
        const items = (
          (await call(server.url, `/api/transfers/${ranges.id}/downloads`, { token: paid })).body as {
            items: Entry[];
          }
        ).items;
        return items.some((e) => e.bytes === 10) && items.some((e) => e.completed) ? items : null;
      },
      { what: 'the ranges logged' },
    );
    expect(entries.filter((e) => e.bytes !== 10)).toEqual([expect.objectContaining({ bytes: size, completed: true })]);
  });

  it("answers 410 for a deleted transfer's links, as for an expired one's", async () => {
    const ron = linkOf((await mailTo('ron@studio.com')).raw)?.[1] ?? '';
    expect((await call(server.url, `/api/transfers/${masters.id}`, { method: 'DELETE', token: paid })).status).toBe(
      204,
    );
    for (const link of [token(masters), ron]) {
      const head = await call(server.url, `/api/public/transfers/${link}`);
      expect(head.status).toBe(410);
      expect(head.body.error?.message).toBe('This transfer is no longer available.');
    }
    expect((await call(server.url, `/api/public/transfers/${'B'.repeat(32)}`)).status).toBe(404);
  });

  it("stops a disabled account's public links, transfers and file-request links until it is enabled again", async () => {
    const dora = (await signInThroughOidc(server.url, { email: 'dora@transfers.test', password: 'dora-password-long' }))
      .access_token;
    const doraId = ((await call(server.url, '/api/me', { token: dora })).body as { id: string }).id;
    const sent = await send(dora, form({ name: 'Dora sends', files: [{ path: '', fileName: 'd.wav', size }] }), [
      audio,
    ]);
    const request = await call(server.url, '/api/file-requests', {
      method: 'POST',
      token: dora,
      body: { message: 'Hi' },
    });
    const requestToken = new URL(String(request.body.link)).searchParams.get('requestId')!;
    const folder = await storageClient(server.url, dora).createFolder('Dora shares', null);
    const publicLink = await call(server.url, `/api/share/group/${folder.id}/public-link`, {
      method: 'PUT',
      token: dora,
      body: { isActive: true },
    });
    const shareToken = new URL(String(publicLink.body.url)).searchParams.get('shared_group')!;
    const statuses = async () => [
      (await call(server.url, `/api/public/transfers/${token(sent)}`)).status,
      (await call(server.url, `/api/public/file-requests/${requestToken}`)).status,
      (await call(server.url, `/api/public/share?token=${shareToken}`)).status,
    ];
    const setDisabled = (disabled: boolean) =>
      call(server.url, `/api/admin/users/${doraId}/status`, { method: 'PUT', token: admin, body: { disabled } });
    expect(await statuses()).toEqual([200, 200, 200]);
    expect((await setDisabled(true)).status).toBe(200);
    expect(await statuses()).toEqual([410, 410, 404]);
    expect((await setDisabled(false)).status).toBe(200);
    expect(await statuses()).toEqual([200, 200, 200]);
  });
});
