/**
 * Fields in the designer as a user meets them (#42 items 2, 3 and 13), by roles and labels only: Insert field
 * replaces a new text's "Text" and otherwise inserts at the caret (over a selection), and a field with no
 * placeholder is drawn on the canvas as `{name}` — never as nothing — while the saved template, and so the
 * print, stays as typed; a barcode bound to a field with no placeholder gets a valid sample of its symbology,
 * and without one the canvas, the problems list and Test print name the field ("SKU is empty — the barcode
 * needs a value"); symbologies by their names; a bundled template opened asks the name of its copy.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { scanZplJob } from '../support/barcode-label';
import { addField, bind, newTemplate } from './designer-support';
import { expect, test } from './fixtures';

interface Saved {
  fields: { name: string; placeholder: string }[];
  elements: { type: string; text?: string; format?: string }[];
}
const saved = (dataDir: string, name: string): Saved =>
  JSON.parse(readFileSync(join(dataDir, 'templates', `${name}.json`), 'utf8')) as Saved;

const canvasOf = (page: Page) => page.getByRole('group', { name: /^Label canvas/ });
const saveButton = (page: Page) =>
  page.getByRole('toolbar', { name: 'Designer' }).getByRole('button', { name: 'Save', exact: true });

test('designer: Insert field replaces a new text’s “Text”, inserts at the caret or over a selection, and a field with no placeholder shows on the canvas as {name}', async ({
  page,
  app,
}) => {
  await newTemplate(page, 'bins', '4 × 2 in');
  await addField(page, 1, 'location', 'Location', '');
  await addField(page, 2, 'shelf', 'Shelf', 'S1');

  // A new text says "Text": the field inserted replaces it (not "Text{location}").
  await page.getByRole('button', { name: 'Add text' }).click();
  const content = page.getByRole('textbox', { name: 'Content' });
  await expect(content).toHaveValue('Text');
  await bind(page, 'location');
  await expect(content).toHaveValue('{location}');
  // Location has no placeholder: the canvas draws it as {location}, not as nothing.
  await expect(canvasOf(page)).toHaveAttribute('data-lines', /\{location\}/, { timeout: 30_000 });

  // Text of the user's own: the field goes where the caret is…
  await content.fill('Bin  row 3');
  await content.press('End');
  for (let i = 0; i < 6; i++) await content.press('ArrowLeft');
  await bind(page, 'location');
  await expect(content).toHaveValue('Bin {location} row 3');
  // …and over what is selected.
  await content.press('End');
  for (let i = 0; i < 5; i++) await content.press('Shift+ArrowLeft');
  await bind(page, 'shelf');
  await expect(content).toHaveValue('Bin {location} {shelf}');
  await expect(canvasOf(page)).toHaveAttribute('data-lines', /Bin \{location\} S1/);

  // What is saved (and printed) is the template as typed: no stand-in value in it.
  await saveButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “bins”' })).toBeVisible();
  const file = saved(app.dataDir, 'bins');
  expect(file.elements[0]!.text).toBe('Bin {location} {shelf}');
  expect(file.fields.map((f) => [f.name, f.placeholder])).toEqual([
    ['location', ''],
    ['shelf', 'S1'],
  ]);
});

test('designer: a barcode bound to a field with no placeholder gets a valid sample; without one the canvas, the problems and Test print name the field', async ({
  page,
  app,
}) => {
  await newTemplate(page, 'sku-label', '4 × 2 in');
  await addField(page, 1, 'sku', 'SKU', '');
  await page.getByRole('button', { name: 'Add barcode' }).click();
  await page.getByRole('combobox', { name: 'Symbology' }).selectOption('ean13');
  await bind(page, 'sku');
  await expect(page.getByRole('textbox', { name: 'Value' })).toHaveValue('{sku}');
  // A valid EAN-13 proposed: 13 digits, its check digit right — the label draws and prints.
  const placeholder = page.getByRole('textbox', { name: 'Field 1 placeholder' });
  await expect(placeholder).toHaveValue('5901234123457');
  await expect(page.getByText(/the barcode needs a value/)).toHaveCount(0);

  // Without a placeholder the barcode cannot be drawn: the canvas, the problems list and the value say why.
  await placeholder.fill('');
  const why = /SKU is empty — the barcode needs a value/;
  await expect(page.getByRole('status').filter({ hasText: why })).toBeVisible();
  await expect(canvasOf(page)).toHaveAccessibleDescription(why);
  await expect(page.getByRole('textbox', { name: 'Value' })).toHaveAccessibleDescription(why);

  // Test print of it names the field, and sends nothing.
  await saveButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “sku-label”' })).toBeVisible();
  const testPrint = page
    .getByRole('toolbar', { name: 'Designer' })
    .getByRole('button', { name: 'Test print' });
  await testPrint.click();
  await expect(page.getByRole('alert').filter({ hasText: why })).toBeVisible();
  expect(app.zebra.jobs).toHaveLength(0);

  // The sample, one click away; then the test label prints it, and it scans.
  await page.getByRole('button', { name: 'Use 5901234123457 as SKU’s placeholder' }).click();
  await expect(placeholder).toHaveValue('5901234123457');
  await expect(page.getByRole('status').filter({ hasText: why })).toHaveCount(0);
  await saveButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “sku-label”' })).toBeVisible();
  await testPrint.click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);
  expect(scanZplJob(app.zebra.jobs[0]!.zpl, mkdtempSync(join(tmpdir(), 'ld-e2e-fields-')), 'sample')).toEqual(
    ['5901234123457'],
  );
});

test('designer: symbologies by their names; a bundled template opened asks the name of its copy — proposed, checked, Enter accepts, Escape goes back', async ({
  page,
  app,
}) => {
  await newTemplate(page, 'names', '4 × 2 in');
  await page.getByRole('button', { name: 'Add barcode' }).click();
  const symbology = page.getByRole('combobox', { name: 'Symbology' });
  await expect(symbology.getByRole('option', { name: 'Code 128', exact: true })).toHaveCount(1);
  await expect(symbology.getByRole('option', { name: 'GS1 QR code', exact: true })).toHaveCount(1);
  await expect(symbology.getByRole('option', { name: 'gs1qrcode' })).toHaveCount(0);
  await symbology.selectOption({ label: 'GS1 QR code' });
  await expect(symbology).toHaveValue('gs1qrcode');
  await saveButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “names”' })).toBeVisible();

  await page.getByRole('toolbar', { name: 'Designer' }).getByRole('button', { name: 'Open…' }).click();
  const open = page.getByRole('dialog', { name: 'Open a template' });
  const choice = open.getByRole('combobox', { name: 'Template' });
  const bundled = await choice.getByRole('option', { name: /^product-2x1 \(bundled/ }).textContent();
  await choice.selectOption({ label: bundled! });
  await open.getByRole('button', { name: 'Open a copy…' }).click();
  const naming = page.getByRole('dialog', { name: 'Name the copy' });
  const name = naming.getByRole('textbox', { name: 'Name of the copy' });
  await expect(name).toHaveValue('product-2x1-copy');
  await expect(name).toBeFocused();
  // Escape goes back to the choice, nothing copied.
  await page.keyboard.press('Escape');
  await expect(naming).toBeHidden();
  await expect(open).toBeVisible();
  await open.getByRole('button', { name: 'Open a copy…' }).click();
  // Checked as any template name: one taken is refused where it is typed.
  await name.fill('names');
  await expect(name).toHaveAccessibleDescription('A template is already called "names".');
  await expect(naming.getByRole('button', { name: 'Copy and open' })).toBeDisabled();
  await name.fill('my-product');
  await name.press('Enter');
  await expect(naming).toBeHidden();
  await expect(open).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Template name' })).toHaveValue('my-product');
  expect(() => saved(app.dataDir, 'my-product')).not.toThrow();
  expect(() => saved(app.dataDir, 'product-2x1-copy')).toThrow();
});
