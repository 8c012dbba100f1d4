import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  PublicTransferContent,
  TransferDetail,
  TransferSummary,
  TransferUploadTicket,
  Version,
} from '@mixroom/contracts';
import { formatTransferSize, TRANSFER_MESSAGES } from '@mixroom/shared';
import { uploadFile } from '../../web/src/features/uploads/upload-engine';
import { transfers } from '../src/db/schema';
import { systemClock } from '../src/platform/clock/clock';
import { createDrive } from '../src/platform/drives/create-drive';
import { DRIVE_MESSAGES } from '../src/platform/drives/drive-error';
import { LINKED_COPY_MESSAGES } from '../src/modules/transfers/transfer-linked-copy.work';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startS3 } from './helpers/s3';
import { startSmtp } from './helpers/smtp';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { startBrokenDav, startWebdav, type TestWebdav } from './helpers/webdav';

let server: TestServer;
let dav: TestWebdav;
let s3: Awaited<ReturnType<typeof startS3>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let broken: Server;
let alice: string;
let bob: string;
let davId: string;
let bucketId: string;
let brokenId: string;
const accounts = {
  alice: { email: 'alice@linked.test', password: 'correct horse battery 1' },
  bob: { email: 'bob@linked.test', password: 'correct horse battery 2' },
};
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const GB = 1_000_000_000;
const bucket = () => s3.drive;

beforeAll(async () => {
  [dav, s3, smtp, broken] = await Promise.all([startWebdav(), startS3(), startSmtp(), startBrokenDav()]);
  // Mixroom's own files on S3 too (s3rver): a copy stores its file whole, beside an unused multipart session.
  server = await startTestServer({
    ...s3.env,
    CONNECTORS_ENABLED: 'webdav,s3',
    CONNECTORS_ALLOW_HOSTS: '127.0.0.1',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Mixroom <mixroom@linked.test>',
  });
  alice = (await signInThroughOidc(server.url, accounts.alice)).access_token;
  bob = (await signInThroughOidc(server.url, accounts.bob)).access_token;
  const linked = await call(server.url, '/api/connectors', {
    method: 'POST',
    token: alice,
    body: { kind: 'webdav', url: dav.url, username: dav.username, password: dav.password },
  });
  expect(linked.status).toBe(201);
  davId = linked.body.id as string;
  const linkedBucket = await call(server.url, '/api/connectors', { method: 'POST', token: alice, body: bucket() });
  expect(linkedBucket.status).toBe(201);
  bucketId = linkedBucket.body.id as string;
  const address = broken.address();
  const brokenUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  const lying = await call(server.url, '/api/connectors', {
    method: 'POST',
    token: bob,
    body: { kind: 'webdav', url: brokenUrl, username: 'bob', password: 'secret' },
  });
  expect(lying.status).toBe(201);
  brokenId = lying.body.id as string;
}, 180_000);
// Fresh tokens for every test: a copy and its processing can outlast an access token.
beforeEach(async () => {
  alice = (await signInThroughOidc(server.url, accounts.alice, 'signin')).access_token;
  bob = (await signInThroughOidc(server.url, accounts.bob, 'signin')).access_token;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await Promise.all([dav?.stop(), s3?.stop(), smtp?.stop(), new Promise((resolve) => broken?.close(resolve))]);
});

const form = (name: string, overrides: Record<string, unknown> = {}) => ({
  name,
  message: 'From the cloud.',
  mode: 'link',
  recipients: [],
  durationDays: 7,
  password: null,
  files: [],
  ...overrides,
});
const detail = async (token: string, id: string) =>
  (await call(server.url, `/api/transfers/${id}`, { token })).body as unknown as TransferDetail;
/** Rows a refused request must not have written. */
const rowsNamed = (name: string) => server.context.database.db.select().from(transfers).where(eq(transfers.name, name));

describe('a transfer with a file from a linked account', () => {
  const wav = makeAudio('linked-source.wav', { seconds: 4 });
  const mp3 = makeAudio('linked-bucket.mp3', { seconds: 3, codec: 'libmp3lame' });
  const notes = Buffer.from('Notes for the mix: more bass.\n');
  let transfer: TransferDetail;

  it('copies the linked file on the server, sends once the browser file is in too, and the recipient gets both', async () => {
    mkdirSync(join(dav.directory, 'Mixes'), { recursive: true });
    copyFileSync(wav, join(dav.directory, 'Mixes', 'final.wav'));
    const source = readFileSync(wav);
    const fromBucket = readFileSync(mp3);
    const drive = createDrive(bucket(), { allowHosts: ['127.0.0.1'], timeoutMs: 10_000 }, systemClock);
    await drive.write('/Takes/rough.mp3', createReadStream(mp3), fromBucket.length);
    const created = await call(server.url, '/api/transfers', {
      method: 'POST',
      token: alice,
      body: form('Cloud mix', {
        mode: 'email',
        recipients: ['rita@linked.test'],
        files: [{ path: '', fileName: 'notes.txt', size: notes.length }],
        linked: [
          { connectorId: davId, path: '/Mixes/final.wav', folder: 'Masters' },
          { connectorId: bucketId, path: 'Takes/rough.mp3' },
        ],
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    transfer = (created.body as { transfer: TransferDetail }).transfer;
    // The browser's files come first, then the linked ones, named and sized as the provider said.
    expect(transfer.files.map((f) => [f.fileName, f.size, f.path])).toEqual([
      ['notes.txt', notes.length, ''],
      ['final.wav', source.length, 'Masters'],
      ['rough.mp3', fromBucket.length, ''],
    ]);
    expect(transfer.size).toBe(notes.length + source.length + fromBucket.length);
    expect(transfer.status).toBe('uploading');

    // The server's copies finish on their own; the transfer still waits for the browser's file.
    const copied = await waitFor(
      async () => {
        const now = await detail(alice, transfer.id);
        return now.files.slice(1).every((f) => f.status !== 'uploading') ? now : null;
      },
      { what: 'the linked copies', timeoutMs: 60_000 },
    );
    for (const file of copied.files.slice(1)) expect(file).toMatchObject({ storedPercent: 100, error: null });
    expect(copied.files[0]).toMatchObject({ status: 'uploading', storedPercent: 0 });
    expect(copied.status).toBe('uploading');
    expect(smtp.inbox.some((m) => m.to.includes('rita@linked.test'))).toBe(false);

    // The browser's file goes through its own upload; the last file in sends the transfer.
    const client = storageClient(server.url, alice);
    const base = `/api/transfers/${transfer.id}/files/${transfer.files[0]!.id}`;
    const ticket = await client.api<TransferUploadTicket>(`${base}/upload`, { method: 'POST' });
    await uploadFile({
      api: client.api,
      ticket,
      file: new Blob([notes]),
      complete: (signal) => client.api<Version>(`${base}/complete`, { method: 'POST', signal }),
    });
    expect((await detail(alice, transfer.id)).status).toBe('available');
    const mail = await waitFor(() => smtp.inbox.find((m) => m.to.includes('rita@linked.test')), { what: 'the mail' });
    const raw = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = /\/public\/share\?transferId=([A-Za-z0-9_-]+)/.exec(raw)![1]!;

    const access = await call(server.url, `/api/public/transfers/${token}/access`, { method: 'POST', body: {} });
    expect(access.status).toBe(200);
    const g = encodeURIComponent(access.body.grant as string);
    const content = await waitFor(
      async () => {
        const c = (await call(server.url, `/api/public/transfers/${token}/content?g=${g}`))
          .body as unknown as PublicTransferContent;
        return c.files.every((f) => f.sha256) ? c : null;
      },
      { what: 'the checksums' },
    );
    const download = async (fileName: string) => {
      const file = content.files.find((f) => f.fileName === fileName)!;
      const response = await fetch(`${server.url}${file.downloadUrl}`);
      expect(response.status).toBe(200);
      return { file, bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const linked = await download('final.wav');
    expect(sha(linked.bytes)).toBe(sha(source));
    expect(linked.file.sha256).toBe(sha(source));
    expect(sha((await download('rough.mp3')).bytes)).toBe(sha(fromBucket));
    const browser = await download('notes.txt');
    expect(browser.bytes.equals(notes)).toBe(true);
  }, 120_000);
});

describe('refusals', () => {
  it('refuses a folder, a file gone since the listing, another user’s account and a transfer over the plan, writing nothing', async () => {
    mkdirSync(join(dav.directory, 'Stems'), { recursive: true });
    writeFileSync(join(dav.directory, 'Stems', 'gone.wav'), Buffer.alloc(2048, 1));
    const listed = await call(server.url, `/api/connectors/${davId}/files?path=/Stems`, { token: alice });
    expect((listed.body.entries as { name: string }[]).map((e) => e.name)).toContain('gone.wav');
    rmSync(join(dav.directory, 'Stems', 'gone.wav'));

    const attempt = (token: string, name: string, linked: unknown[]) =>
      call(server.url, '/api/transfers', { method: 'POST', token, body: form(name, { linked }) });

    const folder = await attempt(alice, 'Refused folder', [{ connectorId: davId, path: '/Stems' }]);
    expect(folder).toMatchObject({
      status: 400,
      body: { error: { code: 'NOT_A_FILE', message: DRIVE_MESSAGES.notAFile } },
    });

    const gone = await attempt(alice, 'Refused gone', [{ connectorId: davId, path: '/Stems/gone.wav' }]);
    expect(gone).toMatchObject({
      status: 404,
      body: { error: { code: 'DRIVE_NOT_FOUND', message: DRIVE_MESSAGES.notFound } },
    });

    // Bob names Alice's account: the same 404 as an account that does not exist.
    const stranger = await attempt(bob, 'Refused stranger', [{ connectorId: davId, path: '/Mixes/final.wav' }]);
    const none = await attempt(bob, 'Refused none', [
      { connectorId: '00000000-0000-4000-8000-000000000000', path: '/Mixes/final.wav' },
    ]);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual(none.body);
    expect(stranger.body.error?.message).toBe('No such linked account.');

    // 20 GB as the provider lists it: over the free plan's transfer size, refused before a byte moves.
    const big = await attempt(bob, 'Refused big', [{ connectorId: brokenId, path: '/big.wav' }]);
    expect(big).toMatchObject({
      status: 413,
      body: { error: { code: 'TRANSFER_TOO_LARGE', message: TRANSFER_MESSAGES.tooLarge(formatTransferSize(15 * GB)) } },
    });

    const malformed = await attempt(alice, 'Refused malformed', [{ connectorId: 'not-an-id', path: '/x.wav' }]);
    expect(malformed.status).toBe(400);
    // The form's own checks still answer first, before any provider is asked.
    const unnamed = await attempt(alice, '', [{ connectorId: davId, path: '/Stems' }]);
    expect(unnamed.body.error?.message).toBe(TRANSFER_MESSAGES.noName);

    for (const name of ['Refused folder', 'Refused gone', 'Refused stranger', 'Refused none', 'Refused big'])
      expect(await rowsNamed(name)).toEqual([]);
  }, 60_000);

  it('marks the transfer failed when the provider sends another size than it listed, and keeps no half-written file', async () => {
    // The lying server lists short.wav at 1,000 bytes and sends 900.
    const created = await call(server.url, '/api/transfers', {
      method: 'POST',
      token: bob,
      body: form('Broken copy', {
        files: [{ path: '', fileName: 'notes.txt', size: 10 }],
        linked: [{ connectorId: brokenId, path: '/short.wav' }],
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const transfer = (created.body as { transfer: TransferDetail }).transfer;
    const failed = await waitFor(
      async () => {
        const now = await detail(bob, transfer.id);
        return now.status === 'failed' ? now : null;
      },
      { what: 'the copy to fail', timeoutMs: 60_000 },
    );
    expect(failed.failure).toBe(`short.wav: ${LINKED_COPY_MESSAGES.changed}`);
    expect(failed.files[1]).toMatchObject({ status: 'uploading', error: LINKED_COPY_MESSAGES.changed });
    const file = failed.files[1]!;
    // The browser's file of a failed transfer is refused with the reason it will not go.
    const ticket = await call(server.url, `/api/transfers/${transfer.id}/files/${failed.files[0]!.id}/upload`, {
      method: 'POST',
      token: bob,
    });
    expect(ticket).toMatchObject({ status: 409, body: { error: { code: 'TRANSFER_FAILED' } } });
    expect(await server.context.blobs.head(`projects/${file.id}/${file.versionId}/original.wav`)).toBeNull();
    expect(readdirSync(s3.directory, { recursive: true, encoding: 'utf8' }).filter((f) => f.includes(file.id))).toEqual(
      [],
    );
    // The history shows it with its reason; its link answers nothing.
    const history = (await call(server.url, '/api/transfers', { token: bob })).body.items as TransferSummary[];
    expect(history.find((t) => t.id === transfer.id)).toMatchObject({
      status: 'failed',
      failure: failed.failure,
      capabilities: { canCopy: false, canDelete: true },
    });
    const token = new URL(failed.link).searchParams.get('transferId')!;
    expect((await call(server.url, `/api/public/transfers/${token}`)).status).toBeGreaterThanOrEqual(404);
    // The owner deletes it like any other.
    expect((await call(server.url, `/api/transfers/${transfer.id}`, { method: 'DELETE', token: bob })).status).toBe(
      204,
    );
    expect(await rowsNamed('Broken copy')).toEqual([]);
  }, 90_000);
});
