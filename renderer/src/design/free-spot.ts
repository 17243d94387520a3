/**
 * Where the palette puts a new element: the first place, row by row in steps of 0.1 in, where its default box
 * fits on the label without covering another element; the label's corner when there is none. Pure.
 */
import type { ElementType } from '../../../src/model/elements';
import { dots, dotsToPx } from '../../../src/units/units';
import type { DesignDocument } from './design-document';
import { defaultElement } from './element-defaults';
import { elementBox, type Box } from './geometry';
import { labelBox, pasteOffsetDots } from './operations';

const overlaps = (a: Box, b: Box, gap: number): boolean =>
  a.x < b.x + b.width + gap &&
  b.x < a.x + a.width + gap &&
  a.y < b.y + b.height + gap &&
  b.y < a.y + a.height + gap;

export function freeSpot(doc: DesignDocument, type: ElementType): { x: number; y: number } {
  const size = elementBox(defaultElement(type, 0, 0));
  const label = labelBox(doc.template);
  const step: number = dotsToPx(dots(pasteOffsetDots(doc.dpi)), doc.dpi);
  const taken = doc.template.elements.map(elementBox);
  for (let y = step; y + size.height <= label.height; y += step) {
    for (let x = step; x + size.width <= label.width; x += step) {
      const box = { x, y, width: size.width, height: size.height };
      if (!taken.some((t) => overlaps(t, box, step / 2))) return { x, y };
    }
  }
  return { x: step, y: step };
}
