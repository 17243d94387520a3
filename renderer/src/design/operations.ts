/**
 * The designer's edits of elements, as pure functions from one document to the next (the store keeps the
 * documents in its history). Positions and sizes are px at 96 dpi and land on whole dots of the document's
 * dpi. Indices are positions in `template.elements`, which is also the paint order: the last is on top. An edit
 * that changes which indices the selection means returns the new selection with the document.
 */
import type { Element, ElementType } from '../../../src/model/elements';
import type { Template } from '../../../src/model/schema';
import { dots, dotsToPx, inch, inchesToSceneUnits, stageToPx } from '../../../src/units/units';
import type { DesignDocument } from './design-document';
import { defaultElement } from './element-defaults';
import { elementBox, moveTo, unionBox, withBox, type Box } from './geometry';
import { snapBoxToDots, snapToDots } from './snap';

/** A document and the elements selected after the edit. */
export interface Edit {
  doc: DesignDocument;
  selection: number[];
}

export const withElements = (doc: DesignDocument, elements: Element[]): DesignDocument => ({
  ...doc,
  template: { ...doc.template, elements },
});

const mapSelected = (
  doc: DesignDocument,
  indices: readonly number[],
  f: (el: Element, index: number) => Element,
): DesignDocument => {
  const chosen = new Set(indices);
  return withElements(
    doc,
    doc.template.elements.map((el, i) => (chosen.has(i) ? f(el, i) : el)),
  );
};

/** The label as a box in px (0, 0 at its top-left corner). */
export function labelBox(template: Template): Box {
  const { width, height, unit } = template.stage;
  return { x: 0, y: 0, width: stageToPx(width, unit), height: stageToPx(height, unit) };
}

/** How far pasted and duplicated elements are offset from their originals: 0.1 in in whole dots (20 at 203 dpi). */
export const pasteOffsetDots = (dpi: number): number => Math.round(inchesToSceneUnits(inch(0.1), dpi));

/**
 * Adds a new element of `type` on top of the others, its top-left corner at `at` (default: 0.1 in from the
 * label's corner), on whole dots; it becomes the selection.
 */
export function addElement(doc: DesignDocument, type: ElementType, at?: { x: number; y: number }): Edit {
  const margin = dotsToPx(dots(pasteOffsetDots(doc.dpi)), doc.dpi);
  const el = defaultElement(type, at?.x ?? margin, at?.y ?? margin);
  const placed = withBox(el, snapBoxToDots(elementBox(el), doc.dpi));
  return {
    doc: withElements(doc, [...doc.template.elements, placed]),
    selection: [doc.template.elements.length],
  };
}

/** Moves elements by whole dots (the arrow keys: 1 dot, 10 with Shift); each lands on the dot grid. */
export function moveBy(
  doc: DesignDocument,
  indices: readonly number[],
  dxDots: number,
  dyDots: number,
): DesignDocument {
  const dx = dotsToPx(dots(dxDots), doc.dpi);
  const dy = dotsToPx(dots(dyDots), doc.dpi);
  return mapSelected(doc, indices, (el) => {
    const box = elementBox(el);
    return moveTo(el, snapToDots(box.x + dx, doc.dpi), snapToDots(box.y + dy, doc.dpi));
  });
}

/** Places elements' boxes (a drag, a resize, a typed position or size), each snapped to whole dots. */
export function placeBoxes(doc: DesignDocument, boxes: ReadonlyMap<number, Box>): DesignDocument {
  return mapSelected(doc, [...boxes.keys()], (el, i) => withBox(el, snapBoxToDots(boxes.get(i)!, doc.dpi)));
}

/** Resizes one element to `box` (px), on whole dots. */
export const resize = (doc: DesignDocument, index: number, box: Box): DesignDocument =>
  placeBoxes(doc, new Map([[index, box]]));

/**
 * Sets attributes of elements (the properties panel); `undefined` removes an optional attribute. The type is
 * not an attribute that can be set. Values are checked when the template is saved (problems at the element).
 */
export function setProperties(
  doc: DesignDocument,
  indices: readonly number[],
  patch: Readonly<Record<string, unknown>>,
): DesignDocument {
  if ('type' in patch) throw new Error('an element keeps its type: delete it and add another');
  return mapSelected(doc, indices, (el) => {
    const next: Record<string, unknown> = { ...el };
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    return next as Element;
  });
}

/** The template's own attributes (name, title, description, purpose, stage); `undefined` removes one. */
export function setTemplateProperties(
  doc: DesignDocument,
  patch: Partial<Pick<Template, 'name' | 'title' | 'description' | 'purpose' | 'stage'>>,
): DesignDocument {
  const template: Record<string, unknown> = { ...doc.template };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete template[key];
    else template[key] = value;
  }
  return { ...doc, template: template as Template };
}

export function deleteElements(doc: DesignDocument, indices: readonly number[]): Edit {
  const gone = new Set(indices);
  return {
    doc: withElements(
      doc,
      doc.template.elements.filter((_, i) => !gone.has(i)),
    ),
    selection: [],
  };
}

/** `base`, or `base-2`, `base-3`… whichever no element uses yet. */
function freshId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/**
 * Adds copies of `elements` on top, offset by `offsetDots` on both axes (paste, duplicate); they become the
 * selection. A copy of an element with an id gets an id of its own (ids stay unique).
 */
export function insertElements(doc: DesignDocument, elements: readonly Element[], offsetDots: number): Edit {
  const offset = dotsToPx(dots(offsetDots), doc.dpi);
  const taken = new Set(doc.template.elements.flatMap((el) => (el.id === undefined ? [] : [el.id])));
  const copies = elements.map((el) => {
    const box = elementBox(el);
    const moved = moveTo(
      structuredClone(el),
      snapToDots(box.x + offset, doc.dpi),
      snapToDots(box.y + offset, doc.dpi),
    );
    return el.id === undefined ? moved : { ...moved, id: freshId(el.id, taken) };
  });
  const first = doc.template.elements.length;
  return {
    doc: withElements(doc, [...doc.template.elements, ...copies]),
    selection: copies.map((_, i) => first + i),
  };
}

/** Copies of the elements at `indices` (in paint order), offset by 0.1 in, on top of the others. */
export function duplicateElements(doc: DesignDocument, indices: readonly number[]): Edit {
  const chosen = new Set(indices);
  const originals = doc.template.elements.filter((_, i) => chosen.has(i));
  return insertElements(doc, originals, pasteOffsetDots(doc.dpi));
}

export const Z_ORDERS = ['front', 'back', 'forward', 'backward'] as const;
export type ZOrder = (typeof Z_ORDERS)[number];

/**
 * Changes the paint order: to the front or back (the selected elements keep their order among themselves), or
 * one step forward or backward past the next element that is not selected.
 */
export function reorder(doc: DesignDocument, indices: readonly number[], to: ZOrder): Edit {
  const chosen = new Set(indices);
  const tagged = doc.template.elements.map((el, i) => ({ el, selected: chosen.has(i) }));
  let order: typeof tagged;
  if (to === 'front' || to === 'back') {
    const selected = tagged.filter((t) => t.selected);
    const rest = tagged.filter((t) => !t.selected);
    order = to === 'front' ? [...rest, ...selected] : [...selected, ...rest];
  } else {
    order = [...tagged];
    const step = to === 'forward' ? 1 : -1;
    const start = to === 'forward' ? order.length - 2 : 1;
    for (let i = start; i >= 0 && i < order.length; i -= step) {
      const j = i + step;
      if (order[i]!.selected && !order[j]!.selected) [order[i], order[j]] = [order[j]!, order[i]!];
    }
  }
  return {
    doc: withElements(
      doc,
      order.map((t) => t.el),
    ),
    selection: order.flatMap((t, i) => (t.selected ? [i] : [])),
  };
}

export const ALIGNMENTS = ['left', 'centre', 'right', 'top', 'middle', 'bottom'] as const;
export type Alignment = (typeof ALIGNMENTS)[number];

/**
 * Aligns elements: one alone to the label, several to the box around them all. Each lands on whole dots (a
 * centre between two dots is met to within half a dot).
 */
export function align(doc: DesignDocument, indices: readonly number[], to: Alignment): DesignDocument {
  const els = doc.template.elements;
  const boxes = indices.flatMap((i) => (els[i] ? [elementBox(els[i])] : []));
  const ref = boxes.length === 1 ? labelBox(doc.template) : unionBox(boxes);
  if (!ref) return doc;
  return mapSelected(doc, indices, (el) => {
    const box = elementBox(el);
    let { x, y } = box;
    if (to === 'left') x = ref.x;
    else if (to === 'centre') x = ref.x + (ref.width - box.width) / 2;
    else if (to === 'right') x = ref.x + ref.width - box.width;
    else if (to === 'top') y = ref.y;
    else if (to === 'middle') y = ref.y + (ref.height - box.height) / 2;
    else y = ref.y + ref.height - box.height;
    return moveTo(el, snapToDots(x, doc.dpi), snapToDots(y, doc.dpi));
  });
}

/**
 * Spaces three or more elements evenly along an axis (`x`: across, `y`: down): the outermost two stay, the
 * gaps between neighbours become equal (to within a dot: every position stays on whole dots).
 */
export function distribute(doc: DesignDocument, indices: readonly number[], axis: 'x' | 'y'): DesignDocument {
  const els = doc.template.elements;
  const items = indices
    .flatMap((i) => (els[i] ? [{ i, box: elementBox(els[i]) }] : []))
    .map(({ i, box }) => ({
      i,
      start: axis === 'x' ? box.x : box.y,
      size: axis === 'x' ? box.width : box.height,
    }))
    .sort((a, b) => a.start - b.start || a.i - b.i);
  if (items.length < 3) return doc;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const span = last.start + last.size - first.start;
  const gap = (span - items.reduce((sum, it) => sum + it.size, 0)) / (items.length - 1);
  const starts = new Map<number, number>();
  let at = first.start;
  for (const it of items) {
    starts.set(it.i, it === first || it === last ? it.start : snapToDots(at, doc.dpi));
    at += it.size + gap;
  }
  return mapSelected(doc, [...starts.keys()], (el, i) => {
    const box = elementBox(el);
    const start = starts.get(i)!;
    return axis === 'x' ? moveTo(el, start, box.y) : moveTo(el, box.x, start);
  });
}
