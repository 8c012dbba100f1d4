import type { ReactNode } from 'react';
import { SimpleGrid } from '@mantine/core';
import type { MouseEvent } from 'react';
import type { StorageItem } from '@mixroom/contracts';
import type { ItemRef } from '../api';
import { ItemTile, type TileAction } from './item-tile';

interface Props {
  items: StorageItem[];
  selected: Set<string>;
  inTrash?: boolean;
  onSelect: (id: string, event: MouseEvent) => void;
  onAction: (item: StorageItem, action: TileAction) => void;
  onDropItems?: (items: ItemRef[], to: string) => void;
  /** Extra menu items for a tile, from other features through the page. */
  extraMenuItems?: (item: StorageItem) => ReactNode;
}

/** Tiles in a responsive grid: one column on phones, as many 300 px tiles as fit elsewhere. */
export function ItemGrid({ items, selected, inTrash, onSelect, onAction, onDropItems, extraMenuItems }: Props) {
  const dragItems = (item: StorageItem): ItemRef[] =>
    selected.has(item.id)
      ? items.filter((i) => selected.has(i.id)).map((i) => ({ kind: i.kind, id: i.id }))
      : [{ kind: item.kind, id: item.id }];
  return (
    <SimpleGrid type="container" cols={{ base: 1, '520px': 2, '840px': 3, '1160px': 4, '1480px': 5 }} spacing="md">
      {items.map((item) => (
        <ItemTile
          key={item.id}
          item={item}
          selected={selected.has(item.id)}
          inTrash={inTrash ?? false}
          dragItems={() => dragItems(item)}
          onSelect={(event) => onSelect(item.id, event)}
          onAction={(action) => onAction(item, action)}
          extraMenuItems={extraMenuItems?.(item)}
          {...(onDropItems ? { onDropItems } : {})}
        />
      ))}
    </SimpleGrid>
  );
}
