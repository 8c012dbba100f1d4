import { openAsBlob, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferDetail, TransferUploadTicket, Version } from '@mixroom/contracts';
import { TRANSFER_MESSAGES } from '@mixroom/shared';
import { uploadFile } from '../../web/src/features/uploads/upload-engine';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { storageClient } from './helpers/storage-client';
import { startTransferWorld, type TransferWorld } from './helpers/transfers';
import { waitFor } from './helpers/wait-for';

/**
 * "Request files": a link through which someone without an account uploads into a transfer of the
 * owner's, within the size the owner set, and a handful of times an hour.
 */
let world: TransferWorld | undefined;
let smtp: TransferWorld['smtp'];
let server: TransferWorld['server'];
let paid: string;

beforeAll(async () => {
  world = await startTransferWorld();
  ({ smtp, server, paid } = world);
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
