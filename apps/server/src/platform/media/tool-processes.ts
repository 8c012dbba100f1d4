import type { ChildProcess } from 'node:child_process';

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
 * 'exit' hook runs on process.exit and on a normal end (a signal the process handles ends that way).
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
