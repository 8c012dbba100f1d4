import { spawnSync, type ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();
let hooked = false;

/** Ends every media tool this process started and still runs (the process stops serving). */
export function killRunningTools(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/**
 * Ties a media tool's process (ffmpeg, ffprobe) to this one: a child is not ended by its parent's
 * exit on Linux, so an hour-long encode would run on, orphaned, after a restart or a test. The
 * 'exit' hook runs on process.exit and on a normal end (a signal the process handles ends that way);
 * a process killed outright runs no hook, which is what `toolCommand` covers.
 */
export function tracked<T extends ChildProcess>(child: T): T {
  if (!hooked) {
    hooked = true;
    process.once('exit', killRunningTools);
  }
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  return child;
}

let deathSignal: boolean | null = null;

/** Whether util-linux's setpriv can set the parent-death signal here (Linux with util-linux). */
function canSetDeathSignal(): boolean {
  deathSignal ??=
    process.platform === 'linux' &&
    spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0;
  return deathSignal;
}

/**
 * The command line that runs a media tool so it dies with this process, even by SIGKILL or an out of
 * memory kill, which run no exit hook: `setpriv --pdeathsig KILL` asks the kernel (prctl
 * PR_SET_PDEATHSIG) to kill the tool when the thread that started it ends, then becomes the tool
 * (same pid). Spawns happen on the main thread, whose end is the process's. Where setpriv is missing
 * (macOS, a slim image), the tool runs as it is and only the exit hook above ends it.
 */
export function toolCommand(binary: string, args: string[]): [string, string[]] {
  if (!canSetDeathSignal()) return [binary, args];
  return ['setpriv', ['--pdeathsig', 'KILL', '--', binary, ...args]];
}
