/**
 * Space-drag pans the canvas: while Space is held with the focus on the canvas (or on nothing), a drag scrolls
 * the canvas's box instead of reaching Konva (no marquee, no element moved). The pointer shows a hand.
 */
import { useEffect, type RefObject } from 'react';

export function useSpacePan(box: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    const el = box.current;
    if (!el || !active) return;
    let held = false;
    let from: { x: number; y: number; left: number; top: number } | null = null;
    const ours = (target: EventTarget | null) =>
      target === document.body || (target instanceof Node && el.contains(target));
    const cursor = () => {
      el.style.cursor = from ? 'grabbing' : held ? 'grab' : '';
    };
    const release = () => {
      held = false;
      from = null;
      cursor();
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.code !== 'Space' || !ours(e.target)) return;
      // Not the page scrolling a screen down.
      e.preventDefault();
      held = true;
      cursor();
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.code === 'Space') release();
    };
    // Captured before Konva's own listeners inside the box see the press (its default prevented, no mouse
    // events follow it: the pan follows the pointer events).
    const onDown = (e: PointerEvent) => {
      if (!held || e.button !== 0) return;
      e.stopPropagation();
      e.preventDefault();
      from = { x: e.clientX, y: e.clientY, left: el.scrollLeft, top: el.scrollTop };
      cursor();
    };
    const onMove = (e: PointerEvent) => {
      if (!from) return;
      el.scrollLeft = from.left - (e.clientX - from.x);
      el.scrollTop = from.top - (e.clientY - from.y);
    };
    const onUp = () => {
      if (!from) return;
      from = null;
      cursor();
    };
    el.addEventListener('pointerdown', onDown, true);
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('keydown', onKeyDown);
    window.addEventListener('keyup', onKeyUp);
    window.addEventListener('blur', release);
    return () => {
      el.removeEventListener('pointerdown', onDown, true);
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('blur', release);
      el.style.cursor = '';
    };
  }, [box, active]);
}
