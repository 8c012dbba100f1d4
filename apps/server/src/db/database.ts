import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction: what a unit of work writes through, repositories and the outbox alike. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Runs work in one transaction: what services use to group writes with their outbox rows. */
export type UnitOfWork = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;

/**
 * The database a process runs on: embedded PGlite in DATA_DIR (one connection, in process) or a
 * PostgreSQL pool. Everything above this file sees only `db` (Drizzle) and these few capabilities.
 */
export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Raw PGlite handle (pg-boss and LISTEN use it); null on PostgreSQL. */
  pglite: PGlite | null;
  /** Pool for PostgreSQL (LISTEN needs a dedicated client from it); null on PGlite. */
  pool: pg.Pool | null;
  connectionString: string | null;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const ignoreLentClientError = (): void => undefined;

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function openDatabase(options: {
  url: string | null;
  dataDir: string;
  poolSize: number;
  onError?: (error: Error) => void;
}): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize });
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on next use.
    pool.on('error', (error) => options.onError?.(error));
    // A client the pool has lent out (a transaction between two queries, or mid-query) has no
    // listener of the pool's, and a dropped connection's 'error' would end the process. The error
    // reaches its user as the rejected query, and the pool drops the dead client when it is
    // returned, so the listener only has to be there.
    pool.on('connect', (client) => client.on('error', ignoreLentClientError));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return {
      kind: 'postgres',
      db,
      pglite: null,
      pool,
      connectionString: options.url,
      ping: async () => void (await pool.query('select 1')),
      close: () => pool.end(),
    };
  }
  const dir = join(options.dataDir, 'db');
  mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(dir, { extensions: { pg_trgm } });
  const db = drizzlePglite(pglite, { schema });
  await migratePglite(db, { migrationsFolder });
  return {
    kind: 'pglite',
    db,
    pglite,
    pool: null,
    connectionString: null,
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => pglite.close(),
  };
}
