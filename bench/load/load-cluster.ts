// The studio-network setup on one machine: PostgreSQL (through the harness's link), S3 (s3rver),
// two API nodes and one worker node, each its own process as `npm start` runs it, behind the
// harness's round-robin balancer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../apps/server/test/helpers/free-port';
import { startS3 } from '../../apps/server/test/helpers/s3';
import { spawnServer, type Spawned } from '../../apps/server/test/helpers/spawn-server';
import { createTestDatabase } from '../../apps/server/test/helpers/test-server';
import { waitFor } from '../../apps/server/test/helpers/wait-for';
import { startDatabaseLink, type DatabaseLink } from '../../apps/server/test/helpers/database-link';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';

export type NodeName = 'api-a' | 'api-b' | 'worker';

interface ClusterNode {
  name: NodeName;
  port: number;
  dataDir: string;
  env: Record<string, string>;
  process: Spawned;
}

export interface Cluster {
  url: string;
  databaseUrl: string;
  proxy: RoundRobinProxy;
  link: DatabaseLink;
  nodes: ClusterNode[];
  /** kill -9, as a crashed machine or the OOM killer would. */
  kill(name: NodeName): Promise<void>;
  start(name: NodeName): Promise<void>;
  close(): Promise<void>;
}

const healthy = (port: number) => async () =>
  (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok === true;

export async function startCluster(adminDatabaseUrl: string): Promise<Cluster> {
  const database = await createTestDatabase(adminDatabaseUrl);
  const s3 = await startS3();
  const link = await startDatabaseLink(Number(new URL(adminDatabaseUrl).port || 5432));
  const proxyPort = await freePort();
  const publicUrl = `http://127.0.0.1:${proxyPort}`;
  const shared = {
    ...s3.env,
    DATABASE_URL: link.through(database.url),
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
  };
  const roles: Record<NodeName, string> = { 'api-a': 'api', 'api-b': 'api', worker: 'worker' };
  const nodes: ClusterNode[] = [];
  for (const name of ['api-a', 'api-b', 'worker'] as const) {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), `mixroom-load-${name}-`));
    const env = { ...shared, PORT: String(port), DATA_DIR: dataDir, MIXROOM_ROLES: roles[name] };
    nodes.push({ name, port, dataDir, env, process: spawnServer(env) });
    // One at a time: the first node migrates the database; the others find it ready.
    await waitFor(healthy(port), { timeoutMs: 180_000, what: `${name} healthy` });
  }
  const apiPorts = nodes.filter((n) => n.name !== 'worker').map((n) => n.port);
  const proxy = await startRoundRobinProxy(apiPorts, proxyPort);
  const byName = (name: NodeName) => nodes.find((n) => n.name === name)!;
  return {
    url: publicUrl,
    databaseUrl: database.url,
    proxy,
    link,
    nodes,
    kill: async (name) => {
      const node = byName(name);
      node.process.child.kill('SIGKILL');
      await node.process.exited;
    },
    start: async (name) => {
      const node = byName(name);
      node.process = spawnServer(node.env);
      await waitFor(healthy(node.port), { timeoutMs: 180_000, what: `${name} back` });
    },
    close: async () => {
      await proxy.close();
      for (const node of nodes) {
        node.process.child.kill('SIGTERM');
        await node.process.exited;
        rmSync(node.dataDir, { recursive: true, force: true });
      }
      await link.close();
      await s3.stop();
      await database.drop();
    },
  };
}
