import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UploadTicket } from '@mixroom/contracts';
import { uploadFile } from '../../web/src/features/uploads/upload-engine';
import { seedEmbeddedDatabase } from './helpers/embedded-database-template';
import { freePort } from './helpers/free-port';
import { signInThroughOidc } from './helpers/oidc-flow';
import { SPAWNED_TIMEOUT_MS, spawnServer, type Spawned } from './helpers/spawn-server';
import { storageClient } from './helpers/storage-client';
import { waitFor } from './helpers/wait-for';

const SIZE = 200 * 1024 * 1024;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe('an upload interrupted by the server dying', { timeout: SPAWNED_TIMEOUT_MS }, () => {
  it('resumes after a restart from the stored parts, and the stored file is identical', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-resume-'));
    const work = mkdtempSync(join(tmpdir(), 'mixroom-resume-src-'));
    dirs.push(dataDir, work);
    await seedEmbeddedDatabase(dataDir);
    const source = join(work, 'session-bounce.bin');
    for (let i = 0; i < SIZE / (16 * 1024 * 1024); i++)
      writeFileSync(source, randomBytes(16 * 1024 * 1024), { flag: i === 0 ? 'w' : 'a' });

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = { DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' };
    const start = async (): Promise<Spawned> => {
      const spawned = spawnServer(env);
      await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok, {
        timeoutMs: 60_000,
        what: 'server start',
      });
      return spawned;
    };

    let server = await start();
    const token = (await signInThroughOidc(base, { email: 'long@upload.test', password: 'long-upload-tango-5' }))
      .access_token;
    const client = storageClient(base, token);
    const file = await openAsBlob(source);
    const ticket = await client.api<UploadTicket>('/api/projects/upload', {
      method: 'POST',
      body: { groupId: null, fileName: 'session-bounce.bin', size: file.size },
    });

    // First attempt: the server is killed (no graceful shutdown) once about 40 % is stored.
    let killed = false;
    const first = uploadFile({
      api: client.api,
      ticket,
      file,
      concurrency: 3,
      onProgress: ({ sentBytes }) => {
        if (!killed && sentBytes > SIZE * 0.4) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      },
    });
    await expect(first).rejects.toThrow();
    await server.exited;

    server = await start();
    const session = await client.api<{ parts: { partNumber: number }[]; partCount: number }>(
      `/api/uploads/${ticket.upload.id}`,
    );
    expect(session.parts.length).toBeGreaterThan(0);
    expect(session.parts.length).toBeLessThan(session.partCount);

    let resentBytes = 0;
    let startedAt: number | null = null;
    await uploadFile({
      api: client.api,
      ticket,
      file,
      onProgress: ({ sentBytes }) => {
        startedAt ??= sentBytes;
        resentBytes = sentBytes - startedAt;
      },
    });
    // Only the missing parts travelled again.
    expect(resentBytes).toBeLessThan(SIZE);

    const stored = join(dataDir, 'blobs', 'objects', 'projects', ticket.project.id, ticket.version.id, 'original.bin');
    expect(await sha256File(stored)).toBe(await sha256File(source));
    server.child.kill('SIGTERM');
    await server.exited;
  });
});
