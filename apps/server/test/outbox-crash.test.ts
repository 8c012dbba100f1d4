import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeAudio } from './helpers/audio';
import { seedEmbeddedDatabase } from './helpers/embedded-database-template';
import { freePort } from './helpers/free-port';
import { signInThroughOidc } from './helpers/oidc-flow';
import { spawnServer, type Spawned } from './helpers/spawn-server';
import { storageClient } from './helpers/storage-client';
import { waitFor } from './helpers/wait-for';

/**
 * A version's processing job is recorded in the same transaction that marks it processing, and
 * dispatched after commit. Here the process dies right between the two (a fault point makes it exit
 * as a kill -9 would); after a restart on the same data, the job still runs.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-crash-'));
let running: Spawned | null = null;
afterAll(async () => {
  running?.child.kill('SIGKILL');
  await running?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(port: number, env: Record<string, string> = {}): Promise<{ run: Spawned; url: string }> {
  const url = `http://localhost:${port}`;
  await seedEmbeddedDatabase(dataDir);
  const run = spawnServer({
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: url,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...env,
  });
  running = run;
  await waitFor(async () => (await fetch(`${url}/api/health`).catch(() => null))?.ok, {
    timeoutMs: 90_000,
    what: 'the server',
  });
  return { run, url };
}

describe('a crash between a version’s write and its job', () => {
  it('loses nothing: after the restart the version is processed', async () => {
    const port = await freePort();
    const first = await start(port, { MIXROOM_FAULT_INJECTION: 'version-complete:after-commit' });
    const token = (await signInThroughOidc(first.url, { email: 'crash@outbox.test', password: 'crash-password-long' }))
      .access_token;
    const client = storageClient(first.url, token);
    const uploading = client.upload(makeAudio('Survivor.wav', { seconds: 2 }), null);
    await expect(uploading).rejects.toThrow();
    expect(await first.run.exited).toBe(70);
    expect(first.run.output()).toContain('fault injection: exiting at version-complete:after-commit');

    const second = await start(port);
    const again = storageClient(second.url, token);
    const root = await again.list(null);
    const tile = root.items.find((i) => i.name === 'Survivor');
    expect(tile).toBeDefined();
    await waitFor(async () => (await again.project(tile!.id)).versions[0]?.status === 'ready', {
      timeoutMs: 60_000,
      what: 'the job after the restart',
    });
    second.run.child.kill('SIGTERM');
    await second.run.exited;
    running = null;
  }, 240_000);
});

describe('a crash halfway through an account’s erasure', () => {
  it('resumes after the restart: the files went before the crash, the account goes after', async () => {
    const port = await freePort();
    const first = await start(port, { MIXROOM_FAULT_INJECTION: 'account.erase.after-blobs' });
    const account = { email: 'erase@outbox.test', password: 'erase-password-long' };
    const token = (await signInThroughOidc(first.url, account)).access_token;
    const client = storageClient(first.url, token);
    const { ticket } = await client.upload(makeAudio('Erased.wav', { seconds: 1 }), null);
    const files = join(dataDir, 'blobs', 'objects', 'projects', ticket.project.id);
    await waitFor(() => existsSync(files), { what: 'the stored file' });
    await client.api('/api/me/deletion', { method: 'POST', body: { email: account.email } });
    expect(await first.run.exited).toBe(70);
    expect(existsSync(files)).toBe(false);

    // The farewell mail is recorded in the transaction that deletes the account's row.
    const farewell = () =>
      readdirSync(join(dataDir, 'outbox'))
        .map((file) => readFileSync(join(dataDir, 'outbox', file), 'utf8'))
        .some((mail) => mail.includes('Your Mixroom account was deleted') && mail.includes(account.email));
    expect(existsSync(join(dataDir, 'outbox')) && farewell()).toBe(false);
    const second = await start(port);
    await waitFor(farewell, { timeoutMs: 60_000, what: 'the erasure resumed after the restart' });
    // The address is free again: the account's row is gone.
    expect((await signInThroughOidc(second.url, account)).access_token).toBeTruthy();
    second.run.child.kill('SIGTERM');
    await second.run.exited;
    running = null;
  }, 240_000);
});
