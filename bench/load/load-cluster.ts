// The studio-network setup on one machine: PostgreSQL (through the harness's link), S3 (s3rver),
// two API nodes that also carry live media (`api,sfu`: each live room lives on one of them, the
// other sends the room's WHIP/WHEP on) and one worker node, each its own process as `npm start`
// runs it, behind the harness's round-robin balancer. The link, s3rver and the balancer share a
// process of their own (load-services.ts), apart from the simulated users.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../apps/server/test/helpers/free-port';
import { spawnServer, type Spawned } from '../../apps/server/test/helpers/spawn-server';
import { createTestDatabase } from '../../apps/server/test/helpers/test-server';
import { waitFor } from '../../apps/server/test/helpers/wait-for';
import { startServices, type Services } from './load-services';

export type NodeName = 'api-a' | 'api-b' | 'worker';

interface ClusterNode {
  name: NodeName;
  port: number;
  dataDir: string;
  env: Record<string, string>;
  process: Spawned;
  /** Starts again after the node exited while starting (see untilHealthy). */
  restarts: number;
}

export interface Cluster {
  url: string;
  databaseUrl: string;
  /** Requests that went to another node after the first one refused. */
  failovers(): Promise<number>;
  /** CPU seconds of the process carrying s3rver, the link and the balancer. */
  servicesCpuSeconds(): Promise<number>;
  link: Services['link'];
  nodes: ClusterNode[];
  /** The node whose internal URL (MIXROOM_NODE_URL) this is, if any. */
  nodeAt: (url: string) => NodeName | null;
  /** kill -9, as a crashed machine or the OOM killer would. */
  kill(name: NodeName): Promise<void>;
  start(name: NodeName): Promise<void>;
  close(): Promise<void>;
}

const healthy = (port: number) => async () =>
  (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok === true;

/** LOAD_NODE_LOGS: a directory where each node's output is kept (at LOAD_LOG_LEVEL, warn by default). */
const LOGS = process.env.LOAD_NODE_LOGS;

/** Appends a node process's output to its log, once the process is gone or replaced. */
function keepLog(node: ClusterNode): void {
  if (!LOGS) return;
  mkdirSync(LOGS, { recursive: true });
  appendFileSync(join(LOGS, `${node.name}.log`), `--- process ${node.process.child.pid} ---\n${node.process.output()}`);
}

/** A process manager's pause before starting a node that exited again (systemd's RestartSec). */
const RESTART_AFTER_MS = 2000;

/**
 * Waits for a node to answer healthy. A node that exits while starting (it cannot reach the database
 * during the cut) is started again after a pause, as a process manager would; one that never comes
 * up says why (the tail of its output).
 */
async function untilHealthy(node: ClusterNode, what: string): Promise<void> {
  const deadline = performance.now() + 180_000;
  for (;;) {
    let exited = false;
    void node.process.exited.then(() => (exited = true));
    const outcome = await waitFor(async () => (exited ? 'exited' : (await healthy(node.port)()) ? 'up' : null), {
      timeoutMs: Math.max(0, deadline - performance.now()),
      intervalMs: 100,
      what,
    }).catch(() => 'timed out');
    if (outcome === 'up') return;
    const code = node.process.child.exitCode ?? node.process.child.signalCode;
    if (code === null || performance.now() > deadline)
      throw new Error(
        `Timed out waiting for ${what} (exit: ${code ?? 'still running'}); it said:\n${node.process.output().slice(-3000)}`,
      );
    node.restarts++;
    keepLog(node);
    await new Promise((resolve) => setTimeout(resolve, RESTART_AFTER_MS));
    node.process = spawnServer(node.env);
  }
}

export async function startCluster(adminDatabaseUrl: string): Promise<Cluster> {
  const database = await createTestDatabase(adminDatabaseUrl);
  const services = await startServices(Number(new URL(adminDatabaseUrl).port || 5432));
  const proxyPort = await freePort();
  const publicUrl = `http://127.0.0.1:${proxyPort}`;
  const shared = {
    ...services.s3Env,
    DATABASE_URL: services.through(database.url),
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: process.env.LOAD_LOG_LEVEL ?? 'warn',
    TRUST_PROXY: 'true',
  };
  const roles: Record<NodeName, string> = { 'api-a': 'api,sfu', 'api-b': 'api,sfu', worker: 'worker' };
  const nodes: ClusterNode[] = [];
  for (const name of ['api-a', 'api-b', 'worker'] as const) {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), `mixroom-load-${name}-`));
    const env: Record<string, string> = {
      ...shared,
      PORT: String(port),
      DATA_DIR: dataDir,
      MIXROOM_ROLES: roles[name],
    };
    // SFU routing: each media node names where the others reach it (its own port, not the
    // balancer's) and beats every 2 s (the default). A room whose node refuses connections is taken
    // over by the next offer for it; one silent for three beats counts as gone and its rooms move.
    if (roles[name].includes('sfu'))
      Object.assign(env, { MIXROOM_NODE_URL: `http://127.0.0.1:${port}`, MIXROOM_NODE_HEARTBEAT_MS: '2000' });
    const node: ClusterNode = { name, port, dataDir, env, process: spawnServer(env), restarts: 0 };
    nodes.push(node);
    // One at a time: the first node migrates the database; the others find it ready.
    await untilHealthy(node, `${name} healthy`);
  }
  const apiPorts = nodes.filter((n) => n.name !== 'worker').map((n) => n.port);
  await services.balance(apiPorts, proxyPort);
  const byName = (name: NodeName) => nodes.find((n) => n.name === name)!;
  return {
    url: publicUrl,
    databaseUrl: database.url,
    failovers: () => services.failovers(),
    servicesCpuSeconds: () => services.cpuSeconds(),
    link: services.link,
    nodes,
    nodeAt: (url) => nodes.find((n) => n.env.MIXROOM_NODE_URL === url.replace(/\/$/, ''))?.name ?? null,
    kill: async (name) => {
      const node = byName(name);
      node.process.child.kill('SIGKILL');
      await node.process.exited;
      keepLog(node);
    },
    start: async (name) => {
      const node = byName(name);
      node.process = spawnServer(node.env);
      await untilHealthy(node, `${name} back`);
    },
    close: async () => {
      for (const node of nodes) {
        node.process.child.kill('SIGTERM');
        await node.process.exited;
        keepLog(node);
        rmSync(node.dataDir, { recursive: true, force: true });
      }
      await services.close();
      await database.drop();
    },
  };
}
