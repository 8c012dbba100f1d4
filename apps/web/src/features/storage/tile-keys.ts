/**
 * What a key does on a focused tile of the storage grid, as in a file manager: the arrow keys move
 * the focus (up and down to the nearest tile of the row above or below, as the grid wraps on the
 * screen), Home and End to the first and last tile; with Shift a move also selects the range from
 * the anchor. Space toggles the tile in the selection (Shift+Space selects the range up to it) and
 * Enter opens it.
 */
export type TileKeyIntent =
  { kind: 'move'; to: number; extend: boolean } | { kind: 'toggle' } | { kind: 'range' } | { kind: 'open' };

/** Where a tile sits on the screen (its box's left and top edges). */
export interface TileBox {
  left: number;
  top: number;
}

/** The tile straight above or below `index`: in the nearest row that way, the one nearest in x. */
function vertical(boxes: readonly TileBox[], index: number, down: boolean): number | null {
  const from = boxes[index];
  if (!from) return null;
  const rows = boxes
    .map((box) => box.top)
    .filter((top) => (down ? top > from.top + 1 : top < from.top - 1))
    .sort((a, b) => (down ? a - b : b - a));
  const row = rows[0];
  if (row === undefined) return null;
  let best: number | null = null;
  boxes.forEach((box, i) => {
    if (Math.abs(box.top - row) > 1) return;
    if (best === null || Math.abs(box.left - from.left) < Math.abs(boxes[best]!.left - from.left)) best = i;
  });
  return best;
}

export function tileKeyIntent(
  key: string,
  modifiers: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean },
  index: number,
  boxes: readonly TileBox[],
): TileKeyIntent | null {
  if (key === ' ' || key === 'Spacebar') return modifiers.shiftKey ? { kind: 'range' } : { kind: 'toggle' };
  if (key === 'Enter') return { kind: 'open' };
  const last = boxes.length - 1;
  if (last < 0) return null;
  const to =
    key === 'ArrowRight'
      ? Math.min(index + 1, last)
      : key === 'ArrowLeft'
        ? Math.max(index - 1, 0)
        : key === 'ArrowDown'
          ? vertical(boxes, index, true)
          : key === 'ArrowUp'
            ? vertical(boxes, index, false)
            : key === 'Home'
              ? 0
              : key === 'End'
                ? last
                : null;
  if (to === null || to === index) return null;
  return { kind: 'move', to, extend: modifiers.shiftKey };
}
