import { useEffect, useRef } from 'react';
import type { PlayerController } from '../player-controller';
import { isTypingTarget, SEEK_SECONDS, shortcutFor, type ShortcutAction } from '../shortcuts';

/** What the page does for the keys that reach past the player. */
export interface ShortcutHandlers {
  onComment: () => void;
  onMarkers: () => void;
  onRange: () => void;
  onCompare: () => void;
  onHelp: () => void;
}

/**
 * The review screen's keys (see SHORTCUT_LIST): never while typing, and not while a modal dialog is
 * open (its own keys win).
 */
export function usePlayerShortcuts(player: PlayerController | null, handlers: ShortcutHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  }, [handlers]);
  useEffect(() => {
    if (!player) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target)) return;
      // A modal's own keys win; a popover (also role="dialog", and kept in the page while it fades) does not block.
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      const action = shortcutFor(event);
      if (!action) return;
      event.preventDefault();
      run(action, player, latest.current);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [player]);
}

function run(action: ShortcutAction, player: PlayerController, handlers: ShortcutHandlers): void {
  const state = player.getState();
  const volume = (delta: number) => Math.min(1, Math.max(0, Math.round((state.volume + delta) * 10) / 10));
  const actions: Record<ShortcutAction, () => void> = {
    'play-pause': () => void player.playPause(),
    back: () => player.skip(-SEEK_SECONDS.near),
    'back-far': () => player.skip(-SEEK_SECONDS.far),
    forward: () => player.skip(SEEK_SECONDS.near),
    'forward-far': () => player.skip(SEEK_SECONDS.far),
    'volume-up': () => player.setVolume(volume(0.1)),
    'volume-down': () => player.setVolume(volume(-0.1)),
    mute: () => player.setMuted(!state.muted),
    loop: () => player.setLoop(!state.loop),
    comment: handlers.onComment,
    markers: handlers.onMarkers,
    range: handlers.onRange,
    compare: handlers.onCompare,
    help: handlers.onHelp,
  };
  actions[action]();
}
