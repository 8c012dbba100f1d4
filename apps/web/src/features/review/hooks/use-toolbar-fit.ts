import { useLayoutEffect, useState, type RefObject } from 'react';
import { fittingCount } from '../toolbar-fit';

/** Marks a toolbar action's box, measured whether shown or moved behind More. */
export const TOOLBAR_ITEM = 'data-toolbar-item';
/** Marks the More button's box, measured even while it is not needed. */
export const TOOLBAR_MORE = 'data-toolbar-more';

const widthOf = (element: Element) => element.getBoundingClientRect().width;

/**
 * How many of the row's actions fit beside the More button, kept up to date as the row or an
 * action changes width (a window resized, a phone turned, a count that gains a digit).
 */
export function useToolbarFit(row: RefObject<HTMLElement | null>, count: number): number {
  const [visible, setVisible] = useState(count);
  useLayoutEffect(() => {
    const element = row.current;
    if (!element) return;
    const items = [...element.querySelectorAll(`[${TOOLBAR_ITEM}]`)];
    const more = element.querySelector(`[${TOOLBAR_MORE}]`);
    const measure = () => {
      const gap = parseFloat(getComputedStyle(element).columnGap) || 0;
      setVisible(fittingCount(items.map(widthOf), element.clientWidth, gap, more ? widthOf(more) : 0));
    };
    measure();
    const observer = new ResizeObserver(measure);
    for (const target of [element, ...items]) observer.observe(target);
    return () => observer.disconnect();
  }, [row, count]);
  return visible;
}
