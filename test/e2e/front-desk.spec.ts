/**
 * The traps a new user met at the front desk (#17 items 3, 4, 5, 10, 11, 12, 15), in Chromium against web mode
 * and the Zebra emulator: copies out of range, a large quantity, a second click on a batch, a print that
 * cannot be stopped, a toast that outlives its problem, a printer forgotten on reload, the header naming the
 * wrong printer, the keyboard path to the first field.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startZebraEmulator } from '../emulator/zebra-emulator';
import { scanZplJob } from '../support/barcode-label';
import { expect, test } from './fixtures';

const TRACKING = '1Z999AA10123456784';

async function fillShipping(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: /Recipient/ }).fill('Ada Lovelace');
  await page.getByRole('textbox', { name: /Address/ }).fill('12 Analytical Row\nLondon');
  await page.getByRole('textbox', { name: /Tracking number/ }).fill(TRACKING);
}

/** Types in the template search until one template is left, and picks it with Enter. */
async function pickBySearch(page: Page): Promise<void> {
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill('shipping');
  await expect(page.getByRole('listbox', { name: 'Template' }).getByRole('option')).toHaveCount(1);
  await search.press('Enter');
}

/** A CSV of `n` shipping records for the batch screen. */
function ordersCsv(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-desk-'));
  const rows = ['Recipient,Address,tracking'];
  for (let i = 1; i <= n; i++) rows.push(`Customer ${i},${i} Main St,1Z999AA1012345678${i % 10}`);
  const file = join(dir, 'orders.csv');
  writeFileSync(file, rows.join('\n'));
  return file;
}

test('keyboard: a skip link, Enter picks the only match, the cursor lands on the first field', async ({
  page,
}) => {
  await expect(page.getByRole('listbox', { name: 'Template' }).getByRole('option').first()).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: /Skip to the label/ });
  await expect(skip).toBeFocused();

  await pickBySearch(page);
  await expect(page.getByRole('textbox', { name: /Recipient/ })).toBeFocused();

  // The first tab stop (above) leads to the first field: one Tab and Enter, not 7 tab stops.
  await page.getByRole('textbox', { name: /Tracking number/ }).focus();
  await skip.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: /Recipient/ })).toBeFocused();
});

test('copies: out of range refused inline, a large quantity asks, back to 1 after a print', async ({
  page,
  app,
}) => {
  await pickBySearch(page);
  await fillShipping(page);
  const copies = page.getByRole('textbox', { name: 'Copies' });
  const print = page.getByRole('button', { name: 'Print', exact: true });

  for (const typed of ['5000', '0', '-3']) {
    await copies.fill(typed);
    await expect(copies).toHaveValue(typed); // not silently turned into 1000 or 1
    await expect(copies).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Copies: type a whole number from 1 to 1000.')).toBeVisible();
    await print.click();
    await expect(copies).toBeFocused();
  }

  await copies.fill('60');
  await print.click();
  const confirm = page.getByRole('alertdialog', { name: 'Print 60 copies?' });
  await expect(confirm).toContainText('Print 60 copies of this label on Dock Zebra?');
  await confirm.getByRole('button', { name: 'Change copies' }).click();
  await expect(confirm).toBeHidden();
  await expect(copies).toBeFocused();

  await copies.fill('2');
  await print.click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(2);
  await expect(page.getByTestId('job-toast')).toContainText(/done/i);
  // Nothing of the refused 5000, 0, -3 or 60 printed: only the 2 asked for.
  expect(app.zebra.jobs.length).toBe(2);
  await expect(copies).toHaveValue('1');
  // A print with the mouse keeps the focus on the page (on Print), not lost to the body.
  await expect(print).toBeFocused();
});

test('"Choose a printer": the cursor goes to the printer box and the toast goes once one is chosen', async ({
  page,
}) => {
  await pickBySearch(page);
  await fillShipping(page);
  const printerBox = page.getByRole('combobox', { name: 'Printer' });
  await printerBox.selectOption({ label: 'Choose a printer' });
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  const toast = page.getByTestId('error-toast');
  await expect(toast).toContainText('Choose a printer to print to.');
  await expect(printerBox).toBeFocused();
  await page.getByRole('link', { name: /Skip to/ }).focus();
  await toast.getByRole('button', { name: 'Choose a printer' }).click();
  await expect(printerBox).toBeFocused();
  await printerBox.selectOption({ label: 'Dock Zebra' });
  await expect(toast).toHaveCount(0);
});

test('a print waiting on paper out can be cancelled from its card and from History, after a yes', async ({
  page,
  app,
}) => {
  app.zebra.setFault({ paperOut: true });
  await pickBySearch(page);
  await fillShipping(page);
  await page.getByRole('textbox', { name: 'Copies' }).fill('3');
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  const card = page.getByTestId('job-toast');
  await expect(card).toContainText(/paused/i, { timeout: 30_000 });
  await expect(card.getByRole('button', { name: 'Resume' })).toBeVisible();
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(card).toContainText(/Cancel job \d+\? 3 labels will not print/);
  await card.getByRole('button', { name: 'Keep printing' }).click();
  await expect(card.getByRole('button', { name: 'Cancel' })).toBeVisible();

  await page.getByRole('link', { name: 'History' }).click();
  await page
    .getByRole('table', { name: 'Jobs' })
    .getByRole('button', { name: /^Job \d+$/ })
    .first()
    .click();
  const detail = page.getByRole('region', { name: /Job \d+ · shipping-4x6/ });
  await detail.getByRole('button', { name: 'Cancel' }).click();
  await detail.getByRole('button', { name: /Yes, cancel job \d+/ }).click();
  await expect(detail).toContainText(/Cancelled/);
  await expect(detail.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  app.zebra.setFault({ paperOut: false });
  expect(app.zebra.jobs.length).toBe(0);
});

test('batch: a double click starts one job, the button shows it, Stop asks; the header names its printer', async ({
  page,
  app,
}) => {
  // A second printer, out of paper, for the batch; the Print screen keeps Dock Zebra.
  const back = await startZebraEmulator({ dpi: 203 });
  back.setFault({ paperOut: true });
  try {
    await page.getByRole('link', { name: /Printers & Settings/ }).click();
    await page.getByRole('button', { name: 'Add printer' }).click();
    const form = page.getByRole('form', { name: 'Add printer' });
    await form.getByLabel('Name').fill('Back Zebra');
    await form.getByLabel('Address (URI)').fill(back.uri);
    await form.getByLabel('Resolution (dpi)').fill('5000');
    await form.getByRole('button', { name: 'Save printer' }).click();
    // Our own sentence under the field, not the browser's popup (which would have blocked the submit).
    await expect(form.getByText(/Resolution: type a whole number of dpi from 100 to 1200/)).toBeVisible();
    await expect(form.getByLabel('Resolution (dpi)')).toBeFocused();
    await form.getByLabel('Resolution (dpi)').fill('');
    await form.getByRole('button', { name: 'Save printer' }).click();
    await expect(form).toHaveCount(0);

    await page.getByRole('link', { name: 'Batch' }).click();
    await page
      .getByRole('combobox', { name: 'Template', exact: true })
      .selectOption({ label: 'shipping-4x6 (bundled)' });
    await page.getByRole('combobox', { name: 'Printer', exact: true }).selectOption({ label: 'Back Zebra' });
    await page.getByLabel('CSV file').setInputFiles(ordersCsv(4));
    const start = page.getByRole('button', { name: 'Print 4 labels' });
    await start.dblclick();
    // The button shows the job: printing, or waiting for the out-of-paper printer.
    const running = page.getByRole('button', { name: /^(Queued|Printing|Waiting for printer)… \d+ of 4$/ });
    await expect(running).toBeDisabled();
    const progress = page.getByTestId('batch-progress');
    await expect(progress).toHaveAttribute('data-state', 'paused', { timeout: 30_000 });

    // The header shows the printer that is printing (and its trouble), not the Print screen's Dock Zebra.
    const header = page.getByTestId('header-printer');
    await expect(header).toContainText('Printing on Back Zebra');
    await expect(header).toContainText(/paper out/i, { timeout: 20_000 });

    await progress.getByRole('button', { name: 'Stop' }).click();
    await expect(progress).toContainText(/Stop job \d+\? 4 labels will not print/);
    await progress.getByRole('button', { name: /Yes, stop job \d+/ }).click();
    await expect(progress).toHaveAttribute('data-state', 'cancelled');
    await expect(header).toContainText('Dock Zebra');

    await page.getByRole('link', { name: 'History' }).click();
    const jobs = page.getByRole('table', { name: 'Jobs' });
    await expect(jobs.getByRole('button', { name: /^Job \d+$/ })).toHaveCount(1);
    expect(back.jobs.length + app.zebra.jobs.length).toBe(0);

    // The printer chosen on the Print screen is chosen again after a reload.
    await page.getByRole('link', { name: 'Print', exact: true }).click();
    const remembered = page.waitForResponse((r) => r.url().includes('/ipc/settings.update'));
    await page.getByRole('combobox', { name: 'Printer' }).selectOption({ label: 'Back Zebra' });
    await remembered;
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Printer' })).toHaveValue(
      await page
        .getByRole('option', { name: 'Back Zebra' })
        .getAttribute('value')
        .then((v) => v ?? ''),
    );
  } finally {
    await back.close();
  }
});

test('Discover says what it found, or that it found nothing, in sentences', async ({ page }) => {
  await page.getByRole('link', { name: /Printers & Settings/ }).click();
  await page.getByRole('button', { name: 'Discover' }).click();
  const found = page.locator('.discovered');
  await expect(found.getByRole('heading', { name: 'Found on this computer' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Discover' })).toBeEnabled({ timeout: 30_000 });
  const rows = await found.locator('.printer-row').count();
  if (rows === 0) await expect(found).toContainText('No printers found');
  await expect(found).not.toContainText(/ENOENT|spawn|lpstat/);
});

test('History: "the label for Ada" is found by what was typed and reprinted on another printer, drawn for it', async ({
  page,
  app,
}) => {
  // A 300 dpi printer beside the 203 dpi Dock Zebra.
  const back = await startZebraEmulator({ dpi: 300 });
  try {
    await page.getByRole('link', { name: /Printers & Settings/ }).click();
    await page.getByRole('button', { name: 'Add printer' }).click();
    const form = page.getByRole('form', { name: 'Add printer' });
    await form.getByLabel('Name').fill('Back Zebra');
    await form.getByLabel('Address (URI)').fill(back.uri);
    await form.getByRole('button', { name: 'Save printer' }).click();
    await expect(form).toHaveCount(0);

    await page.getByRole('link', { name: 'Print', exact: true }).click();
    await pickBySearch(page);
    await fillShipping(page);
    await page.getByRole('combobox', { name: 'Printer' }).selectOption({ label: 'Dock Zebra' });
    await page.getByRole('button', { name: 'Print', exact: true }).click();
    await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);

    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('searchbox', { name: 'Find' }).fill('Ada');
    const jobs = page.getByRole('table', { name: 'Jobs' });
    await expect(jobs.getByRole('button', { name: /^Job \d+$/ })).toHaveCount(1);
    await jobs.getByRole('button', { name: /^Job \d+$/ }).click();
    await expect(page.getByRole('table', { name: /Labels of job/ })).toContainText('Ada Lovelace');

    await page.getByRole('combobox', { name: 'Reprint on' }).selectOption({ label: 'Back Zebra' });
    await page.getByRole('button', { name: 'Reprint job' }).click();
    // The question names the printer chosen (#42 item 12).
    await page
      .getByRole('dialog', { name: /^Reprint job \d+\?$/ })
      .getByRole('button', { name: 'Reprint 1 label on Back Zebra' })
      .click();
    await expect.poll(() => back.jobs.length, { timeout: 30_000 }).toBe(1);
    // Drawn for the 300 dpi printer (4 in = 1200 dots), the same label: its barcode is Ada's tracking number.
    const zpl = back.jobs[0]!.zpl;
    expect(zpl).toContain('^PW1200');
    expect(scanZplJob(zpl, mkdtempSync(join(tmpdir(), 'ld-e2e-reprint-')), 'reprint')).toContain(TRACKING);
    expect(app.zebra.jobs.length).toBe(1);
  } finally {
    await back.close();
  }
});
