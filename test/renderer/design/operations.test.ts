/** The designer's edits of a template (issue #22): each gives a template that validates and does what it says. */
import { describe, expect, it } from 'vitest';
import { ELEMENT_TYPES, type Element } from '../../../src/model/elements';
import { parseTemplate } from '../../../src/model/parse';
import { px, pxToDots } from '../../../src/units/units';
import {
  LABEL_PRESETS,
  newDesign,
  openDesign,
  type DesignDocument,
} from '../../../renderer/src/design/design-document';
import { elementBox } from '../../../renderer/src/design/geometry';
import {
  addElement,
  align,
  deleteElements,
  distribute,
  duplicateElements,
  reorder,
  setProperties,
} from '../../../renderer/src/design/operations';
import { bundledTemplate } from '../../support/templates';

const blank = (dpi: 203 | 300 | 600 = 203) => newDesign({ name: 'my-label', size: '4x6', unit: 'in', dpi });
const dotsOf = (v: number, dpi = 203) => pxToDots(px(v), dpi);

/** A document with rects named a, b, c… at the given (x, y, width) in px. */
function rects(...specs: [string, number, number, number][]): DesignDocument {
  let doc = blank();
  for (const [name, x, y, width] of specs) {
    const { doc: next } = addElement(doc, 'rect', { x, y });
    doc = setProperties(next, [next.template.elements.length - 1], { name, width, x, y });
  }
  return doc;
}
const names = (doc: DesignDocument) => doc.template.elements.map((e) => e.name);

describe('new and opened templates', () => {
  it('makes every preset in inches or millimetres, a valid empty template', () => {
    for (const preset of LABEL_PRESETS) {
      for (const unit of ['in', 'mm'] as const) {
        const doc = newDesign({ name: `p-${preset.id}`, size: preset.id, unit, dpi: 300 });
        expect(() => parseTemplate(doc.template)).not.toThrow();
        expect(doc.template.stage.unit).toBe(unit);
      }
    }
    const mm = newDesign({ name: 'x', size: '4x6', unit: 'mm', dpi: 203 }).template.stage;
    expect([mm.width, mm.height]).toEqual([101.6, 152.4]);
    const a4 = newDesign({ name: 'x', size: 'a4', unit: 'in', dpi: 203 }).template.stage;
    expect(a4.width).toBeCloseTo(8.2677, 4);
    const custom = newDesign({ name: 'x', size: { width: 50, height: 25 }, unit: 'mm', dpi: 600 });
    expect(custom.template.stage).toMatchObject({ width: 50, height: 25, unit: 'mm' });
  });

  it('opens a template in its own unit (cm shown in mm, px in inches)', () => {
    expect(openDesign(bundledTemplate('packing-slip-a4'), 203).unit).toBe('mm');
    expect(openDesign(bundledTemplate('shipping-4x6'), 203).unit).toBe('in');
  });
});

describe('adding elements', () => {
  it('adds every element kind the model has, valid, on whole dots, selected, on top', () => {
    for (const dpi of [203, 300, 600] as const) {
      let doc = blank(dpi);
      for (const type of ELEMENT_TYPES) {
        const edit = addElement(doc, type, { x: 33.3, y: 47.1 });
        expect(edit.selection).toEqual([doc.template.elements.length]);
        doc = edit.doc;
      }
      const template = parseTemplate(doc.template);
      expect(template.elements.map((e) => e.type)).toEqual([...ELEMENT_TYPES]);
      for (const el of template.elements) {
        const box = elementBox(el);
        for (const v of [box.x, box.y, box.width, box.height]) {
          expect(Math.abs(dotsOf(v, dpi) - Math.round(dotsOf(v, dpi)))).toBeLessThan(1e-6);
        }
        expect(box.width).toBeGreaterThan(0);
      }
    }
  });
});

describe('editing elements', () => {
  it('sets and removes properties, never the type', () => {
    const { doc } = addElement(blank(), 'text');
    const bold = setProperties(doc, [0], {
      font: { ...(doc.template.elements[0] as Element & { font: object }).font, style: 'bold' },
      hideIfEmpty: true,
    });
    expect(bold.template.elements[0]).toMatchObject({ font: { style: 'bold' }, hideIfEmpty: true });
    expect(setProperties(bold, [0], { hideIfEmpty: undefined }).template.elements[0]).not.toHaveProperty(
      'hideIfEmpty',
    );
    expect(() => setProperties(doc, [0], { type: 'rect' })).toThrow(/keeps its type/);
  });

  it('deletes the selected elements and selects nothing', () => {
    const doc = rects(['a', 0, 0, 10], ['b', 20, 0, 10], ['c', 40, 0, 10]);
    const edit = deleteElements(doc, [0, 2]);
    expect(names(edit.doc)).toEqual(['b']);
    expect(edit.selection).toEqual([]);
  });

  it('duplicates on top, 0.1 in away, with ids of their own', () => {
    const doc = setProperties(rects(['a', 10, 10, 20], ['b', 50, 10, 20]), [0], { id: 'box' });
    const edit = duplicateElements(doc, [0, 1]);
    expect(names(edit.doc)).toEqual(['a', 'b', 'a', 'b']);
    expect(edit.selection).toEqual([2, 3]);
    const [orig, , copy] = edit.doc.template.elements.map(elementBox);
    expect(Math.round(dotsOf(copy!.x - orig!.x))).toBe(20);
    expect(Math.round(dotsOf(copy!.y - orig!.y))).toBe(20);
    expect(edit.doc.template.elements[2]!.id).toBe('box-2');
    expect(() => parseTemplate(edit.doc.template)).not.toThrow();
  });
});

describe('z-order', () => {
  const doc = rects(['a', 0, 0, 1], ['b', 0, 0, 1], ['c', 0, 0, 1], ['d', 0, 0, 1]);

  it('brings to the front and sends to the back, keeping the selected in their order', () => {
    const front = reorder(doc, [0, 2], 'front');
    expect(names(front.doc)).toEqual(['b', 'd', 'a', 'c']);
    expect(front.selection).toEqual([2, 3]);
    const back = reorder(doc, [1, 3], 'back');
    expect(names(back.doc)).toEqual(['b', 'd', 'a', 'c']);
    expect(back.selection).toEqual([0, 1]);
  });

  it('moves one step forward or backward, stopping at the ends', () => {
    expect(names(reorder(doc, [1], 'forward').doc)).toEqual(['a', 'c', 'b', 'd']);
    expect(names(reorder(doc, [3], 'forward').doc)).toEqual(['a', 'b', 'c', 'd']);
    expect(names(reorder(doc, [2, 3], 'forward').doc)).toEqual(['a', 'b', 'c', 'd']);
    const back = reorder(doc, [1, 3], 'backward');
    expect(names(back.doc)).toEqual(['b', 'a', 'd', 'c']);
    expect(back.selection).toEqual([0, 2]);
  });
});

describe('align and distribute', () => {
  it('aligns one element to the label', () => {
    const doc = rects(['a', 50, 50, 96]);
    const right = elementBox(align(doc, [0], 'right').template.elements[0]!);
    expect(right.x + right.width).toBeCloseTo(384, 6);
    const centre = elementBox(align(doc, [0], 'centre').template.elements[0]!);
    expect(centre.x + centre.width / 2).toBeCloseTo(192, 0);
    const bottom = elementBox(align(doc, [0], 'bottom').template.elements[0]!);
    expect(bottom.y + bottom.height).toBeCloseTo(576, 6);
  });

  it('aligns several to the box around them', () => {
    const doc = rects(['a', 10, 0, 20], ['b', 100, 60, 40]);
    const left = align(doc, [0, 1], 'left').template.elements.map(elementBox);
    expect(left.map((b) => Math.round(dotsOf(b.x)))).toEqual([21, 21]);
    const top = align(doc, [0, 1], 'top').template.elements.map(elementBox);
    expect(top.map((b) => b.y)).toEqual([0, 0]);
    const right = align(doc, [0, 1], 'right').template.elements.map(elementBox);
    expect(right[0]!.x + right[0]!.width).toBeCloseTo(right[1]!.x + right[1]!.width, 0);
  });

  it('spaces three or more evenly, the outer two staying, gaps equal to within a dot', () => {
    const doc = rects(['a', 0, 0, 20], ['b', 30, 0, 40], ['c', 200, 0, 20]);
    const boxes = distribute(doc, [0, 1, 2], 'x').template.elements.map(elementBox);
    expect(boxes[0]!.x).toBe(0);
    expect(boxes[2]!.x).toBeCloseTo(elementBox(doc.template.elements[2]!).x, 9);
    const gap1 = dotsOf(boxes[1]!.x - (boxes[0]!.x + boxes[0]!.width));
    const gap2 = dotsOf(boxes[2]!.x - (boxes[1]!.x + boxes[1]!.width));
    expect(Math.abs(gap1 - gap2)).toBeLessThanOrEqual(1 + 1e-9);
    expect(distribute(doc, [0, 1], 'x')).toBe(doc);
  });
});
