import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const main = join(root, 'apps', 'server', 'src', 'main.ts');

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
