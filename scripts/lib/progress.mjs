// What the bootstrap prints: one `[mixroom]` line when a step starts, saying what it does and why, and
// one when it ends, with the time it took. Long steps report progress every few seconds, so a first
// run is never silent for minutes.

export const say = (text) => console.log(`[mixroom] ${text}`);

export const seconds = (ms) =>
  ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/**
 * Runs `work` (sync or async) between a start line, with why it is needed, and an end line with the
 * elapsed time. A result of `false` or a non-zero exit code counts as a failure.
 */
export async function step(title, work, why = '') {
  say(`${title}…${why ? ` (${why})` : ''}`);
  const started = Date.now();
  const result = await work();
  const failed = result === false || (typeof result === 'number' && result !== 0);
  say(`${title}: ${failed ? 'failed after' : 'done in'} ${seconds(Date.now() - started)}`);
  return result;
}

/** Calls `report(elapsedMs)` every `everyMs` until the returned function is called. */
export function heartbeat(everyMs, report) {
  const started = Date.now();
  const timer = setInterval(() => report(Date.now() - started), everyMs);
  return () => clearInterval(timer);
}
