import { useCallback, useEffect, useMemo, useState, type MouseEvent } from 'react';

/**
 * Selection as file managers do it: click selects one, Ctrl/⌘+click toggles, Shift+click
 * selects the range from the last selected tile in the current sort order, Ctrl/⌘+A selects all.
 */
export function useSelection(orderedIds: string[]) {
  const [picked, setSelected] = useState<Set<string>>(new Set());
  const [anchor, setAnchor] = useState<string | null>(null);
  // Items that left the view (moved, deleted, filtered out) are not selected any more.
  const selected = useMemo(() => new Set([...picked].filter((id) => orderedIds.includes(id))), [picked, orderedIds]);

  const select = useCallback(
    (id: string, event: Pick<MouseEvent, 'ctrlKey' | 'metaKey' | 'shiftKey'>) => {
      if (event.shiftKey && anchor && orderedIds.includes(anchor)) {
        const a = orderedIds.indexOf(anchor);
        const b = orderedIds.indexOf(id);
        setSelected(new Set(orderedIds.slice(Math.min(a, b), Math.max(a, b) + 1)));
        return;
      }
      if (event.ctrlKey || event.metaKey) {
        setSelected((current) => {
          const next = new Set(current);
          if (next.has(id)) next.delete(id);
          else next.add(id);
          return next;
        });
      } else {
        setSelected(new Set([id]));
      }
      setAnchor(id);
    },
    [anchor, orderedIds],
  );

  const selectAll = useCallback(() => setSelected(new Set(orderedIds)), [orderedIds]);
  const clear = useCallback(() => setSelected(new Set()), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing =
        event.target instanceof HTMLElement &&
        (event.target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(event.target.tagName));
      if (typing) return;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
        event.preventDefault();
        selectAll();
      } else if (event.key === 'Escape') clear();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selectAll, clear]);

  return useMemo(() => ({ selected, select, selectAll, clear }), [selected, select, selectAll, clear]);
}
