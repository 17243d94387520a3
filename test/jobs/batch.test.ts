/** CSV batches (pure): parsing, column mapping, copies, and the validation report before anything prints. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BatchError,
  formatRowProblems,
  mapColumns,
  parseCsv,
  planBatch,
  type BatchPlan,
} from '../../src/jobs/batch';
import { parseTemplate } from '../../src/model/parse';
import { bundledTemplate } from '../support/templates';

const product = bundledTemplate('product-2x1');

/** product-2x1 plus a counter field (serial). */
const withCounter = parseTemplate({
  ...product,
  fields: [...product.fields, { name: 'serial', label: 'Serial', placeholder: 'SN-0', type: 'counter' }],
});

const HEADER = 'product_name,sku,price,ean13';
const good = (i: number): string => `Oat drink ${i},SKU-${i},2.49,590123412345`;

describe('parseCsv', () => {
  it('drops a BOM, detects ";", keeps quoted line breaks, and numbers records and the line each starts on', () => {
    const text = '\uFEFFname;note\r\nA;"two\r\nlines"\r\n\r\nB;x\r\n\r\n\r\n';
    const table = parseCsv(text);
    expect(table.delimiter).toBe(';');
    expect(table.headers).toEqual(['name', 'note']);
    expect(table.rows).toEqual([
      { line: 2, record: 1, values: ['A', 'two\nlines'] },
      { line: 5, record: 2, values: ['B', 'x'] },
    ]);
  });

  it('reads tab-delimited files and mixed line endings', () => {
    const table = parseCsv('a\tb\n1\t2\r\n3\t4\r5\t6');
    expect(table.rows.map((r) => [r.line, ...r.values])).toEqual([
      [2, '1', '2'],
      [3, '3', '4'],
      [4, '5', '6'],
    ]);
  });

  it('an empty file, or one with a header and no data rows, is a clear error', () => {
    expect(() => parseCsv('')).toThrow(new BatchError('the CSV file is empty'));
    expect(() => parseCsv('\uFEFF\n\n')).toThrow(BatchError);
    expect(() => parseCsv('a,b\n\n\n')).toThrow('the CSV file has a header row but no data rows');
  });
});

describe('mapColumns', () => {
  it('matches columns by normalised field name or label; an explicit mapping wins', () => {
    const m = mapColumns(['Product name', 'SKU', 'EAN-13', 'Preis', 'colour'], product, {
      map: { Preis: 'price' },
    });
    expect(m.fields).toEqual({ price: 'Preis', product_name: 'Product name', sku: 'SKU', ean13: 'EAN-13' });
    expect(m.unusedColumns).toEqual(['colour']);
    expect(m.unmappedFields).toEqual([]);
    expect(m.copiesColumn).toBeNull();
  });

  it('takes a column named "copies" as copies, or the one named; a mapping that names nothing is an error', () => {
    expect(mapColumns(['ean13', 'Copies'], product).copiesColumn).toBe('Copies');
    expect(mapColumns(['ean13', 'n'], product, { copiesColumn: 'n' }).copiesColumn).toBe('n');
    expect(() => mapColumns(['ean13'], product, { copiesColumn: 'n' })).toThrow(
      'copies column "n" is not in the CSV header',
    );
    expect(() => mapColumns(['a'], product, { map: { b: 'sku' } })).toThrow('mapping b=sku: no column "b"');
    expect(() => mapColumns(['a'], product, { map: { a: 'nope' } })).toThrow(
      'the template has no field "nope"',
    );
  });

  it('never feeds a counter field from the file (the job numbers it)', () => {
    expect(mapColumns(['serial', 'ean13'], withCounter).fields).toEqual({ ean13: 'ean13' });
    expect(() => mapColumns(['s'], withCounter, { map: { s: 'serial' } })).toThrow(
      '"serial" is a counter, numbered by the job',
    );
  });
});

describe('planBatch: the validation report', () => {
  it('a CSV with 5 bad records among 100 names all 5 (record, its line, the field by its label, the problem)', () => {
    const bad = new Map<number, string>([
      [7, ',SKU-7,1.00,590123412345'], // required product_name missing
      [23, 'Oat,SKU-23,1.00,12AB'], // ean13 pattern
      [41, `${'x'.repeat(61)},SKU-41,1.00,590123412345`], // maxLength 60
      [77, 'Oat,SKU-77,1.00'], // a value short
      [99, 'Oat,SKU-99,1.00,'], // required ean13 empty
    ]);
    const lines = [HEADER];
    for (let i = 1; i <= 100; i++) lines.push(bad.get(i) ?? good(i));
    const plan = planBatch(`${lines.join('\n')}\n`, product);
    expect(plan.totalRows).toBe(100);
    expect(plan.rows).toHaveLength(95);
    expect(plan.labelCount).toBe(95);
    // Record i is on line i + 1 here (the header is line 1; no value holds a line break).
    expect(plan.badRecords).toEqual([7, 23, 41, 77, 99]);
    const at = (record: number) => ({ record, line: record + 1 });
    expect(plan.problems).toEqual([
      {
        ...at(7),
        field: 'product_name',
        label: 'Product name',
        value: '',
        problem: 'Product name is required',
      },
      {
        ...at(23),
        field: 'ean13',
        label: 'EAN-13',
        value: '12AB',
        problem: 'EAN-13 must be 12 or 13 digits, got "12AB"',
      },
      {
        ...at(41),
        field: 'product_name',
        label: 'Product name',
        value: 'x'.repeat(61),
        problem: 'Product name is 61 characters long; the maximum is 60',
      },
      { ...at(77), field: null, label: null, value: null, problem: 'has 3 values; the header has 4 columns' },
      { ...at(77), field: 'ean13', label: 'EAN-13', value: '', problem: 'EAN-13 is required' },
      { ...at(99), field: 'ean13', label: 'EAN-13', value: '', problem: 'EAN-13 is required' },
    ]);
    expect(formatRowProblems(plan.problems).split('\n')[0]).toBe(
      'record 7 (line 8), Product name: Product name is required',
    );
  });

  it('a wrong check digit in record 5 is reported as record 5 by the field label, before anything prints', () => {
    // Issue #17: the check digit passed the report and failed the job at label 2 instead.
    const rows = Array.from({ length: 10 }, (_, i) => {
      const ean = i === 4 ? '4006381333933' : '4006381333931';
      return `Item ${i + 1},SKU-${i + 1},1.00,${ean}`;
    });
    // A blank line after the header: the record is still 5, its line 7.
    const plan = planBatch(`${HEADER}\n\n${rows.join('\n')}\n`, product);
    expect(plan.badRecords).toEqual([5]);
    expect(plan.rows.map((r) => r.record)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10]);
    expect(formatRowProblems(plan.problems)).toBe(
      'record 5 (line 7), EAN-13: EAN-13 check digit should be 1, not 3 (leave it off and it is computed).',
    );
  });

  it('copies per row from the copies column; a bad count is a problem of that row', () => {
    const plan = planBatch(
      `${HEADER},copies\n${good(1)},3\n${good(2)},\n${good(3)},x\n${good(4)},1001\n`,
      product,
    );
    expect(plan.rows.map((r) => [r.record, r.copies])).toEqual([
      [1, 3],
      [2, 1],
    ]);
    expect(plan.labelCount).toBe(4);
    expect(plan.problems).toEqual([
      {
        record: 3,
        line: 4,
        field: 'copies',
        label: 'copies',
        value: 'x',
        problem: 'expected a whole number of copies, got "x"',
      },
      {
        record: 4,
        line: 5,
        field: 'copies',
        label: 'copies',
        value: '1001',
        problem: 'copies must be from 1 to 1000, got 1001',
      },
    ]);
  });

  it('a required field no column feeds is one problem of the mapping, not one per record (#42 item 9)', () => {
    const csv = 'Barcode,Item,Price\n12AB,Oat,1.00\n5901234123457,,2.00\n';
    const unmapped = planBatch(csv, product);
    expect(unmapped.columns).toEqual(['Barcode', 'Item', 'Price']);
    expect(unmapped.mapping.missingRequired).toEqual(['product_name', 'ean13']);
    expect(unmapped.problems).toEqual([]);

    const mapped = planBatch(csv, product, { map: { Item: 'product_name', Barcode: 'ean13' } });
    expect(mapped.columns).toEqual(['Barcode', 'Item', 'Price']); // the file's order, whatever the mapping
    expect(mapped.mapping.missingRequired).toEqual([]);
    expect(mapped.problems.map((p) => [p.record, p.field, p.value, p.problem])).toEqual([
      [1, 'ean13', '12AB', 'EAN-13 must be 12 or 13 digits, got "12AB"'],
      [2, 'product_name', '', 'Product name is required'],
    ]);
    // "Not used": a column mapped to nothing is not matched by its name either.
    const ignored = planBatch('product_name,ean13\nOat,5901234123457\n', product, {
      map: { product_name: '' },
    });
    expect(ignored.mapping.fields).toEqual({ ean13: 'ean13' });
    expect(ignored.mapping.unusedColumns).toEqual(['product_name']);
    expect(ignored.mapping.missingRequired).toEqual(['product_name']);
  });

  it('an unterminated quote is reported on its row, not thrown', () => {
    const plan = planBatch(`${HEADER}\n${good(1)}\nOat,"SKU,1.00,590123412345\n`, product);
    expect(plan.rows).toHaveLength(1);
    expect(plan.problems[0]).toMatchObject({
      record: 2,
      line: 3,
      field: null,
      problem: 'Quoted field unterminated',
    });
  });

  it('parse + validate never throws anything but BatchError, whatever the bytes (property)', () => {
    const cell = fc.oneof(
      fc.string(),
      fc.constantFrom('', '"', '""', '\n', '\r\n', ';', ',', '\t', '\uFEFF', '590123412345', 'copies'),
    );
    const csv = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc
        .tuple(
          fc.array(fc.oneof(cell, fc.constantFrom(...HEADER.split(','))), { maxLength: 6 }),
          fc.array(fc.array(cell, { maxLength: 7 }), { maxLength: 12 }),
          fc.constantFrom(',', ';', '\t', '|'),
          fc.constantFrom('\n', '\r\n', '\r'),
        )
        .map(([h, rows, d, nl]) => [h, ...rows].map((r) => r.join(d)).join(nl)),
    );
    const options = fc.record({
      copiesColumn: fc.option(fc.constantFrom('copies', 'sku', 'x'), { nil: undefined }),
    });
    fc.assert(
      fc.property(csv, options, (text, opts) => {
        let plan: BatchPlan | undefined;
        try {
          plan = planBatch(
            text,
            product,
            opts.copiesColumn === undefined ? {} : { copiesColumn: opts.copiesColumn },
          );
        } catch (e) {
          if (!(e instanceof BatchError)) throw e;
          return;
        }
        expect(plan.rows.length + plan.badRecords.length).toBe(plan.totalRows);
        for (const p of plan.problems) expect(plan.badRecords).toContain(p.record);
      }),
      { numRuns: 400 },
    );
  });
});
