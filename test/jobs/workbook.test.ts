/**
 * Workbooks as batch tables (#42 item 11): cells as the spreadsheet shows them, read from files independent
 * writers made (openpyxl, odfpy); the budgets that come before the work (a zip bomb, a zip that lies about its
 * sizes, too many rows); and a clear sentence naming the file for a damaged, password-protected or old file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { strToU8, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchError, planBatch } from '../../src/jobs/batch';
import { readWorkbook } from '../../src/jobs/workbook';
import { WORKBOOK_LIMITS } from '../../src/jobs/workbook-limits';
import { parseTemplate } from '../../src/model/parse';
import { writeOdsWithOdfpy, writeXlsxWithOpenpyxl, type SheetSpec } from '../support/independent-workbooks';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-workbook-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SHEETS: SheetSpec[] = [
  {
    name: 'Orders',
    rows: [
      [], // a blank first row: the header is the first row with values
      [
        { text: 'Name' },
        { text: 'Code' },
        { text: 'Shipped' },
        { text: 'Weight' },
        { text: 'EAN' },
        { text: 'Note' },
      ],
      [
        { text: 'Zoë Ñúñez — 日本' },
        { text: '0012345' },
        { date: '2026-11-23', format: 'dd/mm/yyyy', shows: '23/11/2026' },
        { number: 1234.5, format: '#,##0.00', shows: '1,234.50' },
        { number: 5901234123457, shows: '5901234123457' },
        null,
      ],
      [],
      [
        { text: 'B' },
        { number: 42, format: '0000000', shows: '0000042' },
        { date: '2026-01-02', format: 'yyyy-mm-dd', shows: '2026-01-02' },
        { number: 3 },
        { number: 590123412345, shows: '590123412345' },
        { text: 'x' },
      ],
    ],
  },
  { name: 'Second sheet', rows: [[{ text: 'Only' }], [{ text: 'one' }]] },
];

const read = (path: string, sheet?: string | number) =>
  readWorkbook(new Uint8Array(readFileSync(path)), path, sheet);

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BatchError);
    return (e as Error).message;
  }
  throw new Error('expected a BatchError');
};

describe('readWorkbook', () => {
  it.each([
    ['xlsx', writeXlsxWithOpenpyxl],
    ['ods', writeOdsWithOdfpy],
  ])('reads a .%s from an independent writer as its cells show', (ext, write) => {
    const path = join(dir, `orders.${ext}`);
    write(path, SHEETS);
    const table = read(path);
    expect(table.sheet).toBe('Orders');
    expect(table.sheets).toEqual(['Orders', 'Second sheet']);
    expect(table.headers).toEqual(['Name', 'Code', 'Shipped', 'Weight', 'EAN', 'Note']);
    expect(table.rows).toEqual([
      {
        line: 3,
        record: 1,
        values: ['Zoë Ñúñez — 日本', '0012345', '23/11/2026', '1,234.50', '5901234123457', ''],
      },
      { line: 5, record: 2, values: ['B', '0000042', '2026-01-02', '3', '590123412345', 'x'] },
    ]);
    expect(read(path, 'Second sheet').rows[0]!.values).toEqual(['one']);
    expect(read(path, 2).headers).toEqual(['Only']);
    expect(refusal(() => read(path, 'March'))).toBe(
      `${path}: the workbook has no sheet "March"; its sheets are "Orders", "Second sheet"`,
    );
  });

  it('a sheet read plans like the same rows in CSV, problems by sheet row', () => {
    const path = join(dir, 'orders.xlsx');
    writeXlsxWithOpenpyxl(path, SHEETS);
    const template = parseTemplate({
      schemaVersion: 1,
      name: 't',
      stage: { width: 2, height: 1, unit: 'in' },
      fields: [
        { name: 'name', label: 'Name', placeholder: '' },
        { name: 'code', label: 'Code', placeholder: '', pattern: '\\d{7}' },
        { name: 'ean', label: 'EAN', placeholder: '', pattern: '\\d{13}' },
      ],
      elements: [{ type: 'text', x: 0, y: 0, width: 100, height: 20, text: '{name}' }],
    });
    const plan = planBatch(read(path), template);
    expect(plan.lineWord).toBe('row');
    expect(plan.columns).toEqual(['Name', 'Code', 'Shipped', 'Weight', 'EAN', 'Note']);
    expect(plan.problems).toEqual([
      {
        record: 2,
        line: 5,
        field: 'ean',
        label: 'EAN',
        value: '590123412345',
        problem: 'EAN must be 13 digits, got "590123412345"',
      },
    ]);
  });

  it('refuses a zip bomb after at most its budget, whatever sizes the zip declares', () => {
    const bomb = zipSync(
      {
        '[Content_Types].xml': strToU8('<Types/>'),
        'xl/worksheets/sheet1.xml': new Uint8Array(WORKBOOK_LIMITS.maxInflatedBytes + 1024 * 1024),
      },
      { level: 9 },
    );
    expect(bomb.length).toBeLessThan(1024 * 1024); // a small file…
    const message = `bomb.xlsx: the workbook inflates to more than 120 MB; a batch reads at most that (is it a zip bomb?)`;
    expect(refusal(() => readWorkbook(bomb, 'bomb.xlsx'))).toBe(message);

    // …that says each file inflates to 100 bytes: the count is of what inflates, not of what is declared.
    const lying = bomb.slice();
    const view = new DataView(lying.buffer);
    for (let at = 0; at + 4 <= lying.length; at++) {
      if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 100, true);
      if (view.getUint32(at, true) === 0x04034b50) view.setUint32(at + 22, 100, true);
    }
    expect(refusal(() => readWorkbook(lying, 'bomb.xlsx'))).toBe(message);
  });

  it('refuses a file over the size budget before reading it', () => {
    const big = new Uint8Array(WORKBOOK_LIMITS.maxBytes + 1);
    big.set([0x50, 0x4b, 0x03, 0x04]);
    expect(refusal(() => readWorkbook(big, 'big.xlsx'))).toBe(
      'big.xlsx is 20 MB; a workbook for a batch is at most 20 MB',
    );
  });

  it('a damaged, password-protected, old or wrong file: one sentence naming the file', () => {
    const path = join(dir, 'orders.xlsx');
    writeXlsxWithOpenpyxl(path, SHEETS);
    const good = new Uint8Array(readFileSync(path));
    expect(refusal(() => readWorkbook(good.subarray(0, good.length / 2), 'half.xlsx'))).toMatch(
      /^half\.xlsx: the workbook is damaged \(/,
    );
    const scrambled = good.slice();
    for (let i = 200; i < scrambled.length - 200; i += 7) scrambled[i] = (scrambled[i] ?? 0) ^ 0x5a;
    expect(refusal(() => readWorkbook(scrambled, 'scrambled.xlsx'))).toMatch(
      /^scrambled\.xlsx: the workbook /,
    );

    // An encrypted .xlsx is an OLE file with an EncryptedPackage stream (the header and the stream's name here).
    const ole = new Uint8Array(4096);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    [...'EncryptedPackage'].forEach((ch, i) => (ole[1024 + i * 2] = ch.charCodeAt(0)));
    expect(refusal(() => readWorkbook(ole, 'secret.xlsx'))).toBe(
      'secret.xlsx: the workbook is password-protected; save a copy without a password and choose that',
    );
    const xls = XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet([['a'], ['b']])), {
      type: 'array',
      bookType: 'biff8',
    }) as ArrayBuffer;
    expect(refusal(() => readWorkbook(new Uint8Array(xls), 'old.xls'))).toBe(
      'old.xls is an Excel 97–2003 workbook (.xls); save it as .xlsx (or CSV) and choose that',
    );
    expect(refusal(() => readWorkbook(strToU8('name\nAda\n'), 'notes.xlsx'))).toBe(
      'notes.xlsx is not an .xlsx or .ods workbook',
    );
  });

  it('an empty sheet, a header without rows, a value without a header', () => {
    const path = join(dir, 'odd.xlsx');
    writeXlsxWithOpenpyxl(path, [
      { name: 'Empty', rows: [] },
      { name: 'Header', rows: [[{ text: 'a' }, { text: 'b' }]] },
      {
        name: 'Odd',
        rows: [[{ text: 'a' }], [{ text: 'x' }, { text: 'stray' }]],
      },
    ]);
    expect(refusal(() => read(path))).toBe(`${path}, sheet "Empty": the sheet is empty`);
    expect(refusal(() => read(path, 'Header'))).toBe(
      `${path}, sheet "Header": the sheet has a header row but no data rows`,
    );
    expect(read(path, 'Odd').rows).toEqual([
      { line: 2, record: 1, values: ['x'], error: 'cell B2 has a value, but its column has no header' },
    ]);
  });
});
