import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreditsResponse, Task } from '@mixroom/contracts';
import { call } from './helpers/api';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startTestServer, type TestServer } from './helpers/test-server';
import { shortMix, toolsClient } from './helpers/tools';

/**
 * A stage that dies after its processor ran and its outputs were stored, before the transaction
 * that completes it: the fault point `tools.stage.before-commit` "exits" the process. Here exiting
 * throws instead (process.exit is stubbed), so the job's attempt fails exactly where a crash would
 * cut it and pg-boss retries it, as it retries a crashed node's job. A real worker process killed
 * mid-stage is tools-worker-kill.postgres.test.ts.
 */
const POINT = 'tools.stage.before-commit';
let server: TestServer;
let token: string;
let crashes: 'always' | 'once' | 'never' = 'never';
let exitSpy: { mockRestore(): void } | undefined;
const dir = mkdtempSync(join(tmpdir(), 'mixroom-tools-faults-'));
const song = shortMix(join(dir, 'short.wav'), 1);

beforeAll(async () => {
  // Stubbed for this file only (the server project shares its workers' globals): restored after.
  exitSpy = vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
    if (crashes === 'never') return undefined as never;
    if (crashes === 'once') crashes = 'never';
    throw new Error(`The worker stopped (exit ${code ?? 0}).`);
  }) as typeof process.exit);
  // The fault point is read when the core is built: set only while this file's server starts.
  process.env.MIXROOM_FAULT_INJECTION = POINT;
  try {
    server = await startTestServer();
  } finally {
    delete process.env.MIXROOM_FAULT_INJECTION;
  }
  token = (await signInThroughOidc(server.url, { email: 'faults@tools.test', password: 'faults-password-long' }))
    .access_token;
}, 120_000);
afterAll(async () => {
  await server?.close();
  exitSpy?.mockRestore();
  rmSync(dir, { recursive: true, force: true });
});

const spendsOf = async (taskId: string) =>
  ((await call(server.url, '/api/credits', { token })).body as unknown as CreditsResponse).entries.filter(
    (e) => e.ref === `task:${taskId}`,
  );

async function startStems(): Promise<Task> {
  const tools = toolsClient(server.url, token);
  const uploadId = await tools.upload(song);
  return tools.api<Task>('/api/tools/tasks', {
    method: 'POST',
    body: { tool: 'stems', mode: 'TWOSTEMS', input: { uploadId } },
  });
}

describe('a stage that fails', () => {
  it('fails the task on its last attempt, with the reason, and takes no credits', async () => {
    crashes = 'always';
    const tools = toolsClient(server.url, token);
    const task = await tools.settled((await startStems()).id, 240_000);
    expect(task.status).toBe('FAILED');
    expect(task.sessions[0]).toMatchObject({ status: 'FAILED', message: 'The worker stopped (exit 70).' });
    expect(task.creditsCharged).toBe(0);
    expect(await spendsOf(task.id)).toHaveLength(0);
    // A failed task does not block the next one.
    expect((await tools.api<{ busy: boolean }>('/api/tools')).busy).toBe(false);
  }, 300_000);

  it('resumes after a crash mid-stage: the retry completes the task and charges it once', async () => {
    crashes = 'once';
    const tools = toolsClient(server.url, token);
    const task = await tools.settled((await startStems()).id, 240_000);
    expect(crashes).toBe('never');
    expect(task.status).toBe('COMPLETED');
    expect(task.creditsCharged).toBe(5);
    expect(task.outputs.map((o) => o.fileName).sort()).toEqual(['short_no_vocals.m4a', 'short_vocals.m4a']);
    const spends = await spendsOf(task.id);
    expect(spends).toHaveLength(1);
    expect(spends[0]!.amount).toBe(-5);
  }, 300_000);
});
