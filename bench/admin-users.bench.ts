// The admin grid on a server with 10,000 accounts: /api/admin/users paged (first page, a deep page,
// 100 a page) and searched (part of an e-mail, part of a name, a whole uid, no match), against
// /api/health in the same run. The server runs as its own process on embedded PGlite, as `npm start`
// does; autocannon loads it from this one with a few connections, as a handful of administrators would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/database';
import { queryRows } from '../apps/server/src/db/sql';
import { freePort } from '../apps/server/test/helpers/free-port';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { spawnServer, type Spawned } from '../apps/server/test/helpers/spawn-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';

const USERS = 10_000;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 4;
const ADMIN = { email: 'operator@bench.test', password: 'operator-password' };

export interface AdminFigure {
  label: string;
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

async function load(base: string, label: string, path: string, token?: string): Promise<AdminFigure> {
  const result = await autocannon({
    url: `${base}${path}`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return {
    label,
    path,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function start(dataDir: string): Promise<{ server: Spawned; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawnServer({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' });
  // A busy machine may take a minute to start a fresh embedded database.
  await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok, {
    timeoutMs: 180_000,
    what: 'server',
  });
  return { server, base };
}

async function stop(server: Spawned): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

/** 10,000 accounts with names, phone numbers, a spread of sign-up dates and a plan for one in ten. */
async function seed(dataDir: string): Promise<string> {
  const database = await openDatabase({ url: null, dataDir, poolSize: 1 });
  try {
    await database.db.execute(sql`
      insert into users (email, display_name, phone_number, provider, created_at)
      select 'member' || i || '@bench.test', 'Bench Member ' || i, '+49 30 ' || (1000000 + i),
             'password', now() - (i || ' minutes')::interval
      from generate_series(1, ${USERS}) as i`);
    await database.db.execute(sql`
      insert into plan_grants (user_id, sku, starts_at)
      select id, 'STUDIO', now() from users where email like 'member%0@bench.test'`);
    await database.db.execute(sql`analyze`);
    const rows = await queryRows<{ id: string }>(
      database.db,
      sql`select id from users where email = 'member4321@bench.test'`,
    );
    return rows[0]!.id;
  } finally {
    await database.close();
  }
}

export async function benchAdminUsers(): Promise<AdminFigure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-bench-admin-'));
  let running: Spawned | null = null;
  try {
    // The first account of a server is its administrator: make it, then add the crowd behind it.
    const first = await start(dataDir);
    running = first.server;
    await signInThroughOidc(first.base, ADMIN);
    await stop(first.server);
    running = null;
    const uid = await seed(dataDir);

    const { server, base } = await start(dataDir);
    running = server;
    const { access_token: token } = await signInThroughOidc(base, ADMIN, 'signin');
    const total = (
      (await (await fetch(`${base}/api/admin/users`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        total: number;
      }
    ).total;
    if (total !== USERS + 1) throw new Error(`expected ${USERS + 1} users, the grid says ${total}`);

    await load(base, 'warm-up', '/api/health');
    const figures: AdminFigure[] = [await load(base, 'baseline', '/api/health')];
    const cases: [string, string][] = [
      ['first page (25)', '/api/admin/users'],
      ['page 200 of 401 (25)', '/api/admin/users?page=200'],
      ['last page (100 a page)', '/api/admin/users?page=101&pageSize=100'],
      ['search: part of an e-mail', '/api/admin/users?search=member43'],
      ['search: part of a name', '/api/admin/users?search=member%20987'],
      ['search: a whole uid', `/api/admin/users?search=${uid}`],
      ['search: no match', '/api/admin/users?search=nobody-here'],
    ];
    for (const [label, path] of cases) figures.push(await load(base, label, path, token));
    return figures;
  } finally {
    if (running) await stop(running);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
