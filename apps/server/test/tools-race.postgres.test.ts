import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreditsResponse, Task } from '@mixroom/contracts';
import { call } from './helpers/api';
import { signInThroughOidc } from './helpers/oidc-flow';
import { createTestDatabase, startTestServer, type TestServer } from './helpers/test-server';
import { shortMix, toolsClient } from './helpers/tools';

/**
 * On PostgreSQL requests truly run side by side on a pool (PGlite has one connection, so a race
 * there proves little): starts sent at once still make one task, under the per-user lock, and it is
 * charged once. Runs where TEST_DATABASE_URL is set (the test script leaves *.postgres.test.ts
 * out otherwise).
 */
const adminUrl = process.env.TEST_DATABASE_URL ?? '';
let server: TestServer | undefined;
let drop: (() => Promise<void>) | undefined;
let token: string;
const dir = mkdtempSync(join(tmpdir(), 'mixroom-tools-race-'));

beforeAll(async () => {
  const created = await createTestDatabase(adminUrl);
  drop = created.drop;
  server = await startTestServer({ DATABASE_URL: created.url });
  token = (await signInThroughOidc(server.url, { email: 'race@tools.test', password: 'race-password-long' }))
    .access_token;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await drop?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('racing task starts on PostgreSQL', () => {
  it('make one task, charged once', async () => {
    const tools = toolsClient(server!.url, token);
    const { version } = await tools.storage.upload(shortMix(join(dir, 'race.wav'), 2), null);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        tools.raw('/api/tools/tasks', {
          method: 'POST',
          body: { tool: 'stems', mode: 'TWOSTEMS', input: { versionId: version.id } },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    const task = await tools.settled((answers.find((a) => a.status === 201)!.body as unknown as Task).id);
    expect(task.status).toBe('COMPLETED');
    const ledger = (await call(server!.url, '/api/credits', { token })).body as unknown as CreditsResponse;
    expect(ledger.entries.filter((e) => e.kind === 'spend')).toHaveLength(1);
    expect((await tools.api<{ items: Task[] }>('/api/tools/tasks')).items).toHaveLength(1);
  }, 60_000);
});
