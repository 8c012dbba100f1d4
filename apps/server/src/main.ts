import { ConfigError, loadConfig } from './config/config';
import { DataDirLockedError } from './db/data-dir-lock';
import { createLogger, startMixroom } from './server';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  let mixroom;
  try {
    mixroom = await startMixroom(config, log);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(75); // EX_TEMPFAIL
    }
    throw error;
  }
  log.info(
    {
      url: config.publicUrl,
      database: mixroom.context.database.kind,
      storage: mixroom.context.blobs.driver,
      identity: config.identity.mode,
      mail: mixroom.context.mailer.mode,
    },
    `Mixroom is running on ${config.publicUrl}`,
  );

  const shutdown = (signal: string) => {
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error('shutdown timed out, exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    mixroom.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
