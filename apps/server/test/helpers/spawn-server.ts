import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const main = join(root, 'apps', 'server', 'src', 'main.ts');

/**
 * The time a test that starts real processes may take: each start loads the whole app through tsx
 * (about 8 s on an idle 2-core machine, several times that while the e2e journeys share it), and
 * such a test starts two or three. It is a ceiling for conditions the test waits on, not a wait.
 */
export const SPAWNED_TIMEOUT_MS = 180_000;

export interface Spawned {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Runs `main.ts` as a separate process, as `npm start` does, with the given environment. */
export function spawnServer(env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CI: '1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}
