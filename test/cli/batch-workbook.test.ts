/**
 * `labeldesk batch --file` with workbooks made by independent writers (#42 item 11): a 30-row .xlsx from
 * openpyxl and the same rows as an .ods from odfpy print exactly the labels the same rows in CSV print — a
 * date with a number format, a number with leading zeros stored as text, a number formatted 0000000, an EAN
 * typed as a number, an empty cell, unicode — against the Zebra emulator over TCP.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { cli } from '../support/cli';
import {
  writeOdsWithOdfpy,
  writeXlsxWithOpenpyxl,
  type Cell,
  type SheetSpec,
} from '../support/independent-workbooks';

let dir: string;
const emulators: ZebraEmulator[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-batch-workbook-'));
});
afterEach(async () => {
  for (const e of emulators.splice(0)) await e.close();
  rmSync(dir, { recursive: true, force: true });
});

const ean13 = (body: string): string => {
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
};

const HEADER = ['Name', 'Code', 'Shipped', 'Weight', 'Bin', 'EAN', 'Note'];

/** Row i as a spreadsheet holds it, and as the same row reads in CSV (what each cell shows). */
function row(i: number): { cells: Cell[]; shown: string[] } {
  const day = String(i).padStart(2, '0');
  const name = `Zoë Ñúñez ${i} — 日本`;
  const code = `00${12340 + i}`;
  const weight = i * 1.25;
  const ean = ean13(String(590123412300 + i));
  const note = i % 3 === 0 ? null : 'fragile ✓';
  return {
    cells: [
      { text: name },
      { text: code }, // leading zeros: stored as text
      { date: `2026-11-${day}`, format: 'dd/mm/yyyy', shows: `${day}/11/2026` },
      { number: weight, format: '0.00', shows: weight.toFixed(2) },
      { number: 4200 + i, format: '0000000', shows: String(4200 + i).padStart(7, '0') },
      { number: Number(ean), shows: ean }, // typed as a number, General format
      note === null ? null : { text: note },
    ],
    shown: [
      name,
      code,
      `${day}/11/2026`,
      weight.toFixed(2),
      String(4200 + i).padStart(7, '0'),
      ean,
      note ?? '',
    ],
  };
}

const ROWS = Array.from({ length: 30 }, (_, i) => row(i + 1));

const csvOf = (lines: string[][]): string =>
  `${lines.map((l) => l.map((v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',')).join('\n')}\n`;

function writeTemplate(): string {
  const path = join(dir, 'parcel.json');
  const text = (y: number, field: string) => ({
    type: 'text',
    x: 8,
    y,
    width: 360,
    height: 24,
    text: `{${field}}`,
    font: { size: 12, family: 'DejaVu Sans' },
  });
  writeFileSync(
    path,
    JSON.stringify({
      schemaVersion: 1,
      name: 'parcel',
      stage: { width: 2, height: 2, unit: 'in' },
      fields: [
        { name: 'name', label: 'Name', placeholder: '', required: true },
        { name: 'code', label: 'Code', placeholder: '', pattern: '\\d{7}' },
        { name: 'shipped', label: 'Shipped', placeholder: '' },
        { name: 'weight', label: 'Weight', placeholder: '' },
        { name: 'bin', label: 'Bin', placeholder: '' },
        { name: 'ean', label: 'EAN', placeholder: '', required: true },
        { name: 'note', label: 'Note', placeholder: '(no note)' },
      ],
      elements: [
        text(4, 'name'),
        text(28, 'code'),
        text(52, 'shipped'),
        text(76, 'weight'),
        text(100, 'bin'),
        text(124, 'note'),
        { type: 'barcode', x: 8, y: 150, width: 150, height: 40, format: 'ean13', text: '{ean}' },
      ],
    }),
  );
  return path;
}

/** Prints `file` with `extra` options to a fresh emulator and data folder; the ZPL of each label. */
async function printed(file: string, template: string, ...extra: string[]) {
  const emulator = await startZebraEmulator({ dpi: 203, port: 0 });
  emulators.push(emulator);
  const data = mkdtempSync(join(dir, 'data-'));
  const run = await cli([
    'batch',
    '--file',
    file,
    '--template',
    template,
    '--printer',
    emulator.uri,
    '--data-dir',
    data,
    ...extra,
  ]);
  return { run, zpl: emulator.printer.printed.map((j) => j.zpl) };
}

describe('labeldesk batch --file: workbooks', () => {
  it('a 30-row .xlsx from openpyxl and the same rows as .ods from odfpy print the labels the CSV prints', async () => {
    const template = writeTemplate();
    const sheets: SheetSpec[] = [
      { name: 'Orders', rows: [HEADER.map((text) => ({ text })), ...ROWS.map((r) => r.cells)] },
      { name: 'Archive', rows: [[{ text: 'Old' }], [{ text: 'x' }]] },
    ];
    const xlsx = join(dir, 'orders.xlsx');
    writeXlsxWithOpenpyxl(xlsx, sheets);
    const ods = join(dir, 'orders.ods');
    writeOdsWithOdfpy(ods, sheets);
    const csv = join(dir, 'orders.csv');
    writeFileSync(csv, csvOf([HEADER, ...ROWS.map((r) => r.shown)]));

    const fromCsv = await printed(csv, template);
    expect(fromCsv.run.stderr).not.toMatch(/problem/);
    expect(fromCsv.run.code).toBe(0);
    expect(fromCsv.zpl).toHaveLength(30);
    // The cells' values, as read, are checked one by one in test/jobs/workbook.test.ts; here: the same labels.

    for (const file of [xlsx, ods]) {
      const fromWorkbook = await printed(file, template);
      expect(fromWorkbook.run.stdout, file).toContain('job 1: 30 labels from 30 records');
      expect(fromWorkbook.run.code, `${file}: ${fromWorkbook.run.stderr}`).toBe(0);
      expect(fromWorkbook.zpl, file).toEqual(fromCsv.zpl);
    }
  }, 180_000);

  it('--sheet picks a sheet by name or number; a sheet it lacks is named with the ones it has', async () => {
    const template = writeTemplate();
    const xlsx = join(dir, 'two.xlsx');
    writeXlsxWithOpenpyxl(xlsx, [
      { name: 'Summary', rows: [[{ text: 'Total' }], [{ number: 30 }]] },
      { name: 'Orders', rows: [HEADER.map((text) => ({ text })), ...ROWS.slice(0, 2).map((r) => r.cells)] },
    ]);
    const byName = await printed(xlsx, template, '--sheet', 'Orders');
    expect(byName.run.code, byName.run.stderr).toBe(0);
    expect(byName.zpl).toHaveLength(2);
    const byNumber = await printed(xlsx, template, '--sheet', '2');
    expect(byNumber.zpl).toEqual(byName.zpl);

    const missing = await printed(xlsx, template, '--sheet', 'March');
    expect(missing.run.code).toBe(1);
    expect(missing.run.stderr).toBe(
      `labeldesk: ${xlsx}: the workbook has no sheet "March"; its sheets are "Summary", "Orders"\n`,
    );
    // The first sheet has no column for the required fields: one sentence, not a line per record.
    const first = await printed(xlsx, template);
    expect(first.run.code).toBe(1);
    expect(first.run.stdout).toBe('');
    expect(first.run.stderr).toContain('no column feeds the required fields "name", "ean"');
    expect(first.zpl).toEqual([]);
  }, 120_000);

  it('the report names the record by its sheet row, the value as read and the rule in words', async () => {
    const template = writeTemplate();
    const xlsx = join(dir, 'bad.xlsx');
    const bad = row(2).cells;
    bad[1] = { text: '12-345' };
    writeXlsxWithOpenpyxl(xlsx, [
      { name: 'Orders', rows: [HEADER.map((text) => ({ text })), [], row(1).cells, bad] },
    ]);
    const run = await printed(xlsx, template);
    expect(run.run.code).toBe(1);
    expect(run.run.stdout).toBe(
      '1 of 2 records have problems:\nrecord 2 (row 4), Code: Code must be 7 digits, got "12-345"\n',
    );
  }, 60_000);
});
