/**
 * The palette's placement (a new element goes where it covers nothing) and the problems the designer shows at
 * once, with the template schema's own messages at their element or field (issue #22).
 */
import { describe, expect, it } from 'vitest';
import { newDesign, type DesignDocument } from '../../../renderer/src/design/design-document';
import { addElement, setProperties } from '../../../renderer/src/design/operations';
import { elementBox } from '../../../renderer/src/design/geometry';
import { addField } from '../../../renderer/src/design/fields';
import { freeSpot } from '../../../renderer/src/design/free-spot';
import { mergeProblems, templateProblems } from '../../../renderer/src/design/problems';

const blank = (): DesignDocument => newDesign({ name: 'shelf-4x2', size: '4x2', unit: 'in', dpi: 203 });

describe('freeSpot', () => {
  it('puts each new element of every kind where it covers no other, inside the label', () => {
    let doc = blank();
    for (const type of ['text', 'barcode', 'rect', 'line'] as const) {
      doc = addElement(doc, type, freeSpot(doc, type)).doc;
    }
    const boxes = doc.template.elements.map(elementBox);
    for (const [i, a] of boxes.entries()) {
      expect(a.x + a.width).toBeLessThanOrEqual(384 + 1e-9);
      expect(a.y + a.height).toBeLessThanOrEqual(192 + 1e-9);
      for (const b of boxes.slice(i + 1)) {
        const apart =
          a.x + a.width < b.x || b.x + b.width < a.x || a.y + a.height < b.y || b.y + b.height < a.y;
        expect(apart, `${JSON.stringify(a)} and ${JSON.stringify(b)}`).toBe(true);
      }
    }
  });

  it('falls back to the corner when the label is full', () => {
    let doc = blank();
    for (let i = 0; i < 40; i++) doc = addElement(doc, 'rect', freeSpot(doc, 'rect')).doc;
    // 0.1 in on whole dots: 20 dots at 203 dpi.
    const corner = (20 * 96) / 203;
    const spot = freeSpot(doc, 'rect');
    expect(spot.x).toBeCloseTo(corner, 9);
    expect(spot.y).toBeCloseTo(corner, 9);
  });
});

describe('templateProblems', () => {
  it('none for a valid document', () => {
    const doc = addElement(addField(blank(), { name: 'sku' }), 'barcode').doc;
    expect(templateProblems(doc.template)).toEqual([]);
  });

  it('names the element and its attribute, and the field', () => {
    let doc = addElement(blank(), 'rect').doc;
    doc = setProperties(doc, [0], { stroke: 'not a colour' });
    doc = addField(doc, { name: '1bad' });
    const problems = templateProblems(doc.template);
    expect(problems).toContainEqual(
      expect.objectContaining({ path: 'elements[0].stroke', element: 0, field: null }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({ path: 'fields[0].name', element: null, field: 0 }),
    );
  });

  it('a name that cannot be a file name is a problem at name', () => {
    const doc = blank();
    const problems = templateProblems({ ...doc.template, name: 'a/b' });
    expect(problems.map((p) => p.path)).toContain('name');
  });

  it('merges lists without repeating a problem', () => {
    const p = { path: 'name', element: null, field: null, message: 'x' };
    expect(mergeProblems([p], [p, { ...p, message: 'y' }])).toHaveLength(2);
  });
});
