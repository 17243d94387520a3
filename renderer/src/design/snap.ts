/**
 * Snapping in the designer: to the target printer's dot grid (positions and sizes on whole dots, so what is
 * drawn is what the head burns) and to guides — the edges and centres of the label and of the other elements —
 * within a tolerance measured on screen. Lengths are px at 96 dpi (the templates' unit); every conversion to
 * dots goes through src/units/units.ts.
 */
import { dots, dotsToPx, px, snapPxToDots, stageToPx } from '../../../src/units/units';
import type { Template } from '../../../src/model/schema';
import { elementBox, type Box } from './geometry';

/** A px position or length on whole dots at `dpi`. */
export const snapToDots = (v: number, dpi: number): number => snapPxToDots(px(v), dpi);

/**
 * A box on the dot grid: its left and top edges and its width and height each on whole dots (so its right
 * and bottom edges are too). A size never snaps below one dot unless it was 0.
 */
export function snapBoxToDots(box: Box, dpi: number): Box {
  const size = (v: number) => (v > 0 ? Math.max(snapToDots(v, dpi), dotsToPx(dots(1), dpi)) : 0);
  return {
    x: snapToDots(box.x, dpi),
    y: snapToDots(box.y, dpi),
    width: size(box.width),
    height: size(box.height),
  };
}

export type GuideAxis = 'x' | 'y';

/** A line a moving box can snap to: vertical (`x`) or horizontal (`y`), at a px position. */
export interface Guide {
  axis: GuideAxis;
  at: number;
  /** What drew it: the label, or the element at this index. */
  source: 'label' | number;
  kind: 'edge' | 'centre';
}

/** The label's edges and centre lines, and each element's (except those in `exclude`, the ones moving). */
export function guidesOf(template: Template, exclude: ReadonlySet<number> = new Set()): Guide[] {
  const { width, height, unit } = template.stage;
  const label: Box = { x: 0, y: 0, width: stageToPx(width, unit), height: stageToPx(height, unit) };
  const guides = boxGuides(label, 'label');
  template.elements.forEach((el, i) => {
    if (!exclude.has(i) && el.visible) guides.push(...boxGuides(elementBox(el), i));
  });
  return guides;
}

function boxGuides(box: Box, source: Guide['source']): Guide[] {
  const out: Guide[] = [];
  for (const [axis, start, size] of [
    ['x', box.x, box.width],
    ['y', box.y, box.height],
  ] as const) {
    out.push({ axis, at: start, source, kind: 'edge' });
    out.push({ axis, at: start + size / 2, source, kind: 'centre' });
    out.push({ axis, at: start + size, source, kind: 'edge' });
  }
  return out;
}

export interface GuideSnap {
  /** The box moved onto the nearest guides (unchanged on an axis with none within the tolerance). */
  box: Box;
  /** The guide snapped to on each axis, to draw while dragging. */
  x: Guide | null;
  y: Guide | null;
}

/**
 * Moves `box` so that the one of its edges or centre nearest to a guide lands on it, per axis, when that guide
 * is within `tolerance` screen px; `zoom` is screen px per template px. The nearest guide wins; on a tie, the
 * label's over an element's, then the one listed first.
 */
export function snapToGuides(box: Box, guides: readonly Guide[], tolerance: number, zoom: number): GuideSnap {
  const limit = tolerance / zoom;
  const pick = (axis: GuideAxis, start: number, size: number) => {
    let best: { guide: Guide; shift: number } | null = null;
    for (const guide of guides) {
      if (guide.axis !== axis) continue;
      for (const point of [start, start + size / 2, start + size]) {
        const shift = guide.at - point;
        if (Math.abs(shift) > limit) continue;
        const better =
          !best ||
          Math.abs(shift) < Math.abs(best.shift) ||
          (Math.abs(shift) === Math.abs(best.shift) &&
            guide.source === 'label' &&
            best.guide.source !== 'label');
        if (better) best = { guide, shift };
      }
    }
    return best;
  };
  const sx = pick('x', box.x, box.width);
  const sy = pick('y', box.y, box.height);
  return {
    box: { ...box, x: box.x + (sx?.shift ?? 0), y: box.y + (sy?.shift ?? 0) },
    x: sx?.guide ?? null,
    y: sy?.guide ?? null,
  };
}

/**
 * Where a dragged box lands: on the nearest guide within the tolerance, then on whole dots (a guide between
 * two dots — the centre of a box an odd number of dots wide — is met to within half a dot, which no printer
 * can tell apart).
 */
export function snapMove(
  box: Box,
  guides: readonly Guide[],
  options: { dpi: number; tolerance: number; zoom: number },
): GuideSnap {
  const guided = snapToGuides(box, guides, options.tolerance, options.zoom);
  return {
    ...guided,
    box: {
      ...guided.box,
      x: snapToDots(guided.box.x, options.dpi),
      y: snapToDots(guided.box.y, options.dpi),
    },
  };
}
