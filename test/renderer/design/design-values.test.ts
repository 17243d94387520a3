/** What the design canvas draws for fields with no placeholder, and what it says about barcodes it cannot draw (#42). */
import { describe, expect, it } from 'vitest';
import { newDesign, type DesignDocument } from '../../../renderer/src/design/design-document';
import { barcodeCanvasProblems, designStandIns, sampleFix } from '../../../renderer/src/design/design-values';
import { addField, bindField, editField } from '../../../renderer/src/design/fields';
import { addElement, setProperties } from '../../../renderer/src/design/operations';

function design(): DesignDocument {
  let doc = newDesign({ name: 'd', size: '4x2', unit: 'in', dpi: 203 });
  for (const type of ['text', 'barcode'] as const) doc = addElement(doc, type).doc;
  doc = addField(doc, { name: 'location', label: 'Location' });
  doc = addField(doc, { name: 'sku', label: 'SKU' });
  return bindField(bindField(doc, 0, 'location'), 1, 'sku');
}

describe('the design canvas’s stand-ins and barcode problems', () => {
  it('draws a field with no placeholder as {name}, never one that feeds a barcode, never one with a placeholder', () => {
    let doc = design();
    expect(designStandIns(doc.template)).toEqual({ location: '{location}' });
    doc = editField(doc, 0, { placeholder: 'A-01' });
    expect(designStandIns(doc.template)).toEqual({});
  });

  it('names the field of a barcode the canvas cannot draw, with what to do, and offers the sample', () => {
    // Bound, the barcode got a sample placeholder: it draws.
    let doc = design();
    expect(doc.template.fields[1]!.placeholder).toBe('ABC-12345');
    expect(barcodeCanvasProblems(doc.template).problems).toEqual([]);
    expect(sampleFix(doc.template, 1)).toBeNull();
    // Emptied: the problem at the barcode's value, the short reason for the canvas, the sample to use.
    doc = editField(doc, 1, { placeholder: '' });
    const { problems, notes } = barcodeCanvasProblems(doc.template);
    expect(problems).toEqual([
      {
        path: 'elements[1].text',
        element: 1,
        field: null,
        message:
          'SKU is empty — the barcode needs a value. Give SKU a placeholder (it prints when nothing is typed), e.g. ABC-12345.',
      },
    ]);
    expect([...notes]).toEqual([[1, 'SKU is empty — the barcode needs a value.']]);
    expect(sampleFix(doc.template, 1)).toEqual({
      field: 1,
      label: 'SKU',
      sample: 'ABC-12345',
      format: 'code128',
    });
    // A symbology the placeholder does not suit: its rule, and the sample of the new symbology.
    doc = setProperties(editField(doc, 1, { placeholder: 'ABC-12345' }), [1], { format: 'ean13' });
    expect(barcodeCanvasProblems(doc.template).problems.map((p) => p.message)).toEqual([
      'SKU: EAN-13 cannot encode "A", "B", "C", "-": it takes digits only.',
    ]);
    expect(sampleFix(doc.template, 1)?.sample).toBe('5901234123457');
  });
});
