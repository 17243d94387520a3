/** Fields that feed barcodes, and an empty one that leaves its barcode nothing to encode (#42 item 3). */
import { describe, expect, it } from 'vitest';
import {
  barcodeFeeds,
  emptyBarcodeFieldProblems,
  fieldsFeedingBarcodes,
} from '../../src/model/field-barcodes';
import { parseTemplate } from '../../src/model/parse';

const shelf = (sku: Record<string, unknown> = {}, barcode: Record<string, unknown> = {}) =>
  parseTemplate(
    {
      schemaVersion: 1,
      name: 'shelf',
      stage: { width: 2, height: 1, unit: 'in' },
      fields: [
        { name: 'product', label: 'Product', placeholder: 'Product', required: true },
        { name: 'sku', label: 'SKU', placeholder: '', ...sku },
        { name: 'serial', label: 'Serial', placeholder: '', type: 'counter' },
      ],
      elements: [
        { type: 'text', x: 0, y: 0, width: 100, height: 20, text: '{product}' },
        {
          type: 'barcode',
          x: 0,
          y: 20,
          width: 100,
          height: 40,
          format: 'code128',
          text: '{sku}',
          ...barcode,
        },
      ],
    },
    'test',
  );

describe('field-barcodes', () => {
  it('lists the barcodes and the fields they use', () => {
    expect(barcodeFeeds(shelf())).toEqual([{ element: 1, format: 'code128', fields: ['sku'] }]);
    expect([...fieldsFeedingBarcodes(shelf())]).toEqual(['sku']);
  });

  it('an empty field without a placeholder: the field says the barcode needs a value', () => {
    expect(emptyBarcodeFieldProblems(shelf(), {})).toEqual([
      { field: 'sku', message: 'SKU is empty — the barcode needs a value' },
    ]);
    expect(emptyBarcodeFieldProblems(shelf(), { sku: '' })).toHaveLength(1);
    expect(emptyBarcodeFieldProblems(shelf(), { sku: 'SKU-1' })).toEqual([]);
  });

  it('a placeholder the symbology takes prints; one it refuses is named', () => {
    expect(emptyBarcodeFieldProblems(shelf({ placeholder: 'SKU-0000' }), {})).toEqual([]);
    const ean = shelf({ placeholder: 'none' }, { format: 'ean13' });
    expect(emptyBarcodeFieldProblems(ean, {})).toEqual([
      {
        field: 'sku',
        message:
          'SKU is empty — the EAN-13 barcode needs a value (left empty it prints “none”, which it cannot encode)',
      },
    ]);
  });

  it('leaves a barcode hidden when empty alone (the shipping label\'s order QR code)', () => {
    expect(emptyBarcodeFieldProblems(shelf({}, { hideIfEmpty: true }), {})).toEqual([]);
    expect(emptyBarcodeFieldProblems(shelf({}, { visible: false }), {})).toEqual([]);
  });

  it('leaves a barcode with literal text or a counter alone', () => {
    expect(emptyBarcodeFieldProblems(shelf({}, { text: 'ABC-{sku}' }), {})).toEqual([]);
    expect(emptyBarcodeFieldProblems(shelf({}, { text: '{serial}{sku}' }), {})).toEqual([]);
  });
});
