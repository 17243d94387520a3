/** A React hook: an element's content-box size, followed with a ResizeObserver. */
import { useEffect, useState, type RefObject } from 'react';

/**
 * The element's size, kept up to date; `shown` (when the element comes and goes with the screen's state)
 * re-attaches the observer to the element now under `ref`.
 */
export function useSize(ref: RefObject<HTMLElement | null>, shown = true): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, shown]);
  return size;
}
