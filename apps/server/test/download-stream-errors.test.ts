import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferUploadTicket } from '@mixroom/contracts';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { seedEmbeddedDatabase } from './helpers/embedded-database-template';
import { freePort } from './helpers/free-port';
import { signInThroughOidc } from './helpers/oidc-flow';
import { SPAWNED_TIMEOUT_MS, spawnServer, type Spawned } from './helpers/spawn-server';
import { storageClient } from './helpers/storage-client';
import { sendTransfer, transferForm } from './helpers/transfers';
import { waitFor } from './helpers/wait-for';

/**
 * One message must never take Mixroom down: a file whose recorded size promises more bytes than the
 * store holds is refused at upload, and a stream that fails anyway (a blob cut short on disk) ends
 * its own response while the process goes on answering. Run as a separate process, as in production,
 * so an unheard stream error would show as the server dying.
 */
const SIZE = 50_000;
let server: Spawned;
let base: string;
let dataDir: string;
let token: string;
let owner: ReturnType<typeof storageClient>;

const blobOf = (versionId: string): string => {
  const root = join(dataDir, 'blobs', 'objects');
  const found = readdirSync(root, { recursive: true, encoding: 'utf8' }).find((p) =>
    p.includes(`${versionId}/original`),
  );
  if (!found) throw new Error(`no blob for version ${versionId}`);
  return join(root, found);
};

/** Reads a response to its end; answers how many bytes came before it ended or failed. */
async function drain(url: string): Promise<{ status: number; declared: number; received: number }> {
  const response = await fetch(url);
  let received = 0;
  try {
    for await (const chunk of response.body ?? []) received += (chunk as Uint8Array).length;
  } catch {
    // The server ended the response early: what this test expects of a broken file.
  }
  return { status: response.status, declared: Number(response.headers.get('content-length')), received };
}

const stillServing = async () => {
  expect((await fetch(`${base}/api/health`)).status).toBe(200);
  expect(server.child.exitCode).toBeNull();
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mixroom-stream-errors-'));
  await seedEmbeddedDatabase(dataDir);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawnServer({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' });
  await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok, {
    timeoutMs: SPAWNED_TIMEOUT_MS,
    what: 'server start',
  });
  token = (await signInThroughOidc(base, { email: 'sam@streams.test', password: 'sam-password-long' })).access_token;
  owner = storageClient(base, token);
}, SPAWNED_TIMEOUT_MS);
afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a file the store cannot deliver as recorded', { timeout: SPAWNED_TIMEOUT_MS }, () => {
  it('is refused when an anonymous uploader records more bytes than it sent', async () => {
    const request = await owner.api<{ link: string }>('/api/file-requests', {
      method: 'POST',
      body: { message: 'Send the bounce', maxBytes: null },
    });
    const t = new URL(request.link).searchParams.get('requestId')!;
    const started = (
      await call(base, `/api/public/file-requests/${t}/transfers`, {
        method: 'POST',
        body: { name: 'Mal', email: '', message: '', files: [{ path: '', fileName: 'short.bin', size: SIZE }] },
      })
    ).body as unknown as { transferId: string; files: { id: string }[]; uploadGrant: string };
    const u = encodeURIComponent(started.uploadGrant);
    const file = `/api/public/file-requests/${t}/transfers/${started.transferId}/files/${started.files[0]!.id}`;
    const ticket = (await call(base, `${file}/upload?u=${u}`, { method: 'POST' }))
      .body as unknown as TransferUploadTicket;
    const part = `/api/public/uploads/${ticket.upload.id}/parts/1`;
    const { url } = (await call(base, `${part}/url?u=${u}`, { method: 'POST' })).body as { url: string };
    const put = await fetch(url, { method: 'PUT', body: Buffer.alloc(100, 1) });
    expect(put.status).toBe(200);
    const etag = put.headers.get('etag')!;
    const lie = await call(base, `${part}?u=${u}`, { method: 'PUT', body: { etag, size: SIZE } });
    expect([lie.status, lie.body.error?.code]).toEqual([409, 'PART_SIZE_MISMATCH']);
    expect((await call(base, `${file}/complete?u=${u}`, { method: 'POST' })).status).toBe(409);

    // Sent whole, the same part is recorded and the file completes.
    const whole = await fetch(url, { method: 'PUT', body: Buffer.alloc(SIZE, 2) });
    const recorded = await call(base, `${part}?u=${u}`, {
      method: 'PUT',
      body: { etag: whole.headers.get('etag'), size: SIZE },
    });
    expect(recorded.status).toBe(204);
    expect((await call(base, `${file}/complete?u=${u}`, { method: 'POST' })).status).toBe(200);

    // A PUT to the part URL, still signed, after the upload completed: refused with a reason, not a 500.
    const late = await fetch(url, { method: 'PUT', body: Buffer.alloc(SIZE, 3) });
    expect(late.status).toBe(410);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe('UPLOAD_CLOSED');
    await stillServing();
  });

  it("ends the recipient's ZIP and single download early when the stored file was cut short, and goes on serving", async () => {
    const path = makeAudio('cut-short.wav', { seconds: 1 });
    const sent = await sendTransfer(
      base,
      token,
      transferForm({ name: 'Cut short', files: [{ path: '', fileName: 'cut-short.wav', size: statSync(path).size }] }),
      [path],
    );
    const link = new URL(sent.link).searchParams.get('transferId')!;
    const [file] = sent.files;
    truncateSync(blobOf(file!.versionId), 100);
    const { grant } = (await call(base, `/api/public/transfers/${link}/access`, { method: 'POST', body: {} })).body as {
      grant: string;
    };
    const g = encodeURIComponent(grant);

    const zip = await drain(`${base}/api/public/transfers/${link}/zip?g=${g}`);
    expect(zip.status).toBe(200);
    expect(zip.received).toBeLessThan(zip.declared);
    await stillServing();

    const single = await drain(`${base}/api/public/transfers/${link}/files/${file!.id}/download?g=${g}`);
    expect(single.received).toBeLessThan(single.declared);
    await stillServing();
  });

  it('ends a storage folder ZIP early the same way', async () => {
    const folder = await owner.createFolder('Bounces', null);
    const { version } = await owner.upload(makeAudio('stream-error.wav', { seconds: 1 }), folder.id);
    await waitFor(async () => (await owner.project(version.projectId)).versions[0]?.status === 'ready', {
      timeoutMs: 90_000,
      what: 'media processing',
    });
    truncateSync(blobOf(version.id), 100);
    const prepared = await owner.api<{ url: string }>('/api/downloads/zip', {
      method: 'POST',
      body: { items: [{ kind: 'group', id: folder.id }] },
    });
    const zip = await drain(`${base}${prepared.url}`);
    expect(zip.status).toBe(200);
    expect(zip.received).toBeLessThan(zip.declared);
    await stillServing();
  });

  it('fails a "download my data" archive whose file cannot be read, and goes on serving', async () => {
    const { version } = await owner.upload(makeAudio('export-error.wav', { seconds: 1 }), null);
    await waitFor(async () => (await owner.project(version.projectId)).versions[0]?.status === 'ready', {
      timeoutMs: 90_000,
      what: 'media processing',
    });
    // A directory where the file should be: the store opens it, and the read fails mid-archive.
    const blob = blobOf(version.id);
    rmSync(blob);
    mkdirSync(blob);
    const started = await call(base, '/api/me/exports', { method: 'POST', token });
    expect(started.status).toBe(202);
    let seen = 'nothing';
    await waitFor(
      async () => {
        const { exports } = (await call(base, '/api/me/exports', { token })).body as {
          exports: { id: string; status: string }[];
        };
        seen = exports.find((e) => e.id === started.body.id)?.status ?? 'no such export';
        return seen === 'failed';
      },
      { timeoutMs: 90_000, what: 'the export to fail' },
    ).catch((error: unknown) => {
      // Says whether the export hung or the server went away, with the server's last words.
      const state = `last status ${seen}, server exit code ${String(server.child.exitCode)}`;
      throw new Error(`${String(error)}; ${state}\n${server.output().slice(-3000)}`);
    });
    await stillServing();
  });
});
