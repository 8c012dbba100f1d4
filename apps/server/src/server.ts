import pino, { type Logger } from 'pino';
import type { AppConfig } from './config/config';
import { createHttpApp, type HttpApp } from './app';
import { createContext, type AppContext } from './context';
import type { Clock } from './platform/clock/clock';

export interface RunningMixroom extends HttpApp {
  context: AppContext;
  url: string;
  /** Graceful: stop accepting, let in-flight requests finish, stop workers, close the database. */
  stop(): Promise<void>;
}

export function createLogger(level: string): Logger {
  const pretty = process.stdout.isTTY && !process.env.CI;
  return pino({
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
      : {}),
  });
}

/** `clock` is a seam for tests that move time (token lifetimes, sign-in limits). */
export async function startMixroom(
  config: AppConfig,
  log: Logger = createLogger(config.logLevel),
  options: { clock?: Clock } = {},
): Promise<RunningMixroom> {
  const context = await createContext(config, log, options);
  let http: HttpApp;
  try {
    http = await createHttpApp(context);
    await context.jobs.start(context.parts.knownJobs, { work: (name) => context.parts.workedJobs.has(name) });
    // Any node dispatches what was recorded after a write (also what a crashed node left).
    context.outbox.start();
    // Modules take up work a stopped node left half done (e.g. an account's erasure).
    for (const start of context.parts.starts) await start();
    await http.app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await context.dispose();
    throw error;
  }
  const address = http.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  let stopping: Promise<void> | null = null;
  return {
    ...http,
    context,
    url: `http://localhost:${port}`,
    stop: () => {
      stopping ??= (async () => {
        await http.app.close();
        for (const stop of context.parts.stops) await stop();
        await context.dispose();
      })();
      return stopping;
    },
  };
}
