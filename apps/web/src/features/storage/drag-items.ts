import type { ItemRef } from './api';

/** Tiles dragged inside the app carry this type; a drop of real files carries 'Files'. */
export const ITEMS_MIME = 'application/x-mixroom-items';

export const readDraggedItems = (data: DataTransfer): ItemRef[] => {
  try {
    return JSON.parse(data.getData(ITEMS_MIME) || '[]') as ItemRef[];
  } catch {
    return [];
  }
};

export const isItemDrag = (data: DataTransfer) => data.types.includes(ITEMS_MIME);
