import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreditsResponse, Task } from '@mixroom/contracts';
import { call } from './helpers/api';
import { freePort } from './helpers/free-port';
import { signInThroughOidc } from './helpers/oidc-flow';
import { SPAWNED_TIMEOUT_MS, spawnServer, type Spawned } from './helpers/spawn-server';
import { createTestDatabase, startTestServer, type TestServer } from './helpers/test-server';
import { shortMix, toolsClient } from './helpers/tools';
import { waitFor } from './helpers/wait-for';

/**
 * A worker node killed (SIGKILL, a real separate process) while a stage of a task runs, on
 * PostgreSQL as deployed: an API node (this process) and worker nodes (`MIXROOM_ROLES=worker`)
 * sharing one database and one data directory (the blobs' volume). The next worker takes the stage
 * up again from its start (at once: the dead process's work folder names it), the task completes,
 * and the credits ledger holds exactly one charge for it. Runs where TEST_DATABASE_URL is set (the
 * test script leaves *.postgres.test.ts out otherwise).
 */
const adminUrl = process.env.TEST_DATABASE_URL ?? '';
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let api: TestServer;
let token: string;
let workerEnv: Record<string, string>;
const workers: Spawned[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-tools-kill-'));
// Long enough to be caught mid-separation on any machine, short enough to separate twice.
const song = shortMix(join(dataDir, 'take.wav'), 30);

async function startWorker(): Promise<Spawned> {
  const worker = spawnServer(workerEnv);
  workers.push(worker);
  await waitFor(async () => (await fetch(`http://127.0.0.1:${workerEnv.PORT}/api/health`).catch(() => null))?.ok, {
    timeoutMs: 120_000,
    what: `the worker to start; it said:\n${worker.output().slice(-2000)}`,
  });
  return worker;
}

beforeAll(async () => {
  database = await createTestDatabase(adminUrl);
  const apiPort = await freePort();
  // Nodes of one installation share PUBLIC_URL (a load balancer would sit in front) and storage.
  const shared = { DATABASE_URL: database.url, PUBLIC_URL: `http://localhost:${apiPort}`, DATA_DIR: dataDir };
  api = await startTestServer({ ...shared, PORT: String(apiPort), MIXROOM_ROLES: 'api' }, { keepDataDir: dataDir });
  workerEnv = { ...shared, PORT: String(await freePort()), MIXROOM_ROLES: 'worker', LOG_LEVEL: 'warn' };
  token = (await signInThroughOidc(api.url, { email: 'kill@tools.test', password: 'killed-worker-password' }))
    .access_token;
}, SPAWNED_TIMEOUT_MS);

afterAll(async () => {
  // A failed test must not leave a worker running.
  for (const worker of workers)
    if (worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
  await api?.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const ledgerOf = async () =>
  ((await call(api.url, '/api/credits', { token })).body as unknown as CreditsResponse).entries;

describe('a worker killed mid-stage', { timeout: 4 * SPAWNED_TIMEOUT_MS }, () => {
  it('is replaced by the next worker, which completes the task and charges it once', async () => {
    const tools = toolsClient(api.url, token);
    const before = (await tools.api<{ credits: { remaining: number } }>('/api/tools')).credits.remaining;
    let worker = await startWorker();
    const uploadId = await tools.upload(song);
    const created = await tools.api<Task>('/api/tools/tasks', {
      method: 'POST',
      body: { tool: 'stems', mode: 'TWOSTEMS', input: { uploadId } },
    });

    // The separation is under way in the worker: its session runs and has made progress.
    const running = await waitFor(
      async () => {
        const task = await tools.task(created.id);
        const session = task.sessions[0]!;
        return session.status === 'RUNNING' && session.progress >= 1 && session.progress < 90 ? task : null;
      },
      { timeoutMs: 120_000, intervalMs: 50, what: 'the separation to run in the worker' },
    );
    expect(running.status).toBe('RUNNING');
    worker.child.kill('SIGKILL');
    expect(await worker.exited).toBeNull();
    expect(worker.child.signalCode).toBe('SIGKILL');
    // Its work folder stays behind in the shared temp space, naming the stage it was running.
    const left = readdirSync(join(dataDir, 'tmp')).flatMap((owner) => readdirSync(join(dataDir, 'tmp', owner)));
    expect(left.some((name) => name.startsWith(`tool-${running.sessions[0]!.id}-`))).toBe(true);

    // Nothing completed it and nothing was charged meanwhile.
    const meanwhile = await tools.task(created.id);
    expect(meanwhile.sessions[0]!.status).toBe('RUNNING');
    expect((await ledgerOf()).filter((e) => e.ref === `task:${created.id}`)).toEqual([]);

    worker = await startWorker();
    const done = await tools.settled(created.id, 3 * 60_000);
    expect(worker.output()).toContain('tool stage interrupted by a restart: retried now');
    expect(done.status, done.sessions[0]!.message ?? '').toBe('COMPLETED');
    expect(done.creditsCharged).toBe(5);
    expect(done.outputs.map((o) => o.fileName).sort()).toEqual(['take_no_vocals.m4a', 'take_vocals.m4a']);
    expect(done.outputs.every((o) => (o.durationSeconds ?? 0) > 29)).toBe(true);

    // The ledger: one charge of 5 for the task, and the balance down by exactly that.
    const charges = (await ledgerOf()).filter((e) => e.ref === `task:${created.id}`);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ kind: 'spend', amount: -5 });
    expect((await tools.api<{ credits: { remaining: number } }>('/api/tools')).credits.remaining).toBe(before - 5);

    // The results are there for the API node to hand out.
    const { files } = await tools.api<{ files: { url: string }[] }>(`/api/tools/tasks/${created.id}/downloads`);
    for (const file of files) expect((await fetch(file.url)).status).toBe(200);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });
});
