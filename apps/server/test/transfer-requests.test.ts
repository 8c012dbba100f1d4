import { mkdtempSync, openAsBlob, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferDetail, TransferUploadTicket, Version } from '@mixroom/contracts';
import { MESSAGES, TRANSFER_MESSAGES } from '@mixroom/shared';
import { uploadFile } from '../../web/src/features/uploads/upload-engine';
import type { TransfersModule } from '../src/modules/transfers/transfers.module';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { storageClient } from './helpers/storage-client';
import { startTransferWorld, transferForm, type TransferWorld } from './helpers/transfers';
import { waitFor } from './helpers/wait-for';

/**
 * "Request files": a link through which someone without an account uploads into a transfer of the
 * owner's, within the size the owner set, and a handful of times an hour.
 */
let world: TransferWorld | undefined;
let smtp: TransferWorld['smtp'];
let server: TransferWorld['server'];
let paid: string;
let free: string;

beforeAll(async () => {
  world = await startTransferWorld();
  ({ smtp, server, paid, free } = world);
}, 180_000);
afterAll(() => world?.close());

describe('request files', () => {
  it('lets someone without an account upload into a transfer of the owner, who is told', async () => {
    const owner = storageClient(server.url, paid);
    const request = await owner.api<{ id: string; link: string }>('/api/file-requests', {
      method: 'POST',
      body: { message: 'Send me the vocals', maxBytes: 2_000_000 },
    });
    const t = new URL(request.link).searchParams.get('requestId')!;
    expect((await call(server.url, `/api/public/file-requests/${t}`)).body).toEqual({
      ownerName: 'Paula',
      message: 'Send me the vocals',
      maxBytes: 2_000_000,
    });
    const path = makeAudio('request-vocals.wav', { seconds: 1 });
    const size = readFileSync(path).length;
    const start = (files: { path: string; fileName: string; size: number }[]) =>
      call(server.url, `/api/public/file-requests/${t}/transfers`, {
        method: 'POST',
        body: { name: 'Uma', email: 'uma@voice.com', message: '', files },
      });
    const tooBig = await start([{ path: '', fileName: 'huge.wav', size: 3_000_000 }]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error?.message).toBe('This request accepts at most 2 MB.');
    const started = (await start([{ path: 'Takes', fileName: 'vocals.wav', size }])).body as unknown as {
      transferId: string;
      files: { id: string }[];
      uploadGrant: string;
    };
    const u = encodeURIComponent(started.uploadGrant);
    // The upload engine as a visitor drives it: the orchestrator's session calls, under /api/public with the grant.
    const visitor = storageClient(server.url, '');
    const api = <T>(p: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }) =>
      visitor.api<T>(`${p.replace('/api/uploads/', '/api/public/uploads/')}?u=${u}`, init);
    const base = `/api/public/file-requests/${t}/transfers/${started.transferId}/files/${started.files[0]!.id}`;
    const before = smtp.inbox.length;
    await uploadFile({
      api,
      ticket: await visitor.api<TransferUploadTicket>(`${base}/upload?u=${u}`, { method: 'POST' }),
      file: await openAsBlob(path),
      complete: (signal) => visitor.api<Version>(`${base}/complete?u=${u}`, { method: 'POST', signal }),
    });
    // Another transfer's grant reaches nothing of this one.
    expect((await call(server.url, `${base}/upload?u=${'x'.repeat(40)}`, { method: 'POST' })).status).toBe(404);
    const mail = await waitFor(() => smtp.inbox.slice(before).find((m) => m.to.includes('paula@transfers.test')), {
      what: "the owner's mail",
    });
    expect(mail.raw.replace(/=\r?\n/g, '')).toContain('Uma uploaded 1 file');
    const received = await owner.api<{ items: TransferDetail[] }>('/api/transfers?q=uma');
    expect(received.items.map((i) => [i.name, i.status, i.fileCount])).toEqual([['Files from Uma', 'available', 1]]);
    expect((await owner.api<{ items: { received: number }[] }>('/api/file-requests')).items[0]?.received).toBe(1);
    // A script holding the link is stopped after a person's handful of starts an hour (two are used above).
    for (let i = 0; i < 18; i++) expect((await start([])).status).toBe(400);
    const refused = await start([{ path: '', fileName: 'more.wav', size: 10 }]);
    expect([refused.status, refused.body.error?.message]).toEqual([429, TRANSFER_MESSAGES.tooManyRequestUploads]);
    await owner.api(`/api/file-requests/${request.id}`, { method: 'DELETE' });
    expect((await call(server.url, `/api/public/file-requests/${t}`)).status).toBe(410);
  });
});

/** A request link of the owner's; answers its id and token. */
async function newRequest(owner: ReturnType<typeof storageClient>, maxBytes: number | null) {
  const request = await owner.api<{ id: string; link: string }>('/api/file-requests', {
    method: 'POST',
    body: { message: 'Send them over', maxBytes },
  });
  return { id: request.id, t: new URL(request.link).searchParams.get('requestId')! };
}

interface Started {
  transferId: string;
  files: { id: string }[];
  uploadGrant: string;
}

/** An anonymous start from its own address (the server trusts the proxy header here), so budgets stay apart. */
async function startFrom(t: string, address: string, name: string, files: { fileName: string; size: number }[]) {
  const response = await fetch(`${server.url}/api/public/file-requests/${t}/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ name, email: '', message: '', files: files.map((f) => ({ path: '', ...f })) }),
  });
  expect(response.status).toBe(201);
  const started = (await response.json()) as Started;
  const u = encodeURIComponent(started.uploadGrant);
  const file = (i = 0) =>
    `/api/public/file-requests/${t}/transfers/${started.transferId}/files/${started.files[i]!.id}`;
  return { ...started, u, file };
}

const housekeeping = () =>
  (server.context.modules.find((m) => m.name === 'transfers') as TransfersModule).services.housekeeping;

const usedBytes = async (token: string) =>
  ((await call(server.url, '/api/storage', { token })).body as { usedBytes: number }).usedBytes;

describe('request files: what a stranger holding the link can cost the owner', () => {
  it('refuses every use of an earlier grant once the link is turned off: no part URL, no part, no completion', async () => {
    const owner = storageClient(server.url, paid);
    const { id, t } = await newRequest(owner, null);
    const started = await startFrom(t, '198.51.100.13', 'Lee', [{ fileName: 'late.wav', size: 1000 }]);
    const ticket = (await call(server.url, `${started.file()}/upload?u=${started.u}`, { method: 'POST' }))
      .body as unknown as TransferUploadTicket;
    const part = `/api/public/uploads/${ticket.upload.id}/parts/1`;
    const { url } = (await call(server.url, `${part}/url?u=${started.u}`, { method: 'POST' })).body as { url: string };

    await owner.api(`/api/file-requests/${id}`, { method: 'DELETE' });
    const again = await call(server.url, `${part}/url?u=${started.u}`, { method: 'POST' });
    expect([again.status, again.body.error?.message]).toEqual([410, TRANSFER_MESSAGES.requestUnavailable]);
    // The part URL handed out before is still signed, but its session is closed: nothing lands.
    expect((await fetch(url, { method: 'PUT', body: Buffer.alloc(1000, 1) })).status).toBe(410);
    const record = await call(server.url, `${part}?u=${started.u}`, {
      method: 'PUT',
      body: { etag: '"1"', size: 1000 },
    });
    expect(record.status).toBe(410);
    expect((await call(server.url, `${started.file()}/complete?u=${started.u}`, { method: 'POST' })).status).toBe(410);
    expect((await call(server.url, `${started.file()}/upload?u=${started.u}`, { method: 'POST' })).status).toBe(410);
    const history = await owner.api<{ items: TransferDetail[] }>('/api/transfers?q=lee');
    expect(history.items.filter((i) => i.status === 'available')).toEqual([]);
  });

  it("holds none of a Free owner's quota for a declared 14 GB: only bytes that arrive count, shown apart", async () => {
    const fran = storageClient(server.url, free);
    const { t } = await newRequest(fran, null);
    const started = await startFrom(t, '198.51.100.14', 'Max', [{ fileName: 'huge.wav', size: 14_000_000_000 }]);
    expect(await usedBytes(free)).toBe(0);
    // The owner's own upload is not refused because of it.
    const own = await call(server.url, '/api/projects/upload', {
      method: 'POST',
      token: free,
      body: { groupId: null, fileName: 'Own Mix.wav', size: 2_000_000_000 },
    });
    expect(own.status).toBe(201);
    // The uploader opens the file's session: one part in flight counts, and the owner sees it on /settings.
    const ticket = (await call(server.url, `${started.file()}/upload?u=${started.u}`, { method: 'POST' }))
      .body as unknown as TransferUploadTicket;
    expect(await usedBytes(free)).toBe(2_000_000_000 + ticket.upload.partSize);
    const me = (await call(server.url, '/api/me', { token: free })).body as {
      entitlements: { storage: { breakdown: { kind: string; bytes: number }[] } };
    };
    expect(me.entitlements.storage.breakdown).toContainEqual({ kind: 'incoming', bytes: ticket.upload.partSize });
    const { version } = own.body as { version: { id: string } };
    expect((await call(server.url, `/api/versions/${version.id}/cancel`, { method: 'POST', token: free })).status).toBe(
      204,
    );
  });

  it("refuses at completion a stranger's file that no longer fits the owner's quota, and keeps nothing of it", async () => {
    const fran = storageClient(server.url, free);
    const { t } = await newRequest(fran, null);
    const size = 40 * 1024 * 1024;
    const path = join(mkdtempSync(join(tmpdir(), 'mixroom-request-')), 'big.bin');
    writeFileSync(path, Buffer.alloc(size, 5));
    const started = await startFrom(t, '198.51.100.15', 'Kim', [{ fileName: 'big.bin', size }]);
    const ticket = (await call(server.url, `${started.file()}/upload?u=${started.u}`, { method: 'POST' }))
      .body as unknown as TransferUploadTicket;
    // Meanwhile the owner fills the rest of her storage (the stranger's upload holds one part of it).
    const room = 15_000_000_000 - (await usedBytes(free));
    const own = await call(server.url, '/api/projects/upload', {
      method: 'POST',
      token: free,
      body: { groupId: null, fileName: 'Archive.wav', size: room - 1000 },
    });
    expect(own.status).toBe(201);
    const visitor = storageClient(server.url, '');
    const api = <T>(p: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }) =>
      visitor.api<T>(`${p.replace('/api/uploads/', '/api/public/uploads/')}?u=${started.u}`, init);
    const sent = uploadFile({
      api,
      ticket,
      file: await openAsBlob(path),
      complete: (signal) =>
        visitor.api<Version>(`${started.file()}/complete?u=${started.u}`, { method: 'POST', signal }),
    });
    await expect(sent).rejects.toThrow(MESSAGES.storageLimit);
    // Nothing of the refused file stays: the owner's storage is hers again (but for the 14 GB start's open part).
    expect(await usedBytes(free)).toBe(15_000_000_000 - 1000 - ticket.upload.partSize);
    const { version } = own.body as { version: { id: string } };
    await call(server.url, `/api/versions/${version.id}/cancel`, { method: 'POST', token: free });
  });

  it('drops a start through a request that nothing moved for an hour, and what it held of the quota', async () => {
    const fran = storageClient(server.url, free);
    const { t } = await newRequest(fran, null);
    const started = await startFrom(t, '198.51.100.17', 'Idle', [{ fileName: 'idle.wav', size: 5_000_000_000 }]);
    const ticket = (await call(server.url, `${started.file()}/upload?u=${started.u}`, { method: 'POST' }))
      .body as unknown as TransferUploadTicket;
    const partUrl = `/api/public/uploads/${ticket.upload.id}/parts/1/url?u=${started.u}`;
    const incoming = async () =>
      (
        (await call(server.url, '/api/me', { token: free })).body as {
          entitlements: { storage: { breakdown: { kind: string }[] } };
        }
      ).entitlements.storage.breakdown.filter((b) => b.kind === 'incoming');
    expect(await incoming()).toHaveLength(1);
    // A start that is moving stays.
    await housekeeping().purge();
    expect((await call(server.url, partUrl, { method: 'POST' })).status).toBe(200);
    server.clock.advance(2 * 3_600_000);
    try {
      await housekeeping().purge();
    } finally {
      server.clock.set(new Date());
    }
    expect((await call(server.url, partUrl, { method: 'POST' })).status).toBe(404);
    expect(await incoming()).toEqual([]);
  });

  it("counts a request's transfer in the owner's month when it completes, not when a stranger starts it", async () => {
    const fran = storageClient(server.url, free);
    const { t } = await newRequest(fran, null);
    const limits = (await call(server.url, '/api/me', { token: free })).body as {
      limits: { transfersPerMonth: number };
    };
    for (let i = 0; i < limits.limits.transfersPerMonth; i++)
      await startFrom(t, '198.51.100.16', `Starter ${i}`, [{ fileName: 'never.wav', size: 1000 }]);
    const created = await call(server.url, '/api/transfers', { method: 'POST', token: free, body: transferForm() });
    expect(created.status).toBe(201);
  });
});
