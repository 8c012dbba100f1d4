import { describe, expect, it } from 'vitest';
import { tileKeyIntent, type TileBox } from './tile-keys';

const plain = { shiftKey: false, ctrlKey: false, metaKey: false };
const shift = { ...plain, shiftKey: true };
/** Seven tiles three to a row, 300 px wide with 16 px gaps, as the grid lays them out on a desktop. */
const grid: TileBox[] = Array.from({ length: 7 }, (_, i) => ({ left: (i % 3) * 316, top: Math.floor(i / 3) * 216 }));
/** The same tiles on a phone: one column. */
const column: TileBox[] = Array.from({ length: 7 }, (_, i) => ({ left: 0, top: i * 216 }));

describe('keys on a storage tile', () => {
  it('toggles with Space, selects the range with Shift+Space, opens with Enter', () => {
    expect(tileKeyIntent(' ', plain, 2, grid)).toEqual({ kind: 'toggle' });
    expect(tileKeyIntent(' ', shift, 2, grid)).toEqual({ kind: 'range' });
    expect(tileKeyIntent('Enter', plain, 2, grid)).toEqual({ kind: 'open' });
    expect(tileKeyIntent('a', plain, 2, grid)).toBeNull();
  });

  it('moves left and right through the order, stopping at the ends', () => {
    expect(tileKeyIntent('ArrowRight', plain, 2, grid)).toEqual({ kind: 'move', to: 3, extend: false });
    expect(tileKeyIntent('ArrowLeft', plain, 3, grid)).toEqual({ kind: 'move', to: 2, extend: false });
    expect(tileKeyIntent('ArrowLeft', plain, 0, grid)).toBeNull();
    expect(tileKeyIntent('ArrowRight', plain, 6, grid)).toBeNull();
    expect(tileKeyIntent('Home', plain, 5, grid)).toEqual({ kind: 'move', to: 0, extend: false });
    expect(tileKeyIntent('End', shift, 1, grid)).toEqual({ kind: 'move', to: 6, extend: true });
  });

  it('moves up and down by rows as the grid wraps: three columns on a desktop, one on a phone', () => {
    expect(tileKeyIntent('ArrowDown', plain, 1, grid)).toEqual({ kind: 'move', to: 4, extend: false });
    expect(tileKeyIntent('ArrowUp', plain, 4, grid)).toEqual({ kind: 'move', to: 1, extend: false });
    // The last row holds one tile: down from any column of the row above lands on it.
    expect(tileKeyIntent('ArrowDown', plain, 5, grid)).toEqual({ kind: 'move', to: 6, extend: false });
    expect(tileKeyIntent('ArrowDown', plain, 6, grid)).toBeNull();
    expect(tileKeyIntent('ArrowUp', plain, 0, grid)).toBeNull();
    expect(tileKeyIntent('ArrowDown', shift, 2, column)).toEqual({ kind: 'move', to: 3, extend: true });
    expect(tileKeyIntent('ArrowUp', plain, 2, column)).toEqual({ kind: 'move', to: 1, extend: false });
  });
});
