#!/usr/bin/env node
// Entry point of `npm start`, `npm test`, `npm run dev` and `npm run lint`. It must run on whatever
// Node the machine has (Debian ships 20), so it uses no dependencies: it installs them when missing
// or stale, builds the web app when its sources changed, then re-runs the real command under the
// Node 24 binary that the `node` devDependency pins. `install` only does the first part (CI uses it).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTestTools } from './ensure-tools.mjs';
import { dependenciesFresh, installDependencies } from './lib/install.mjs';
import { ensureMediaTools } from './lib/media-tools.mjs';
import { say, step } from './lib/progress.mjs';
import { pinnedNodeVersion, runtimeBinary } from './lib/runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const command = process.argv[2];
const extra = process.argv.slice(3);
const node24 = runtimeBinary(root);
const version = pinnedNodeVersion(root);
// npm puts node_modules/.bin first on PATH for its scripts; a direct `node scripts/bootstrap.mjs` needs it too.
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };

if (Number(process.versions.node.split('.')[0]) < 20) {
  console.error(
    `[mixroom] Node.js 20 or newer is needed to install Mixroom (this is ${process.version}); Mixroom then runs on the Node ${version} it installs.`,
  );
  process.exit(1);
}

// Ctrl+C reaches the running command too (same terminal), which then stops on its own: wait for it.
// A SIGTERM sent to this process alone (a service manager) is passed on.
const running = new Set();
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {
  if (running.size === 0) process.exit(143);
  for (const child of running) child.kill('SIGTERM');
});

/** Runs a command to its end, output shown as it comes; resolves to its exit code. */
function run(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env, ...options });
    running.add(child);
    child.once(
      'error',
      (error) => (running.delete(child), console.error(`[mixroom] ${cmd}: ${error.message}`), resolve(1)),
    );
    child.once('close', (code, signal) => (running.delete(child), resolve(code ?? (signal ? 1 : 0))));
  });
}

const orExit = (code) => code === 0 || process.exit(code || 1);

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

async function ensureDependencies() {
  if (dependenciesFresh(root, version)) return;
  const reason = existsSync(join(root, 'node_modules')) ? 'node_modules does not match package-lock.json' : 'first run';
  const why = `${reason}; later runs skip this while package-lock.json stays the same`;
  const ok = await step('installing dependencies', () => installDependencies(root, version, env, run), why);
  if (!ok) {
    say('the install failed (npm says why above); run the same command again once it is fixed');
    process.exit(1);
  }
}

async function ensureWebBuild() {
  const dist = join(root, 'apps', 'web', 'dist', 'index.html');
  const sources = Math.max(newestMtime(join(root, 'apps', 'web')), newestMtime(join(root, 'packages')));
  if (existsSync(dist) && statSync(dist).mtimeMs >= sources) return;
  const build = () =>
    run(node24, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: join(root, 'apps', 'web'),
    });
  orExit(await step('building the web app', build, 'Vite, into apps/web/dist; again only when its sources change'));
}

async function ensureMedia() {
  const npm = (args, cwd) => run('npm', args, { cwd, env: { ...env, PATH: `${dirname(node24)}:${env.PATH}` } });
  if (!(await ensureMediaTools(root, env, npm)))
    say(
      'no ffmpeg could be found or fetched: uploads will not be processed until `apt-get install ffmpeg` (or FFMPEG_PATH and FFPROBE_PATH)',
    );
}

// ESLint is one single-threaded process, so on a machine with two cores Prettier and the type check
// run beside it; every check runs to its end, and the lint fails when any of them did.
async function lint() {
  const eslint = step('ESLint', () => run('eslint', ['.', '--max-warnings', '0']));
  const others = (async () => {
    const prettier = await step('Prettier', () => run('prettier', ['--check', '.', '--log-level', 'warn']));
    const typescript = await step('TypeScript', () => run('npm', ['run', '--silent', 'typecheck']));
    return prettier || typescript;
  })();
  const codes = await Promise.all([eslint, others]);
  orExit(codes.find((code) => code !== 0) ?? 0);
}

switch (command) {
  case 'install':
    await ensureDependencies();
    break;
  case 'start':
    await ensureDependencies();
    await ensureWebBuild();
    await ensureMedia();
    say(`starting Mixroom on Node ${version}`);
    process.exit(await run(node24, ['--import', 'tsx', join(root, 'apps', 'server', 'src', 'main.ts'), ...extra]));
    break;
  case 'dev':
    await ensureDependencies();
    await ensureMedia();
    process.exit(await run(node24, [join(root, 'scripts', 'dev.mjs'), ...extra]));
    break;
  case 'test':
    // Before the install, so a missing browser stops the run at once rather than minutes later.
    if (!ensureTestTools((text) => say(text))) process.exit(1);
    await ensureDependencies();
    await ensureWebBuild();
    process.exit(await run(node24, [join(root, 'scripts', 'test.mjs'), ...extra]));
    break;
  case 'lint':
    await ensureDependencies();
    await lint();
    break;
  default:
    console.error('usage: bootstrap.mjs install|start|dev|test|lint');
    process.exit(2);
}
