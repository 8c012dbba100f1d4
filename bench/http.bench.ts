// Throughput and tail latency of the API: /api/health (the baseline: no auth, three probes) against
// /api/me (JWT verification, user lookup and plan merge), on PGlite and (TEST_DATABASE_URL) PostgreSQL. The server runs as its own process, as in
// production, and autocannon loads it from this one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../apps/server/test/helpers/free-port';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { spawnServer } from '../apps/server/test/helpers/spawn-server';
import { createTestDatabase, startTestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 32;

interface Figure {
  endpoint: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string> = {}): Promise<Figure> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return {
    endpoint: new URL(url).pathname,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/**
 * Health, then /api/me, on a server of its own: on embedded PGlite, and on PostgreSQL too when
 * TEST_DATABASE_URL names a server the bench may create a database on.
 */
export async function benchHttp(): Promise<Figure[]> {
  const figures = await benchOne({});
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return figures;
  const database = await createTestDatabase(adminUrl);
  try {
    const onPostgres = await benchOne({ DATABASE_URL: database.url });
    return [...figures, ...onPostgres.map((f) => ({ ...f, endpoint: `${f.endpoint} (PostgreSQL)` }))];
  } finally {
    await database.drop();
  }
}

async function benchOne(env: Record<string, string>): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawnServer({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn', ...env });
  try {
    // Generous: a server starting on a machine other work keeps busy may take a minute or more.
    await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok, {
      timeoutMs: 240_000,
      what: 'server',
    });
    const tokens = await signInThroughOidc(base, { email: 'bench@mixroom.test', password: 'bench-password' });
    await load(`${base}/api/health`); // warm-up
    const health = await load(`${base}/api/health`);
    const me = await load(`${base}/api/me`, { authorization: `Bearer ${tokens.access_token}` });
    return [health, me];
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Server CPU per request, in process (Fastify's inject, embedded PGlite): what a request costs the
 * node whatever else the machine runs, so the two endpoints compare on a busy machine too (the
 * throughput above moves with the other load; CPU time per request far less). Sequential requests,
 * after a warm-up; the test server's own background work is in both figures alike.
 */
export async function benchHttpCpu(requests = Number(process.env.BENCH_CPU_REQUESTS ?? 400)) {
  const server = await startTestServer();
  try {
    const tokens = await signInThroughOidc(server.url, { email: 'cpu@mixroom.test', password: 'bench-password' });
    const measure = async (url: string, headers: Record<string, string> = {}) => {
      const once = async () => {
        const response = await server.app.inject({ url, headers });
        if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
      };
      for (let i = 0; i < 50; i++) await once();
      const started = process.cpuUsage();
      for (let i = 0; i < requests; i++) await once();
      const used = process.cpuUsage(started);
      return { endpoint: url, cpuMsPerRequest: (used.user + used.system) / 1000 / requests };
    };
    const health = await measure('/api/health');
    const me = await measure('/api/me', { authorization: `Bearer ${tokens.access_token}` });
    const healthAgain = await measure('/api/health');
    return [health, me, healthAgain];
  } finally {
    await server.close();
  }
}
