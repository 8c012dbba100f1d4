import { createContext, useContext, useSyncExternalStore } from 'react';
import { initialPlayerState, type PlayerController, type PlayerState } from '../player-controller';

export const PlayerContext = createContext<PlayerController | null>(null);

const idle = initialPlayerState(0);
const noop = () => () => undefined;

export function usePlayer(): PlayerController | null {
  return useContext(PlayerContext);
}

/** One slice of the player's state; the component re-renders only when that slice changes. */
export function usePlayerState<T>(select: (state: PlayerState) => T, outside?: PlayerController | null): T {
  const inContext = useContext(PlayerContext);
  const player = outside === undefined ? inContext : outside;
  return useSyncExternalStore(player?.subscribe ?? noop, () => select(player?.getState() ?? idle));
}
