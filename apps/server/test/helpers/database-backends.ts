import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../src/db/database';
import { seedEmbeddedDatabase } from './embedded-database-template';
import { createTestDatabase } from './test-server';

/** Two "nodes" on one database: on PGlite the same handle, on PostgreSQL a pool each. */
export interface OpenedBackend {
  nodeA: Database;
  nodeB: Database;
  close(): Promise<void>;
}

export interface DatabaseBackend {
  name: 'PGlite' | 'PostgreSQL';
  open(): Promise<OpenedBackend>;
}

/**
 * The real databases a data-layer test runs on: embedded PGlite always, and PostgreSQL (a database
 * of its own, dropped on close) when TEST_DATABASE_URL names a server.
 */
export function databaseBackends(label: string): DatabaseBackend[] {
  const backends: DatabaseBackend[] = [
    {
      name: 'PGlite',
      open: async () => {
        const dataDir = mkdtempSync(join(tmpdir(), `mixroom-${label}-`));
        await seedEmbeddedDatabase(dataDir);
        const database = await openDatabase({ url: null, dataDir, poolSize: 1 });
        return {
          nodeA: database,
          nodeB: database,
          close: async () => {
            await database.close();
            rmSync(dataDir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return backends;
  backends.push({
    name: 'PostgreSQL',
    open: async () => {
      const created = await createTestDatabase(adminUrl);
      const nodeA = await openDatabase({ url: created.url, dataDir: '', poolSize: 20 });
      const nodeB = await openDatabase({ url: created.url, dataDir: '', poolSize: 20 });
      return {
        nodeA,
        nodeB,
        close: async () => {
          await nodeA.close();
          await nodeB.close();
          await created.drop();
        },
      };
    },
  });
  return backends;
}
