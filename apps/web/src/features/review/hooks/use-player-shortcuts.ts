import { useEffect } from 'react';
import type { PlayerController } from '../player-controller';

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.getAttribute('role') === 'slider');

/** Space, arrows, M and L, as in every DAW and player; never while typing a comment. */
export function usePlayerShortcuts(player: PlayerController | null): void {
  useEffect(() => {
    if (!player) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.metaKey || event.ctrlKey || typing(event.target)) return;
      if (document.querySelector('[role="dialog"]')) return;
      const state = player.getState();
      const actions: Record<string, () => void> = {
        ' ': () => void player.playPause(),
        ArrowLeft: () => player.skip(event.shiftKey ? -15 : -5),
        ArrowRight: () => player.skip(event.shiftKey ? 15 : 5),
        ArrowUp: () => player.setVolume(Math.min(1, Math.round((state.volume + 0.1) * 10) / 10)),
        ArrowDown: () => player.setVolume(Math.max(0, Math.round((state.volume - 0.1) * 10) / 10)),
        m: () => player.setMuted(!state.muted),
        l: () => player.setLoop(!state.loop),
      };
      const action = actions[event.key.length === 1 ? event.key.toLowerCase() : event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [player]);
}
