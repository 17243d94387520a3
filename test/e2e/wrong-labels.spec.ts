/**
 * #17's acceptance where wrong labels cost most, in Chromium against web mode and the Zebra emulator:
 * - a product CSV with a wrong EAN-13 check digit in record 5 is refused by the report (record 5, the field's
 *   label, the rule in plain words), nothing prints until the user skips it, then exactly 9 labels arrive,
 *   each once, each barcode scanning to its record's value;
 * - a value too long for the label marks its field with what would be cut off, and Print asks first.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLabelTag } from '../../src/jobs/model';
import { scanZplJob } from '../support/barcode-label';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';

/** The EAN-13 for a 12-digit body, with its check digit. */
function ean13(body: string): string {
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
}

test('a 10-record product CSV with a wrong check digit in record 5: refused by the report, 9 labels after the skip', async ({
  page,
  app,
}) => {
  const values = Array.from({ length: 10 }, (_, i) => ean13(`40063813339${i}`.slice(0, 12)));
  const good5 = values[4]!;
  const wrong5 = good5.slice(0, 12) + String((Number(good5[12]) + 2) % 10);
  const rows = ['product_name,ean13'];
  values.forEach((v, i) => rows.push(`Item ${i + 1},${i === 4 ? wrong5 : v}`));
  const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-ean-'));
  const csv = join(dir, 'products.csv');
  writeFileSync(csv, rows.join('\n'));

  await page.getByRole('link', { name: 'Batch' }).click();
  await page
    .getByRole('combobox', { name: 'Template', exact: true })
    .selectOption({ label: 'product-2x1 (bundled)' });
  await page.getByRole('combobox', { name: 'Printer', exact: true }).selectOption({ label: 'Dock Zebra' });
  await page.getByLabel('CSV file').setInputFiles(csv);

  const report = page.getByRole('table', { name: 'Problems by record' });
  await expect(report.getByRole('row')).toHaveCount(2); // the header and record 5
  await expect(report.getByRole('row').nth(1)).toContainText(
    new RegExp(`5\\s*6\\s*EAN-13.*check digit should be ${good5[12]}, not ${wrong5[12]}`),
  );
  await expect(page.getByText('Every row is valid')).toHaveCount(0);

  // Nothing prints before the user chooses: the button asks first, naming the record it skips.
  await page.getByRole('button', { name: 'Print valid rows (skip 1)' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Skip 1 record?' });
  await expect(confirm).toContainText('skip record 5?');
  expect(app.zebra.jobs.length).toBe(0);
  await confirm.getByRole('button', { name: 'Print 9 labels, skip 1' }).click();
  const progress = page.getByTestId('batch-progress');
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  expect(app.zebra.jobs.length).toBe(9);
  // Each label once, in order, and each barcode is its record's value; record 5 never printed.
  const labelNumbers = app.zebra.jobs.map((j) => readLabelTag(j.zpl)?.labelNumber);
  expect(new Set(labelNumbers).size).toBe(9);
  const scannedValues = app.zebra.jobs.map((j, i) =>
    scanZplJob(j.zpl, mkdtempSync(join(tmpdir(), 'ld-e2e-ean-scan-')), `ean-${i}`),
  );
  expect(scannedValues.map((v) => v.find((x) => /^\d{13}$/.test(x)))).toEqual(
    values.filter((_, i) => i !== 4),
  );
});

test('a value too long for the label: its field says what would be cut off, and Print asks first', async ({
  page,
  app,
}) => {
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill('shipping');
  await expect(page.getByRole('listbox', { name: 'Template' }).getByRole('option')).toHaveCount(1);
  await search.press('Enter');
  await page.getByRole('textbox', { name: /Recipient/ }).fill('Ada Lovelace');
  const address = page.getByRole('textbox', { name: /Address/ });
  await address.fill(
    '12 Analytical Row\nFlat 7, Babbage House\nMarylebone\nLondon NW1 6XE\nGreater London\nUnited Kingdom',
  );
  await page.getByRole('textbox', { name: /Tracking number/ }).fill('1Z999AA10123456784');

  // The field itself says it, in words, and the input is tied to the sentence for a screen reader.
  const warning = page.getByText(
    /^Address: “.*United Kingdom” does not fit on the label and would be cut off\.$/,
  );
  await expect(warning).toBeVisible();
  const warningId = await warning.getAttribute('id');
  await expect(address).toHaveAttribute('aria-describedby', new RegExp(`\\b${warningId}\\b`));

  await page.getByRole('button', { name: 'Print', exact: true }).click();
  const ask = page.getByRole('alertdialog', { name: 'Print with text cut off?' });
  await expect(ask).toContainText('United Kingdom');
  await expect(ask.getByRole('button', { name: 'Print it cut' })).toBeFocused();
  // The warning under the field and the question pass axe too (contrast of the orange text included).
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await ask.getByRole('button', { name: 'Shorten the text' }).click();
  await expect(ask).toHaveCount(0);
  await expect(address).toBeFocused();
  expect(app.zebra.jobs.length).toBe(0);

  // Shortened to fit: the warning goes and Print prints without asking.
  await address.fill('12 Analytical Row\nLondon NW1 6XE\nUnited Kingdom');
  await expect(warning).toHaveCount(0);
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);

  // Too long again, and printed anyway after the yes (Enter on the focused button): exactly one more label.
  await address.fill(
    '12 Analytical Row\nFlat 7, Babbage House\nMarylebone\nLondon NW1 6XE\nGreater London\nUnited Kingdom',
  );
  await expect(warning).toBeVisible();
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect(ask.getByRole('button', { name: 'Print it cut' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(2);
  await page.waitForTimeout(500);
  expect(app.zebra.jobs.length).toBe(2);
});
