/** Snapping to the printer's dot grid and to guides (issue #22): what lands where at 203, 300 and 600 dpi. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { px, pxToDots } from '../../../src/units/units';
import { DESIGN_DPIS, newDesign } from '../../../renderer/src/design/design-document';
import { elementBox } from '../../../renderer/src/design/geometry';
import { addElement, moveBy, resize } from '../../../renderer/src/design/operations';
import {
  guidesOf,
  snapBoxToDots,
  snapMove,
  snapToDots,
  snapToGuides,
  type Guide,
} from '../../../renderer/src/design/snap';
import { ELEMENT_TYPES } from '../../../src/model/elements';

/** The position in dots at `dpi`, and how far it is from a whole dot. */
const offGrid = (v: number, dpi: number) => {
  const d = pxToDots(px(v), dpi);
  return Math.abs(d - Math.round(d));
};
const WHOLE = 1e-9;

const dpi = fc.constantFrom(...DESIGN_DPIS);
const position = fc.double({ min: -2000, max: 2000, noNaN: true });
const size = fc.double({ min: 0.01, max: 2000, noNaN: true });

describe('dot grid', () => {
  it('puts any position on the nearest whole dot, at most half a dot away', () => {
    fc.assert(
      fc.property(position, dpi, (v, d) => {
        const snapped = snapToDots(v, d);
        expect(offGrid(snapped, d)).toBeLessThan(WHOLE);
        expect(Math.abs(pxToDots(px(snapped - v), d))).toBeLessThanOrEqual(0.5 + WHOLE);
        expect(snapToDots(snapped, d)).toBeCloseTo(snapped, 9);
      }),
    );
  });

  it('puts a box edges and size on whole dots, and never shrinks a size to nothing', () => {
    fc.assert(
      fc.property(position, position, size, size, dpi, (x, y, width, height, d) => {
        const box = snapBoxToDots({ x, y, width, height }, d);
        for (const v of [box.x, box.y, box.width, box.height, box.x + box.width, box.y + box.height])
          expect(offGrid(v, d)).toBeLessThan(1e-6);
        expect(Math.round(pxToDots(px(box.width), d))).toBeGreaterThanOrEqual(1);
      }),
    );
  });

  it('resizes every kind of element to whole-dot positions and widths', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ELEMENT_TYPES),
        position,
        position,
        size,
        size,
        dpi,
        (type, x, y, width, height, d) => {
          const { doc } = addElement(newDesign({ name: 't', size: '4x6', unit: 'in', dpi: d }), type);
          const box = elementBox(resize(doc, 0, { x, y, width, height }).template.elements[0]!);
          expect(offGrid(box.x, d)).toBeLessThan(1e-6);
          expect(offGrid(box.y, d)).toBeLessThan(1e-6);
          expect(offGrid(box.width, d)).toBeLessThan(1e-6);
          expect(offGrid(box.height, d)).toBeLessThan(1e-6);
        },
      ),
    );
  });

  it('moves by exactly one dot per arrow key, ten with Shift', () => {
    for (const d of DESIGN_DPIS) {
      const { doc } = addElement(newDesign({ name: 't', size: '4x6', unit: 'in', dpi: d }), 'rect');
      const before = pxToDots(px(elementBox(doc.template.elements[0]!).x), d);
      const once = moveBy(doc, [0], 1, 0);
      const shift = moveBy(once, [0], 0, -10);
      const after = elementBox(shift.template.elements[0]!);
      expect(pxToDots(px(after.x), d) - before).toBeCloseTo(1, 9);
      expect(pxToDots(px(after.y), d)).toBeCloseTo(
        pxToDots(px(elementBox(doc.template.elements[0]!).y), d) - 10,
        9,
      );
    }
  });

  it('brings an element that was off the grid onto it with the first arrow key', () => {
    const { doc } = addElement(newDesign({ name: 't', size: '2x1', unit: 'in', dpi: 203 }), 'text');
    const off = {
      ...doc,
      template: { ...doc.template, elements: [{ ...doc.template.elements[0]!, x: 10.3 }] },
    };
    const moved = elementBox(moveBy(off, [0], 1, 0).template.elements[0]!);
    expect(offGrid(moved.x, 203)).toBeLessThan(WHOLE);
    expect(Math.round(pxToDots(px(moved.x), 203))).toBe(Math.round(pxToDots(px(10.3), 203)) + 1);
  });
});

describe('guides', () => {
  const g = (axis: Guide['axis'], at: number, source: Guide['source'] = 0): Guide => ({
    axis,
    at,
    source,
    kind: 'edge',
  });

  it('snaps the nearest edge or centre of the box to the nearest guide within the tolerance', () => {
    const box = { x: 100, y: 50, width: 40, height: 20 };
    // Left edge 3 px from 97, right edge 2 px from 142, centre 1 px from 121: the centre wins.
    const snap = snapToGuides(box, [g('x', 97), g('x', 142), g('x', 121)], 5, 1);
    expect(snap.box.x).toBe(101);
    expect(snap.x?.at).toBe(121);
    expect(snap.y).toBeNull();
    expect(snap.box.y).toBe(50);
  });

  it('measures the tolerance on screen: at 4× zoom 5 screen px is 1.25 template px', () => {
    const box = { x: 100, y: 0, width: 10, height: 10 };
    expect(snapToGuides(box, [g('x', 98)], 5, 4).x).toBeNull();
    expect(snapToGuides(box, [g('x', 98)], 5, 1).box.x).toBe(98);
    expect(snapToGuides(box, [g('x', 99)], 5, 4).box.x).toBe(99);
  });

  it('prefers the label to an element at the same distance', () => {
    const box = { x: 10, y: 0, width: 10, height: 10 };
    const snap = snapToGuides(box, [g('x', 8, 3), g('x', 12, 'label')], 5, 1);
    expect(snap.x?.source).toBe('label');
  });

  it('offers the label edges and centre and the other elements, not the ones moving', () => {
    let { doc } = addElement(newDesign({ name: 't', size: '4x6', unit: 'in', dpi: 203 }), 'rect');
    doc = addElement(doc, 'rect', { x: 200, y: 300 }).doc;
    const guides = guidesOf(doc.template, new Set([0]));
    const xs = guides.filter((x) => x.axis === 'x');
    expect(xs.filter((x) => x.source === 'label').map((x) => x.at)).toEqual([0, 192, 384]);
    expect(xs.some((x) => x.source === 0)).toBe(false);
    expect(xs.filter((x) => x.source === 1).map((x) => x.kind)).toEqual(['edge', 'centre', 'edge']);
  });

  it('a dragged box ends on a guide and on whole dots', () => {
    const doc = newDesign({ name: 't', size: '4x6', unit: 'in', dpi: 300 });
    const moved = snapMove({ x: 181.5, y: 7, width: 20, height: 20 }, guidesOf(doc.template), {
      dpi: 300,
      tolerance: 6,
      zoom: 1,
    });
    // Its centre snaps to the label's centre line (x = 192 px = 600 dots), then its left edge to a dot.
    expect(moved.x?.kind).toBe('centre');
    expect(offGrid(moved.box.x, 300)).toBeLessThan(WHOLE);
    expect(Math.abs(moved.box.x + 10 - 192)).toBeLessThanOrEqual(96 / 300 / 2 + 1e-9);
  });
});
