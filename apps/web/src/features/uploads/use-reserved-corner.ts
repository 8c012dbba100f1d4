import { useCallback, useEffect, useRef } from 'react';

/** Space kept between the element's top and whatever stacks above it, in pixels. */
const GAP_PX = 8;

/** Fired on the window each time a reserved corner changes size (or goes), after its variable is set. */
export const RESERVED_CORNER_EVENT = 'mixroom:reserved-corner';

/**
 * Publishes how much of the bottom of the window an element fixed there takes (its height, its
 * distance from the bottom, and a gap) as a CSS variable on the document, kept up to date as it
 * grows or collapses, and removed when it goes. Other fixed layers (toasts) stack above it.
 */
export function useReservedCorner(variable: string): (element: HTMLElement | null) => void {
  const observer = useRef<ResizeObserver | null>(null);
  const release = useCallback(() => {
    observer.current?.disconnect();
    observer.current = null;
    document.documentElement.style.removeProperty(variable);
    window.dispatchEvent(new Event(RESERVED_CORNER_EVENT));
  }, [variable]);
  useEffect(() => release, [release]);
  return useCallback(
    (element: HTMLElement | null) => {
      release();
      if (!element) return;
      const publish = () => {
        const { top } = element.getBoundingClientRect();
        document.documentElement.style.setProperty(variable, `${Math.max(0, window.innerHeight - top) + GAP_PX}px`);
        window.dispatchEvent(new Event(RESERVED_CORNER_EVENT));
      };
      observer.current = new ResizeObserver(publish);
      observer.current.observe(element);
      publish();
    },
    [release, variable],
  );
}
