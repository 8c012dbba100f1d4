import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config';
import { freePort } from './helpers/free-port';
import { SPAWNED_TIMEOUT_MS, spawnServer } from './helpers/spawn-server';
import { startTestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-start-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('configuration', { timeout: SPAWNED_TIMEOUT_MS }, () => {
  it('needs nothing for the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      publicUrl: 'http://localhost:8080',
      database: { url: null },
      blob: { driver: 'disk' },
      identity: { mode: 'embedded' },
    });
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('names each bad variable and its value', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('PORT must be a number (got "eighty")');
    expect(message).toContain('DATABASE_URL must be a postgres:// URL (got "mysql://x")');
    expect(() => loadConfig({ BLOB_DRIVER: 's3' })).toThrow(/S3_BUCKET is required when BLOB_DRIVER=s3/);
  });

  it('switches to an external issuer only with both OIDC_ISSUER and OIDC_CLIENT_ID', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com/realms/studio' })).toThrow(
      /OIDC_ISSUER and OIDC_CLIENT_ID go together/,
    );
    expect(
      loadConfig({ OIDC_ISSUER: 'https://id.example.com/realms/studio/', OIDC_CLIENT_ID: 'mixroom' }).identity,
    ).toEqual({
      mode: 'external',
      issuer: 'https://id.example.com/realms/studio',
      clientId: 'mixroom',
      audience: 'mixroom',
    });
  });

  it('stops the start of a real process with a clear message and a non-zero exit', async () => {
    const run = spawnServer({ DATA_DIR: tempDir(), PORT: '99999', MIXROOM_ROLES: 'api,cook' });
    expect(await run.exited).toBe(78);
    expect(run.output()).toContain('Mixroom cannot start, the configuration is invalid');
    expect(run.output()).toContain('PORT');
    expect(run.output()).toContain('roles are api, worker and sfu');
  });
});

describe('the embedded data directory', { timeout: SPAWNED_TIMEOUT_MS }, () => {
  it('refuses a second process on the same PGlite directory', async () => {
    const dataDir = tempDir();
    const first = await startTestServer({}, { keepDataDir: dataDir });
    try {
      const second = spawnServer({ DATA_DIR: dataDir, PORT: String(await freePort()) });
      expect(await second.exited).toBe(75);
      expect(second.output()).toContain(
        `Another Mixroom process (pid ${process.pid}) is using the data directory ${dataDir}`,
      );
      expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    } finally {
      await first.close();
    }
  });

  it('takes over a lock left by a process that died, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const crashed = spawnServer({ DATA_DIR: dataDir, PORT: String(port) });
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok, {
      timeoutMs: 80_000,
      what: 'first start',
    });
    crashed.child.kill('SIGKILL');
    await crashed.exited;

    const next = spawnServer({ DATA_DIR: dataDir, PORT: String(port) });
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok, {
      timeoutMs: 80_000,
      what: 'restart after a crash',
    });
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
    expect(next.output()).toContain('shutting down');
  });
});
