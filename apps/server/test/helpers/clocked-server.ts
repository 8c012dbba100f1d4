import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config/config';
import { TestClock } from '../../src/platform/clock/clock';
import { startMixroom } from '../../src/server';
import { seedEmbeddedDatabase } from './embedded-database-template';
import { freePort } from './free-port';
import type { TestServer } from './test-server';

/** Like startTestServer, with a clock the test moves (token lifetimes, sign-in limits). */
export async function startClockedServer(env: Record<string, string> = {}): Promise<TestServer & { clock: TestClock }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-test-'));
  const clock = new TestClock();
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...env,
  });
  if (!config.database.url) await seedEmbeddedDatabase(dataDir);
  const running = await startMixroom(config, pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), { clock });
  return {
    ...running,
    clock,
    dataDir,
    close: async () => {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
