import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, type AppConfig } from '../../src/config/config';
import type { Clock } from '../../src/platform/clock/clock';
import { killRunningTools } from '../../src/platform/media/tool-processes';
import { startMixroom, type RunningMixroom } from '../../src/server';
import { seedEmbeddedDatabase } from './embedded-database-template';
import { freePort } from './free-port';

export interface TestServer extends RunningMixroom {
  dataDir: string;
  close(): Promise<void>;
}

/** A fresh PostgreSQL database for one test file, dropped again by the returned cleanup. */
export async function createTestDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `mixroom_test_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

let open = 0;

/**
 * Starts a real Mixroom (HTTP, database, OIDC, jobs, realtime) on a free port with a temporary data
 * directory. `env` overrides any setting, exactly as the environment would.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: {
    keepDataDir?: string;
    clock?: Clock;
    logger?: pino.Logger;
    /** Info and above into this file (for a journey to keep beside its failure screenshots). */
    logFile?: string;
  } = {},
): Promise<TestServer> {
  const dataDir = options.keepDataDir ?? mkdtempSync(join(tmpdir(), 'mixroom-test-'));
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const config: AppConfig = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...env,
  });
  if (!config.database.url) await seedEmbeddedDatabase(dataDir);
  open++;
  const running = await startMixroom(
    config,
    options.logger ??
      (options.logFile
        ? pino({ level: 'info' }, pino.destination({ dest: options.logFile, sync: false }))
        : pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' })),
    options.clock ? { clock: options.clock } : {},
  );
  return {
    ...running,
    dataDir,
    close: async () => {
      await running.stop();
      // A test file's worker is ended by a signal, which its ffmpeg children outlive: once this
      // process serves no Mixroom any more, the media tools still running are ended here.
      if (--open === 0) killRunningTools();
      if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
