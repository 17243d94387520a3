import { describe, expect, it } from 'vitest';
import { BARCODE_FORMATS } from '../../src/model/barcode/formats';
import { prepareValue } from '../../src/model/barcode/values';
import {
  barcodeFeeds,
  barcodeFieldProblems,
  barcodesFedBy,
  printedBarcodeProblems,
  sampleBarcodeValue,
} from '../../src/model/barcode-fields';
import { parseTemplate } from '../../src/model/parse';

const template = (fields: object[], elements: object[]) =>
  parseTemplate({
    schemaVersion: 1,
    name: 't',
    stage: { width: 4, height: 2, unit: 'in' },
    fields,
    elements,
  });

const sku = { name: 'sku', label: 'SKU', placeholder: '' };
const lot = { name: 'lot', label: 'Lot', placeholder: '' };

describe('which fields feed which barcodes, and whether their value is one the symbology takes', () => {
  it('proposes, for every symbology, a sample its own value rules take as it is', () => {
    for (const format of BARCODE_FORMATS) {
      const sample = sampleBarcodeValue(format);
      expect(() => prepareValue(format, sample), `${format}: ${sample}`).not.toThrow();
    }
    expect(sampleBarcodeValue('code128')).toBe('ABC-12345');
    // EAN-13: 13 digits, the last the check digit (5901234123457 is GS1's own example).
    expect(sampleBarcodeValue('ean13')).toBe('5901234123457');
    expect(prepareValue('ean13', sampleBarcodeValue('ean13')).value).toBe(sampleBarcodeValue('ean13'));
    expect(sampleBarcodeValue('qrcode')).toMatch(/^https:\/\//);
    expect(sampleBarcodeValue('gs1-128')).toMatch(/^\(01\)\d{14}\(10\)/);
  });

  it('lists the barcodes each field feeds, fixed values and invisible barcodes apart', () => {
    const t = template(
      [sku, lot],
      [
        { type: 'text', text: '{sku}' },
        { type: 'barcode', format: 'code128', text: '{sku}-{lot}-{sku}' },
        { type: 'barcode', format: 'ean13', text: '5901234123457' },
        { type: 'barcode', format: 'qrcode', text: '{lot}', visible: false },
      ],
    );
    expect(barcodeFeeds(t).map((b) => [b.element, b.format, b.fields])).toEqual([
      [1, 'code128', ['sku', 'lot']],
      [2, 'ean13', []],
    ]);
    expect(barcodesFedBy(t, 'lot').map((b) => b.element)).toEqual([1]);
    expect(barcodesFedBy(t, 'nobody')).toEqual([]);
  });

  it('names the empty field — "SKU is empty — the barcode needs a value" — not the element or the engine', () => {
    const t = template([sku], [{ type: 'barcode', format: 'code128', text: '{sku}' }]);
    expect(printedBarcodeProblems(t, {})).toEqual([
      {
        element: 0,
        format: 'code128',
        field: 'sku',
        problem: 'empty',
        message: 'SKU is empty — the barcode needs a value',
      },
    ]);
    expect(printedBarcodeProblems(t, { sku: 'A-1' })).toEqual([]);
    // A placeholder prints when nothing is typed: no problem.
    const withSample = template(
      [{ ...sku, placeholder: 'ABC-12345' }],
      [{ type: 'barcode', format: 'code128', text: '{sku}' }],
    );
    expect(printedBarcodeProblems(withSample, {})).toEqual([]);
  });

  it('names every empty field of a value made of several', () => {
    const t = template([sku, lot], [{ type: 'barcode', format: 'ean13', text: '{sku}{lot}' }]);
    expect(printedBarcodeProblems(t, {}).map((p) => [p.field, p.message])).toEqual([
      ['sku', 'SKU and Lot are empty — the barcode needs a value'],
    ]);
    // One of them typed: the value is checked as it is, the problem at the first empty field.
    expect(printedBarcodeProblems(t, { sku: '590123412345' }).map((p) => [p.field, p.problem])).toEqual([]);
    expect(printedBarcodeProblems(t, { sku: '12' }).map((p) => [p.field, p.message])).toEqual([
      ['lot', 'Lot: EAN-13 takes 12 digits, or 13 with the check digit; this value has 2.'],
    ]);
  });

  it('words a value the symbology refuses with the field’s label and the rule', () => {
    const t = template([sku], [{ type: 'barcode', format: 'ean13', text: '{sku}' }]);
    expect(printedBarcodeProblems(t, { sku: '5901234123458' })).toEqual([
      {
        element: 0,
        format: 'ean13',
        field: 'sku',
        problem: 'bad-check-digit',
        message: 'SKU: EAN-13 check digit should be 7, not 8 (leave it off and it is computed).',
      },
    ]);
    // A fixed value has no field to name.
    const fixed = template([], [{ type: 'barcode', format: 'ean13', text: 'ABC' }]);
    expect(printedBarcodeProblems(fixed, {}).map((p) => [p.field, p.problem])).toEqual([
      [null, 'bad-character'],
    ]);
  });

  it('leaves alone a barcode hidden when its fields are empty, and one fed by a counter the job numbers', () => {
    const hidden = template(
      [sku],
      [{ type: 'barcode', format: 'code128', text: '{sku}', hideIfEmpty: true }],
    );
    expect(printedBarcodeProblems(hidden, {})).toEqual([]);
    const counted = template(
      [{ name: 'n', label: 'Serial', placeholder: '', type: 'counter' }],
      [{ type: 'barcode', format: 'code128', text: '{n}' }],
    );
    expect(printedBarcodeProblems(counted, {})).toEqual([]);
    // Asked with the values the designer draws (the placeholders), the counter's empty one is named.
    expect(barcodeFieldProblems(counted, (f) => f?.placeholder).map((p) => p.message)).toEqual([
      'Serial is empty — the barcode needs a value',
    ]);
  });
});
