import { LIVE_AUTO_MUTE_DB, LIVE_AUTO_MUTE_INTERVAL_MS } from '@mixroom/shared';
import { autoMuteShouldMute } from './level';

/** Readings the decision averages: the last 100 ms at one reading every 10 ms. */
const WINDOW = 10;

/**
 * Auto Mute's loop: every 10 ms the level of what the room sends is read, and `apply` is told
 * whether the user's own stream mutes (the recent average above −90 dB) or not. Returns the stop.
 */
export function startAutoMute(readLevel: () => number, apply: (muted: boolean) => void): () => void {
  const levels: number[] = [];
  const timer = setInterval(() => {
    levels.push(readLevel());
    if (levels.length > WINDOW) levels.shift();
    apply(autoMuteShouldMute(levels, LIVE_AUTO_MUTE_DB));
  }, LIVE_AUTO_MUTE_INTERVAL_MS);
  return () => clearInterval(timer);
}
