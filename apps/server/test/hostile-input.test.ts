import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { NOTE_LIMITS } from '@mixroom/shared';
import { makeAudio } from './helpers/audio';
import { seedEmbeddedDatabase } from './helpers/embedded-database-template';
import { freePort } from './helpers/free-port';
import { signInThroughOidc } from './helpers/oidc-flow';
import { SPAWNED_TIMEOUT_MS, spawnServer, type Spawned } from './helpers/spawn-server';
import { storageClient } from './helpers/storage-client';
import { waitFor } from './helpers/wait-for';

/**
 * One message must never take Mixroom down: each case is sent to a real server process, which must
 * still answer afterwards (an in-process server would hide a crash inside the test runner).
 */
describe('one hostile message against a running server', { timeout: SPAWNED_TIMEOUT_MS }, () => {
  let server: Spawned;
  let base: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-hostile-'));

  const health = async () => {
    const started = performance.now();
    const response = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(30_000) });
    return { ok: response.ok, ms: performance.now() - started };
  };

  beforeAll(async () => {
    await seedEmbeddedDatabase(dataDir);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawnServer({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' });
    await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok, {
      timeoutMs: SPAWNED_TIMEOUT_MS - 30_000,
      what: 'server start',
    });
  }, SPAWNED_TIMEOUT_MS);

  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('closes a socket whose first message is over 64 KiB with 1009, and lives on', async () => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/realtime`);
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('x'.repeat(64 * 1024 + 1));
    expect(await closed).toBe(1009);

    expect((await health()).ok).toBe(true);
    expect(server.child.exitCode).toBeNull();
    // The realtime endpoint itself still works for the next client.
    const next = new WebSocket(`${base.replace(/^http/, 'ws')}/api/realtime`);
    const answer = new Promise<string>((resolve) => next.once('message', (data: Buffer) => resolve(data.toString())));
    await new Promise((resolve) => next.once('open', resolve));
    next.send(JSON.stringify({ type: 'ping' }));
    expect(JSON.parse(await answer)).toEqual({ type: 'pong' });
    next.close();
  });

  it('renders a note of one word as long as a note may be (200,000 characters) while /api/health keeps answering (the render never holds the event loop)', async () => {
    const { access_token: token } = await signInThroughOidc(base, { email: 'vic@hostile.test', password: 'pdf-probe' });
    const client = storageClient(base, token);
    const { ticket, version } = await client.upload(makeAudio('tone.wav', { seconds: 1 }), null);
    // Media processing done first: only the export runs while the probes are timed.
    await waitFor(
      async () => (await client.project(ticket.project.id)).versions.find((v) => v.id === version.id)?.progress === 100,
      { timeoutMs: 90_000, what: 'media processing' },
    );

    let finished = false;
    const started = performance.now();
    const exported = fetch(`${base}/api/versions/${version.id}/note/pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      // The longest note there may be: one word filling the whole limit but its paragraph tags.
      body: JSON.stringify({ html: `<p>${'x'.repeat(NOTE_LIMITS.htmlMax - '<p></p>'.length)}</p>` }),
    })
      .then(async (response) => ({ status: response.status, bytes: Buffer.from(await response.arrayBuffer()) }))
      .finally(() => (finished = true));

    // Back to back, for as long as the render runs: each answer is timed.
    const latencies: number[] = [];
    do {
      const probe = await health();
      expect(probe.ok).toBe(true);
      latencies.push(probe.ms);
    } while (!finished);
    const result = await exported;
    const renderMs = performance.now() - started;

    // A render on the event loop would hold a probe for about the whole render. Compared with the
    // render's own time, not with a fixed second: a busy machine slows both alike.
    expect(latencies.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...latencies)).toBeLessThan(renderMs / 2);
    expect(result.status).toBe(200);
    expect(result.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(server.child.exitCode).toBeNull();
  });
});
