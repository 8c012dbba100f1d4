// The test command (`npm test`). Runs every Vitest project once and ends with `N passed, N failed`.
// First it makes sure the programs the tests drive are there (Chromium, ffmpeg, pdftotext).
// When a PostgreSQL server answers on 127.0.0.1:5432 (as on CI) and TEST_DATABASE_URL is unset, it
// is used so the data layer and the cross-process tests run on PostgreSQL as well as on PGlite.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { availableParallelism } from 'node:os';
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

/** One Vitest run; resolves with its exit status and its counts read from its JSON report. */
function vitest(name, extra) {
  const resultsFile = join(resultsDir, `results-${name}.json`);
  rmSync(resultsFile, { force: true });
  const args = [
    join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${resultsFile}`,
  ];
  if (!env.TEST_DATABASE_URL) args.push('--exclude', '**/*.postgres.test.ts');
  args.push(...extra);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env });
    child.on('exit', (status) => {
      let passed = 0;
      let failed = 0;
      try {
        const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
        passed = results.numPassedTests;
        failed = results.numFailedTests + (results.numRuntimeErrorTestSuites ?? 0);
        if (status !== 0 && failed === 0) failed = 1;
      } catch {
        failed = 1;
      }
      resolve({ status, passed, failed });
    });
  });
}

// With no arguments, the Chromium journeys (one file after another: each drives a browser and a
// server) run beside the other projects in a second Vitest process. Most of their time is spent
// waiting on Chromium, the server and ffmpeg, so the two overlap instead of queueing behind each
// other (Vitest alone runs one file at a time on a 2-core machine, and its one-at-a-time files only
// after all the others). The server's files, too, wait on the processes they start (servers, ffmpeg,
// PostgreSQL) more than they compute, so two of them run at a time: at least two workers, whatever
// the machine's count of cores.
const extra = process.argv.slice(2);
const otherWorkers = Math.max(2, availableParallelism() - 1);
const runs =
  extra.length > 0
    ? [vitest('all', extra)]
    : [
        vitest('e2e', ['--project', 'e2e']),
        vitest('other', [
          '--project',
          'shared',
          '--project',
          'web',
          '--project',
          'server',
          `--maxWorkers=${otherWorkers}`,
        ]),
      ];
const results = await Promise.all(runs);
const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.status === 0) && failed === 0 ? 0 : 1);
