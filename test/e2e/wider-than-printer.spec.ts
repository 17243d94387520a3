/**
 * #42 item 1 as a user meets it, in Chromium against web mode and the Zebra emulator (a 4-inch head, 832 dots
 * at 203 dpi): the A4 packing slip's printer view shows the dots that burn and marks the rest as cut off;
 * Print asks first (scale to fit, print cut, cancel); cancel prints nothing, and scale to fit prints the whole
 * slip within the head, its barcode scanning.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../support/cli';
import { decodeZpl, decodeZplToPgm } from '../support/zpl-decode';
import { zbarValues } from '../support/zbar';
import { getDot } from '../../src/render/bitmap';
import { expect, test } from './fixtures';

const SLIP = {
  order_id: 'ORD-20261123-0042',
  customer: 'Ada Lovelace',
  address: '12 St James Square\nLondon SW1Y 4JH\nUnited Kingdom',
  items: '2 x Thermal labels 4x6\n1 x Ribbon wax 110 mm',
};

test('an A4 packing slip on a 4-inch printer: the view marks the cut, Print asks, cancel prints nothing, scale to fit prints it whole', async ({
  page,
  app,
}) => {
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill('packing');
  await expect(page.getByRole('listbox', { name: 'Template' }).getByRole('option')).toHaveCount(1);
  await search.press('Enter');
  await page.getByRole('combobox', { name: 'Printer', exact: true }).selectOption({ label: 'Dock Zebra' });
  await page.getByRole('textbox', { name: /^Order/ }).fill(SLIP.order_id);
  await page.getByRole('textbox', { name: /^Customer/ }).fill(SLIP.customer);
  await page.getByRole('textbox', { name: /^Delivery address/ }).fill(SLIP.address);
  await page.getByRole('textbox', { name: /^Items/ }).fill(SLIP.items);

  // The printer view: the 832 dots the head burns, not the 1678 of the A4 page; the rest marked as cut off.
  await page.getByRole('switch', { name: 'Printer view' }).check();
  await expect(
    page.getByText(/^832 × 2374 dots at 203 dpi: exactly what the print head burns\./),
  ).toBeVisible();
  await expect(
    page.getByText(/The label is 1678 × 2374 dots: the right 106 mm \(846 dots\) are cut off/),
  ).toBeVisible();
  await expect(
    page.getByRole('img', { name: /^Cut off: the right 106 mm \(846 dots\) of the label/ }),
  ).toBeVisible();

  // Print asks first, the first choice focused; Cancel prints nothing.
  const print = page.getByRole('button', { name: 'Print', exact: true });
  await print.click();
  const ask = page.getByRole('alertdialog', { name: 'Label wider than the printer' });
  await expect(ask).toContainText(
    'packing-slip-a4 is 210 mm (1678 dots) wide but the printer prints 104 mm (832 dots) at 203 dpi',
  );
  const scale = ask.getByRole('button', { name: /^Scale to fit \(49 %\)$/ });
  await expect(scale).toBeFocused();
  await expect(ask.getByRole('button', { name: 'Print it cut' })).toBeVisible();
  await expect(ask.getByRole('button', { name: 'Rotate 90°' })).toHaveCount(0); // turned, 2374 dots still do not fit
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
  await expect(print).toBeFocused();
  // Escape cancels too.
  await print.click();
  await expect(scale).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await page.waitForTimeout(500);
  expect(app.zebra.jobs.length).toBe(0);

  // Scale to fit, by keyboard: one label within the head, the whole slip on it.
  await print.click();
  await expect(scale).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(() => app.zebra.jobs.length, { timeout: 60_000 }).toBe(1);
  const zpl = app.zebra.jobs[0]!.zpl;
  const printed = decodeZpl(zpl);
  expect(printed.printWidth).toBeLessThanOrEqual(832);
  expect(printed.labelLength! / printed.printWidth!).toBeCloseTo(297 / 210, 2);
  // Scanned as a 406-dpi scanner sees the print: the scaled barcode's bars are one dot (5 mil) wide.
  const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-fit-'));
  decodeZplToPgm(zpl, join(dir, 'fit.pgm'), 20, 2);
  expect(zbarValues(join(dir, 'fit.pgm'))).toContain(SLIP.order_id);
  // The whole slip: dot for dot the slip rendered on its own at that scale on a head wide enough for it.
  const dpi = Math.round((printed.printWidth! / 210) * 25.4);
  const whole = await cli([
    ...['render', '--template', 'packing-slip-a4', '--data', JSON.stringify(SLIP)],
    ...['--format', 'zpl', '--dpi', String(dpi), '--max-width-dots', '10000'],
  ]);
  const reference = decodeZpl(whole.stdout).bitmap;
  expect([printed.bitmap.width, printed.bitmap.height]).toEqual([reference.width, reference.height]);
  let differing = 0;
  for (let y = 0; y < reference.height; y++)
    for (let x = 0; x < reference.width; x++)
      if (getDot(reference, x, y) !== getDot(printed.bitmap, x, y)) differing++;
  expect(differing, 'dots that differ from the whole slip at that scale').toBe(0);
});

test('a batch of A4 packing slips on a 4-inch printer asks the same question before it starts; print it cut prints each record cut', async ({
  page,
  app,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-fit-batch-'));
  const csv = join(dir, 'slips.csv');
  writeFileSync(
    csv,
    'order_id,customer,address,items\nORD-1,Ada,1 Road,1 x Box\nORD-2,Grace,2 Road,2 x Box\n',
  );
  await page.getByRole('link', { name: 'Batch' }).click();
  await page
    .getByRole('combobox', { name: 'Template', exact: true })
    .selectOption({ label: 'packing-slip-a4 (bundled)' });
  await page.getByRole('combobox', { name: 'Printer', exact: true }).selectOption({ label: 'Dock Zebra' });
  await page.getByLabel('CSV file').setInputFiles(csv);
  await page.getByRole('button', { name: 'Print 2 labels' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Label wider than the printer' });
  await expect(ask).toContainText('packing-slip-a4 is 210 mm (1678 dots) wide but the printer prints 104 mm');
  await expect(ask.getByRole('button', { name: /^Scale to fit/ })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  expect(app.zebra.jobs.length).toBe(0);

  await page.getByRole('button', { name: 'Print 2 labels' }).click();
  await ask.getByRole('button', { name: 'Print it cut' }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 60_000 }).toBe(2);
  expect(app.zebra.jobs.map((j) => decodeZpl(j.zpl).printWidth)).toEqual([832, 832]);
});
