// The services the harness stands in for — S3 (s3rver), the database link the cut goes through, and
// the round-robin balancer — in a process of their own. In the harness's process they took most of
// its one event loop (every API request passes the balancer, every upload and the worker's reads
// pass s3rver, every database byte the link), so the users' own timings waited behind them.
// Started by `startServices`; it answers one message per request, over the IPC channel.
import { fork } from 'node:child_process';
import { startDatabaseLink, type DatabaseLink } from '../../apps/server/test/helpers/database-link';
import { startS3 } from '../../apps/server/test/helpers/s3';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';

type Request =
  | { type: 'start'; databasePort: number }
  | { type: 'balance'; ports: number[]; listenPort: number }
  | { type: 'cut' | 'restore' | 'failovers' | 'usage' | 'close' };

interface Reply {
  id: number;
  value?: unknown;
  error?: string;
}

export interface Services {
  /** Environment for S3 (BLOB_DRIVER=s3 on s3rver). */
  s3Env: Record<string, string>;
  /** `url` with its host and port replaced by the database link's. */
  through(url: string): string;
  /** Starts the balancer in front of the API nodes, on `listenPort`. */
  balance(ports: number[], listenPort: number): Promise<void>;
  link: { cut(): Promise<void>; restore(): Promise<void> };
  /** Requests that went to another node after the first one refused. */
  failovers(): Promise<number>;
  /** The services process's CPU time so far, in seconds. */
  cpuSeconds(): Promise<number>;
  close(): Promise<void>;
}

/** The parent's side: forks this file and talks to it. */
export async function startServices(databasePort: number): Promise<Services> {
  const child = fork(new URL(import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, MIXROOM_LOAD_SERVICES: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (reply: Reply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.error !== undefined) pending?.reject(new Error(reply.error));
    else pending?.resolve(reply.value);
  });
  child.once('exit', (code) => {
    for (const pending of waiting.values()) pending.reject(new Error(`the services process exited (${code})`));
    waiting.clear();
  });
  const ask = <T>(request: Request) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, ...request });
    });
  const started = await ask<{ s3Env: Record<string, string>; linkPort: number }>({ type: 'start', databasePort });
  return {
    s3Env: started.s3Env,
    through: (url) => {
      const parsed = new URL(url);
      parsed.host = `127.0.0.1:${started.linkPort}`;
      return parsed.toString();
    },
    balance: (ports, listenPort) => ask({ type: 'balance', ports, listenPort }),
    link: { cut: () => ask({ type: 'cut' }), restore: () => ask({ type: 'restore' }) },
    failovers: () => ask<number>({ type: 'failovers' }),
    cpuSeconds: () => ask<number>({ type: 'usage' }),
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await ask({ type: 'close' }).catch(() => undefined);
      await exited;
    },
  };
}

/** The child's side. */
function serve(): void {
  let s3: Awaited<ReturnType<typeof startS3>> | null = null;
  let link: DatabaseLink | null = null;
  let proxy: RoundRobinProxy | null = null;
  const handle = async (request: Request): Promise<unknown> => {
    switch (request.type) {
      case 'start':
        s3 = await startS3();
        link = await startDatabaseLink(request.databasePort);
        return { s3Env: s3.env, linkPort: link.port };
      case 'balance':
        proxy = await startRoundRobinProxy(request.ports, request.listenPort);
        return null;
      case 'cut':
        return link?.cut();
      case 'restore':
        return link?.restore();
      case 'failovers':
        return proxy?.failovers() ?? 0;
      case 'usage': {
        const { user, system } = process.cpuUsage();
        return (user + system) / 1e6;
      }
      case 'close':
        await proxy?.close();
        await link?.close();
        await s3?.stop();
        return null;
    }
  };
  process.on('message', (message: { id: number } & Request) => {
    void handle(message).then(
      (value) => {
        process.send!({ id: message.id, value: value ?? null } satisfies Reply);
        if (message.type === 'close') process.disconnect();
      },
      (error: unknown) => process.send!({ id: message.id, error: String(error) } satisfies Reply),
    );
  });
  // The harness gone (crashed or killed) takes its services with it.
  process.once('disconnect', () => process.exit(0));
}

if (process.env.MIXROOM_LOAD_SERVICES === '1' && process.send) serve();
