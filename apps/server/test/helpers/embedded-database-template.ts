import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/db/database';

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'db', 'migrations');
/** The installed PGlite's package.json (its exports hide it from require.resolve). */
function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Changes with any migration or PGlite release, so a stale template is never reused. */
function templateKey(): string {
  const hash = createHash('sha256').update(pgliteVersion());
  for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const path = join(migrationsFolder, name);
    if (name.endsWith('.sql') || name.endsWith('.json')) hash.update(name).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | undefined;

/**
 * A freshly migrated, empty embedded database, made once per machine and copied for each test
 * server: PGlite's initdb costs about 1.5 s of CPU, a copy of its result 50 ms, and the test run
 * starts dozens of servers. It is built in a directory of its own and renamed into place, so test
 * files running side by side never see half of one; the first to rename wins.
 */
async function templateDir(): Promise<string> {
  const final = join(tmpdir(), `mixroom-pglite-template-${templateKey()}`);
  if (existsSync(join(final, 'db'))) return final;
  const building = mkdtempSync(`${final}-building-`);
  const database = await openDatabase({ url: null, dataDir: building, poolSize: 1 });
  await database.close();
  try {
    renameSync(building, final);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
  return final;
}

/** Gives `dataDir` the migrated embedded database, unless it already holds one. */
export async function seedEmbeddedDatabase(dataDir: string): Promise<void> {
  const target = join(dataDir, 'db');
  if (existsSync(target)) return;
  template ??= templateDir();
  cpSync(join(await template, 'db'), target, { recursive: true });
}
