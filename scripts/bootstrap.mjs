#!/usr/bin/env node
// Entry point of `npm start`, `npm test` and `npm run dev`. It must run on whatever Node the machine
// has (Debian ships 20), so it uses no dependencies: it installs them when missing or stale, builds
// the web app when its sources changed, then re-runs the real command under the Node 24 binary that
// the `node` devDependency pins. npm puts node_modules/.bin first on PATH for every child.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const command = process.argv[2];
const extra = process.argv.slice(3);
const node24 = join(root, 'node_modules', 'node', 'bin', 'node');
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function ensureDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  const fresh = existsSync(marker) && existsSync(node24) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
  if (fresh) return;
  console.log('[mixroom] installing dependencies (npm ci)…');
  if (run('npm', ['ci', '--no-audit', '--no-fund']) !== 0) process.exit(1);
}

function ensureWebBuild() {
  const dist = join(root, 'apps', 'web', 'dist', 'index.html');
  const sources = Math.max(newestMtime(join(root, 'apps', 'web')), newestMtime(join(root, 'packages')));
  if (existsSync(dist) && statSync(dist).mtimeMs >= sources) return;
  console.log('[mixroom] building the web app…');
  if (run(node24, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: join(root, 'apps', 'web') }) !== 0) {
    process.exit(1);
  }
}

ensureDependencies();
switch (command) {
  case 'start':
    ensureWebBuild();
    process.exit(run(node24, ['--import', 'tsx', join(root, 'apps', 'server', 'src', 'main.ts'), ...extra]));
    break;
  case 'dev':
    process.exit(run(node24, [join(root, 'scripts', 'dev.mjs'), ...extra]));
    break;
  case 'test':
    ensureWebBuild();
    process.exit(run(node24, [join(root, 'scripts', 'test.mjs'), ...extra]));
    break;
  default:
    console.error(`usage: bootstrap.mjs start|dev|test`);
    process.exit(2);
}
