/** What the rule reads of a cached query's state (TanStack Query's QueryState). */
export interface FetchedState {
  /** When its data last arrived (ms since the epoch); 0 when it never did. */
  dataUpdatedAt: number;
  fetchStatus: 'fetching' | 'paused' | 'idle';
}

/**
 * Whether a query's data may predate an event the socket never delivered: the page fetches while
 * the socket is still connecting, and an event sent in between reaches nobody. Data that arrived
 * before the socket listened (`readyAt`), and a fetch still under way then (the server may have
 * read before the event even if the answer comes after), must be fetched again; data fetched
 * afterwards already includes every event since.
 */
export function mayPredateListening(state: FetchedState, readyAt: number): boolean {
  if (state.fetchStatus === 'fetching') return true;
  return state.dataUpdatedAt > 0 && state.dataUpdatedAt <= readyAt;
}
