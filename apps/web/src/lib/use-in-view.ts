import { useCallback, useEffect, useRef } from 'react';

/** Calls `onVisible` whenever the element scrolls into view (infinite lists). */
export function useInView(onVisible: () => void) {
  const callback = useRef(onVisible);
  useEffect(() => {
    callback.current = onVisible;
  });
  const observer = useRef<IntersectionObserver | null>(null);
  return useCallback((node: HTMLElement | null) => {
    observer.current?.disconnect();
    if (!node) return;
    observer.current = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && callback.current(),
      { rootMargin: '400px' },
    );
    observer.current.observe(node);
  }, []);
}
