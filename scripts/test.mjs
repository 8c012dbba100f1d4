// The test command (`npm test`). Runs every Vitest project once and ends with `N passed, N failed`.
// First it makes sure the programs the tests drive are there (Chromium, ffmpeg, pdftotext).
// When a PostgreSQL server answers on 127.0.0.1:5432 (as on CI) and TEST_DATABASE_URL is unset, it
// is used so the data layer and the cross-process tests run on PostgreSQL as well as on PGlite.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTestTools } from './ensure-tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.connect(port, host);
  });
}

if (!ensureTestTools()) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const env = { ...process.env };
if (!env.TEST_DATABASE_URL && (await reachable('127.0.0.1', 5432))) {
  env.TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
}
console.log(
  env.TEST_DATABASE_URL
    ? `[test] PostgreSQL: ${env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')}`
    : '[test] PostgreSQL not reachable: PostgreSQL-only tests are excluded from this run.',
);

const resultsDir = join(root, '.test-data');
mkdirSync(resultsDir, { recursive: true });
const resultsFile = join(resultsDir, 'results.json');
rmSync(resultsFile, { force: true });

const args = [
  join(root, 'node_modules', 'vitest', 'vitest.mjs'),
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${resultsFile}`,
];
if (!env.TEST_DATABASE_URL) args.push('--exclude', '**/*.postgres.test.ts');
args.push(...process.argv.slice(2));
const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });

let passed = 0;
let failed = 0;
try {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  passed = results.numPassedTests;
  failed = results.numFailedTests + (results.numRuntimeErrorTestSuites ?? 0);
  if (run.status !== 0 && failed === 0) failed = 1;
} catch {
  failed = Math.max(failed, 1);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
