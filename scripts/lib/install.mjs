// Installs node_modules exactly as package-lock.json says (`npm ci`), on the pinned Node, and reports
// how far it got every few seconds: npm itself prints nothing until it is done.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { heartbeat, say, seconds } from './progress.mjs';
import { installedRuntimeVersion, installerRuntime, npmCli, removeInstallerRuntime } from './runtime.mjs';

/** True when node_modules holds the pinned runtime and was installed from the current lock file. */
export function dependenciesFresh(root, version) {
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(marker) || installedRuntimeVersion(root) !== version) return false;
  return statSync(marker).mtimeMs >= statSync(join(root, 'package-lock.json')).mtimeMs;
}

// The folders npm ci unpacks on every machine (platform-specific optional packages are left out).
function lockedPackageDirs(root) {
  const { packages } = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  return Object.entries(packages)
    .filter(([path, entry]) => path.includes('node_modules/') && !entry.link && !entry.optional)
    .map(([path]) => join(root, path, 'package.json'));
}

/** `run(command, args, options)` runs a command with its output shown and resolves to its exit code. */
export async function installDependencies(root, version, env, run) {
  const node = installerRuntime(root, version, say);
  const cli = node ? npmCli() : null;
  if (!cli)
    say(
      `could not run npm on Node ${version}: installing with this machine's npm, which may warn that dependencies need a newer Node (they run on ${version})`,
    );
  const flags = ['ci', '--no-audit', '--no-fund', '--no-progress'];
  const [command, args] = cli ? [node, [cli, ...flags]] : ['npm', flags];
  // Install scripts (the runtime's own download, esbuild) run on the pinned Node as well. The calling
  // npm passes the machine's `nodedir` (its own Node's headers) on in the environment: wrong for the
  // pinned Node, and npm 11 warns about it once more.
  const { npm_config_nodedir: _machineHeaders, ...inherited } = env;
  const childEnv = cli ? { ...inherited, PATH: `${dirname(node)}${delimiter}${env.PATH ?? ''}` } : env;
  const dirs = lockedPackageDirs(root);
  say(`npm ci: ${dirs.length} packages from package-lock.json into node_modules (about 720 MB on disk)`);
  const stop = heartbeat(10_000, (elapsed) => {
    const unpacked = dirs.filter((file) => existsSync(file)).length;
    const stage =
      unpacked < dirs.length
        ? `${unpacked} of ${dirs.length} packages unpacked`
        : 'all packages unpacked, running their install scripts';
    say(`  ${seconds(elapsed)}: ${stage}`);
  });
  const code = await run(command, args, { env: childEnv });
  stop();
  if (code === 0 && node !== process.execPath) removeInstallerRuntime(version);
  return code === 0;
}
