import { SimpleGrid } from '@mantine/core';
import { useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import type { StorageItem } from '@mixroom/contracts';
import type { ItemRef } from '../api';
import { tileKeyIntent } from '../tile-keys';
import { ItemTile, type TileAction } from './item-tile';

/** How a click or a key changes the selection (Ctrl/⌘ toggles, Shift selects a range). */
type SelectKeys = Pick<MouseEvent, 'ctrlKey' | 'metaKey' | 'shiftKey'>;

interface Props {
  items: StorageItem[];
  selected: Set<string>;
  inTrash?: boolean;
  onSelect: (id: string, event: SelectKeys) => void;
  onAction: (item: StorageItem, action: TileAction) => void;
  onDropItems?: (items: ItemRef[], to: string) => void;
  /** Extra menu items for a tile, from other features through the page. */
  extraMenuItems?: (item: StorageItem) => ReactNode;
}

const TOGGLE: SelectKeys = { ctrlKey: true, metaKey: false, shiftKey: false };
const RANGE: SelectKeys = { ctrlKey: false, metaKey: false, shiftKey: true };

/**
 * Tiles in a responsive grid: one column on phones, as many 300 px tiles as fit elsewhere. It is a
 * multi-selectable grid for assistive technology, with one tile in the Tab order (the last one
 * focused) and the keys of tile-keys.ts: arrows move, Space selects, Enter opens.
 */
export function ItemGrid({ items, selected, inTrash, onSelect, onAction, onDropItems, extraMenuItems }: Props) {
  const grid = useRef<HTMLDivElement>(null);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const tabStop = items.some((i) => i.id === focusedId) ? focusedId : (items[0]?.id ?? null);
  const dragItems = (item: StorageItem): ItemRef[] =>
    selected.has(item.id)
      ? items.filter((i) => selected.has(i.id)).map((i) => ({ kind: i.kind, id: i.id }))
      : [{ kind: item.kind, id: item.id }];
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Keys inside a tile (its menu button, an open menu) are theirs, not the grid's.
    if (!(event.target instanceof HTMLElement) || event.target.dataset.testid !== 'tile') return;
    const tiles = [...(grid.current?.querySelectorAll<HTMLElement>('[data-testid="tile"]') ?? [])];
    const index = tiles.indexOf(event.target);
    const item = items[index];
    const boxes = tiles.map((tile) => tile.getBoundingClientRect());
    const intent = item ? tileKeyIntent(event.key, event, index, boxes) : null;
    if (!item || !intent) return;
    event.preventDefault();
    if (intent.kind === 'toggle') return onSelect(item.id, TOGGLE);
    if (intent.kind === 'range') return onSelect(item.id, RANGE);
    if (intent.kind === 'open') return inTrash ? undefined : onAction(item, 'open');
    const next = items[intent.to];
    if (!next) return;
    tiles[intent.to]?.focus();
    if (intent.extend) onSelect(next.id, RANGE);
  };
  return (
    <SimpleGrid
      ref={grid}
      type="container"
      cols={{ base: 1, '520px': 2, '840px': 3, '1160px': 4, '1480px': 5 }}
      spacing="md"
      role="grid"
      aria-multiselectable
      aria-label={inTrash ? 'Deleted folders and projects' : 'Folders and projects'}
      onKeyDown={onKeyDown}
    >
      {/* One row for the whole grid: the rows on screen follow its width, not the markup. */}
      <div role="row" style={{ display: 'contents' }}>
        {items.map((item) => (
          <ItemTile
            key={item.id}
            item={item}
            selected={selected.has(item.id)}
            tabStop={item.id === tabStop}
            inTrash={inTrash ?? false}
            dragItems={() => dragItems(item)}
            onSelect={(event) => onSelect(item.id, event)}
            onFocus={() => setFocusedId(item.id)}
            onAction={(action) => onAction(item, action)}
            extraMenuItems={extraMenuItems?.(item)}
            {...(onDropItems ? { onDropItems } : {})}
          />
        ))}
      </div>
    </SimpleGrid>
  );
}
