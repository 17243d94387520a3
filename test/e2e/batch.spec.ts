/**
 * The Batch screen as a new user met it (#42 items 9 and 11), in Chromium against web mode and the Zebra
 * emulator: choosing a column's field keeps the file's column order; a required field no column feeds is one
 * sentence at the mapping, not an error per record; the report gives the value as read and the rule in words;
 * "Print valid rows" asks, naming the records it skips, with no checkbox first; a paused batch says "Paused"
 * in its badge, its note and its button; and an .xlsx picked in the app (made by openpyxl) prints.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { readLabelTag } from '../../src/jobs/model';
import { scanZplJob } from '../support/barcode-label';
import { writeXlsxWithOpenpyxl } from '../support/independent-workbooks';
import { expect, test } from './fixtures';

const ean13 = (body: string): string => {
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
};

const BAD = new Map([
  [4, '59012'],
  [9, '5901234X'],
  [17, '12'],
]);

/** 30 products, headers the template's fields do not match by name; records 4, 9 and 17 have bad EANs. */
function productsCsv(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-batch-'));
  const rows = ['Barcode,Item,Price'];
  for (let i = 1; i <= 30; i++) {
    rows.push(`${BAD.get(i) ?? ean13(String(400638133300 + i))},Oat drink ${i},2.49`);
  }
  const file = join(dir, 'products.csv');
  writeFileSync(file, rows.join('\n'));
  return file;
}

async function openBatch(page: Page, template: string): Promise<void> {
  await page.getByRole('link', { name: 'Batch' }).click();
  await page
    .getByRole('combobox', { name: 'Template', exact: true })
    .selectOption({ label: `${template} (bundled)` });
  await page.getByRole('combobox', { name: 'Printer', exact: true }).selectOption({ label: 'Dock Zebra' });
}

const columnOrder = (page: Page) => page.getByRole('table').first().getByRole('rowheader').allInnerTexts();

/** Chooses each column's field by its label, as a user does. */
async function mapProducts(page: Page): Promise<void> {
  await page.getByLabel('Field for column Item').selectOption({ label: 'Product name (product_name)' });
  await page.getByLabel('Field for column Barcode').selectOption({ label: 'EAN-13 (ean13)' });
  await page.getByLabel('Field for column Price').selectOption({ label: 'Price (price)' });
  await expect(page.getByLabel('Field for column Price')).toHaveValue('price');
}

test("batch: choosing a column's field keeps the file's column order", async ({ page }) => {
  await openBatch(page, 'product-2x1');
  await page.getByLabel('Spreadsheet or CSV file').setInputFiles(productsCsv());
  await expect(page.getByLabel('Field for column Item')).toBeVisible();
  expect(await columnOrder(page)).toEqual(['Barcode', 'Item', 'Price']);
  await page.getByLabel('Field for column Item').selectOption({ label: 'Product name (product_name)' });
  await expect(page.getByLabel('Field for column Item')).toHaveValue('product_name');
  expect(await columnOrder(page)).toEqual(['Barcode', 'Item', 'Price']);
  await page.getByLabel('Field for column Barcode').selectOption({ label: 'EAN-13 (ean13)' });
  await expect(page.getByLabel('Field for column Barcode')).toHaveValue('ean13');
  expect(await columnOrder(page)).toEqual(['Barcode', 'Item', 'Price']);
});

test('batch: a required field no column feeds is one sentence at the mapping, not an error per record', async ({
  page,
}) => {
  await openBatch(page, 'product-2x1');
  await page.getByLabel('Spreadsheet or CSV file').setInputFiles(productsCsv());
  const mapping = page.getByRole('region', { name: 'Columns and fields' });
  await expect(mapping.getByRole('alert')).toHaveText(
    'No column feeds Product name, EAN-13, which are required: choose their columns above. Nothing prints until then.',
  );
  await expect(page.getByText(/is required/)).toHaveCount(0);
  await expect(page.getByText(/placeholder/)).toHaveCount(0);
  await expect(page.getByText('Choose the column for Product name, EAN-13 first.')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Print/ })).toBeDisabled();

  await mapProducts(page);
  await expect(mapping.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Print valid rows (skip 3)' })).toBeEnabled();
});

test('batch: the report shows the value as read and the rule in words', async ({ page }) => {
  await openBatch(page, 'product-2x1');
  await page.getByLabel('Spreadsheet or CSV file').setInputFiles(productsCsv());
  await mapProducts(page);
  const report = page.getByRole('table', { name: 'Problems by record' });
  await expect(report.getByRole('row')).toHaveCount(4);
  await expect(report.getByRole('columnheader')).toHaveText([
    'Record',
    'Line',
    'Field',
    'Value as read',
    'Problem',
  ]);
  await expect(report.getByRole('row').nth(1).getByRole('cell')).toHaveText([
    '4',
    '5',
    'EAN-13',
    '59012',
    'EAN-13 must be 12 or 13 digits, got "59012"',
  ]);
  await expect(report.getByRole('row').nth(3).getByRole('cell').nth(3)).toHaveText('12');
  await expect(report).not.toContainText('pattern');
});

test('batch: "Print valid rows" prints them after a confirmation naming the skipped records, no checkbox first', async ({
  page,
  app,
}) => {
  await openBatch(page, 'product-2x1');
  await page.getByLabel('Spreadsheet or CSV file').setInputFiles(productsCsv());
  await mapProducts(page);
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await page.getByRole('button', { name: 'Print valid rows (skip 3)' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Skip 3 records?' });
  await expect(confirm).toContainText(
    'Print 27 labels from the 27 valid records and skip records 4, 9 and 17?',
  );
  expect(app.zebra.jobs.length).toBe(0);
  await confirm.getByRole('button', { name: 'Print 27 labels, skip 3' }).click();
  const progress = page.getByTestId('batch-progress');
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  expect(app.zebra.jobs.length).toBe(27);
  expect(new Set(app.zebra.jobs.map((j) => readLabelTag(j.zpl)?.labelNumber)).size).toBe(27);
});

test('batch: paused by the user, the badge, the note and the button all say Paused', async ({
  page,
  app,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-batch-'));
  const file = join(dir, 'products.csv');
  const rows = ['product_name,ean13'];
  for (let i = 1; i <= 27; i++) rows.push(`Oat drink ${i},${ean13(String(400638133300 + i))}`);
  writeFileSync(file, rows.join('\n'));
  await openBatch(page, 'product-2x1');
  await page.getByLabel('Spreadsheet or CSV file').setInputFiles(file);
  app.zebra.setFault({ readDelayMs: 150 }); // a slow printer, so the batch can be paused while it prints
  await page.getByRole('button', { name: 'Print 27 labels' }).click();

  const progress = page.getByTestId('batch-progress');
  await progress.getByRole('button', { name: 'Pause' }).click();
  await expect(progress).toHaveAttribute('data-state', 'held');
  await expect(progress.getByText('Paused', { exact: true })).toBeVisible();
  await expect(progress).toContainText(/Paused by you after \d+ of 27 labels\./);
  await expect(page.getByText(/Held|paused by the user|Printing…/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Printing/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();

  app.zebra.setFault({ readDelayMs: 0 });
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(progress.getByText('Done', { exact: true })).toBeVisible();
  expect(app.zebra.jobs.length).toBe(27);
});

test('batch: an .xlsx picked in the app (made by openpyxl) prints its chosen sheet', async ({
  page,
  app,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-xlsx-'));
  const file = join(dir, 'orders.xlsx');
  writeXlsxWithOpenpyxl(file, [
    { name: 'Summary', rows: [[{ text: 'Orders' }], [{ number: 3 }]] },
    {
      name: 'Orders',
      rows: [
        [{ text: 'Recipient' }, { text: 'Address' }, { text: 'tracking' }, { text: 'Shipped' }],
        ...[1, 2, 3].map((i) => [
          { text: `Zoë Ñúñez ${i}` },
          { text: `${i} Rue de l’Été` },
          { text: `1Z999AA1012345678${i}` },
          { date: `2026-11-0${i}`, format: 'dd/mm/yyyy', shows: `0${i}/11/2026` },
        ]),
      ],
    },
  ]);
  await openBatch(page, 'shipping-4x6');
  await page.getByLabel('Spreadsheet or CSV file').setInputFiles(file);
  // Several sheets: a picker, the first one read until another is chosen.
  const sheet = page.getByRole('combobox', { name: 'Sheet' });
  await expect(sheet).toHaveValue('Summary');
  await sheet.selectOption('Orders');
  await expect(page.getByText('3 rows · 4 columns · sheet Orders')).toBeVisible();
  expect(await columnOrder(page)).toEqual(['Recipient', 'Address', 'tracking', 'Shipped']);
  await expect(page.getByLabel('Field for column Recipient')).toHaveValue('ship_to_name');
  await page.getByRole('button', { name: 'Print 3 labels' }).click();
  const progress = page.getByTestId('batch-progress');
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  expect(app.zebra.jobs.length).toBe(3);
  const scanned = app.zebra.jobs.flatMap((j, i) => scanZplJob(j.zpl, dir, `xlsx-${i}`));
  for (const i of [1, 2, 3]) expect(scanned).toContain(`1Z999AA1012345678${i}`);
});
