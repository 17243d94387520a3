/**
 * A new element of each kind the model has, as the designer's palette adds it: visible at once (black ink,
 * a sensible size for a label), valid for every output, completed by the template schema's own defaults.
 */
import { assertNever } from '../../../src/base/assert-never';
import {
  TemplateElementSchema,
  type Element,
  type ElementInput,
  type ElementType,
} from '../../../src/model/elements';
import { moveTo } from './geometry';

const INK = '#000000';

/** The element's own attributes before placement (px at 96 dpi; x, y are set by the caller). */
function defaultsOf(type: ElementType): ElementInput {
  switch (type) {
    case 'text':
      return { type, text: 'Text', width: 192, height: 24, font: { size: 18, color: INK } };
    case 'image':
      // No picture yet: the properties panel asks for one (a data: URL, a file or an http(s) address).
      return { type, url: '', width: 96, height: 96, fit: 'contain' };
    case 'barcode':
      return { type, format: 'code128', text: '12345678', width: 192, height: 64, humanReadable: true };
    case 'line':
      return { type, points: [0, 0, 192, 0], stroke: INK, strokeWidth: 2 };
    case 'rect':
      return { type, width: 96, height: 48, stroke: INK, strokeWidth: 2 };
    case 'circle':
      return { type, radius: 24, stroke: INK, strokeWidth: 2 };
    case 'ellipse':
      return { type, radiusX: 36, radiusY: 24, stroke: INK, strokeWidth: 2 };
    case 'wedge':
      return { type, radius: 24, angle: 90, fill: INK };
    case 'ring':
      return { type, innerRadius: 16, outerRadius: 24, fill: INK };
    case 'arc':
      return { type, innerRadius: 16, outerRadius: 24, angle: 180, fill: INK };
    case 'rfid':
      // Not printed: the box only shows where the element sits. A valid 96-bit EPC until one is bound.
      return { type, epc: '000000000000000000000000', width: 96, height: 24 };
    default:
      return assertNever(type, 'element type');
  }
}

/** A new element of `type` with its top-left corner (its box's, for shapes drawn about a centre) at (x, y). */
export function defaultElement(type: ElementType, x: number, y: number): Element {
  return moveTo(TemplateElementSchema.parse(defaultsOf(type)), x, y);
}
