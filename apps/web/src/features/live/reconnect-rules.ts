/**
 * When the streaming client tries again after losing its connection, as plain numbers (no DOM), so
 * the load harness and the cluster test follow the same rules as the browser.
 *
 * - A connection 'disconnected' for DISCONNECTED_WAIT_MS counts as lost ('failed' at once).
 * - The first attempt after a lost connection goes at once: a node that died is found refusing and
 *   its rooms taken over by that very offer, so waiting first only adds silence.
 * - Each later attempt waits RECONNECT_MIN_MS, doubling up to RECONNECT_MAX_MS, so a server that
 *   is away is not hammered; 'connected' starts the sequence again.
 */
export const RECONNECT_FIRST_MS = 0;
export const RECONNECT_MIN_MS = 1000;
export const RECONNECT_MAX_MS = 32_000;
export const DISCONNECTED_WAIT_MS = 1500;

/** The wait after `wait`: none → 1 s → 2 s → … → 32 s. */
export function nextReconnectDelay(wait: number): number {
  return wait < RECONNECT_MIN_MS ? RECONNECT_MIN_MS : Math.min(wait * 2, RECONNECT_MAX_MS);
}
