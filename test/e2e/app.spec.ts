/**
 * The app as users meet it, in Chromium against web mode: the front desk's print, the warehouse's batch and
 * printer trouble, the hosted API with wrong and right credentials, and the offline fallback. What is checked
 * is what a user would check: the barcode on each label the printer received decodes to what was typed; the
 * saved PDF holds the typed text; "paper out" shows when the printer reports it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { scanZplJob } from '../support/barcode-label';
import { expect, screenshot, startHostedApi, test } from './fixtures';

const TRACKING = '1Z999AA10123456784';

async function pickTemplate(page: Page, name: string): Promise<void> {
  await page.getByRole('listbox', { name: 'Template' }).getByRole('option', { name }).click();
  await expect(page.getByRole('textbox', { name: /Recipient/ })).toBeVisible();
}

async function fillShipping(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: /Recipient/ }).fill('Ada Lovelace');
  await page.getByRole('textbox', { name: /Address/ }).fill('12 Analytical Row\nLondon');
  await page.getByRole('textbox', { name: /Tracking number/ }).fill(TRACKING);
}

function scanned(zpl: string, name: string): string[] {
  return scanZplJob(zpl, mkdtempSync(join(tmpdir(), 'ld-e2e-scan-')), name);
}

test('front desk: pick shipping-4x6, type, watch the preview follow, print 2 copies that decode', async ({
  page,
  app,
}) => {
  await pickTemplate(page, 'shipping-4x6');
  const preview = page.getByTestId('preview');
  await expect(preview).toBeVisible();
  const before = await preview.screenshot();
  await fillShipping(page);
  // The preview follows the typing: the label's text lines hold what was typed, and it looks different.
  await expect(preview).toHaveAttribute('data-lines', /Ada Lovelace/);
  await expect(preview).toHaveAttribute('data-lines', new RegExp(TRACKING));
  const after = await preview.screenshot();
  expect(Buffer.compare(before, after)).not.toBe(0);
  await screenshot(page, '01-print');
  // What the thermal head will burn: the 1-bit raster at the printer's dpi.
  await page.getByRole('switch', { name: 'Printer view' }).click();
  await expect(preview).toHaveAttribute('data-view', 'printer');
  await expect(preview.locator('img')).toBeVisible({ timeout: 20_000 });
  await screenshot(page, '01b-printer-view');
  await page.getByRole('switch', { name: 'Printer view' }).click();

  await page.getByLabel('Copies').fill('2');
  await expect(page.getByRole('combobox', { name: 'Printer' })).toContainText('Dock Zebra');
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(2);
  for (const [i, job] of app.zebra.jobs.entries()) {
    expect(scanned(job.zpl, `copy-${i + 1}`)).toContain(TRACKING);
  }
  await expect(page.getByTestId('job-toast')).toContainText(/done/i);
  await screenshot(page, '02-printed');
});

test('front desk: save the label as PDF', async ({ page }) => {
  await pickTemplate(page, 'shipping-4x6');
  await fillShipping(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /Save PDF/ }).click();
  const file = await (await download).path();
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  expect(text).toContain('Ada Lovelace');
  expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
});

test('front desk: the system print dialog gets the label alone on a page of the label size', async ({
  page,
}) => {
  // Runs in every frame, the print frame included: print() counts instead of opening a dialog.
  await page.addInitScript(() => {
    (window as unknown as { __printCalls: number }).__printCalls = 0;
    window.print = () => {
      (window as unknown as { __printCalls: number }).__printCalls++;
    };
  });
  await page.reload();
  await pickTemplate(page, 'shipping-4x6');
  await fillShipping(page);
  await page.getByRole('button', { name: /System print dialog/ }).click();
  await expect
    .poll(async () => {
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        const calls = await frame.evaluate(
          () => (window as unknown as { __printCalls?: number }).__printCalls ?? 0,
        );
        if (calls) return calls;
      }
      return 0;
    })
    .toBe(1);
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  // The print page's rules come through the CSSOM (the CSP allows no inline <style>).
  const style = await frame.evaluate(() =>
    [...document.adoptedStyleSheets].flatMap((s) => [...s.cssRules].map((r) => r.cssText)).join('\n'),
  );
  expect(style).toMatch(/@page\s*\{\s*size:\s*4in 6in/);
  expect(await frame.evaluate(() => document.querySelectorAll('body > svg').length)).toBe(1);
});

test('warehouse: a CSV batch reports its bad row, prints the valid ones after the choice', async ({
  page,
  app,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-csv-'));
  const csv = join(dir, 'orders.csv');
  const rows = ['Recipient,Address,tracking,order_id'];
  for (let i = 1; i <= 6; i++) rows.push(`Customer ${i},"${i} Main St\nTown",1Z999AA1012345678${i},ORD-${i}`);
  rows.push('Customer 7,"7 Main St",,ORD-7'); // required tracking missing
  writeFileSync(csv, rows.join('\n'));

  await page.getByRole('link', { name: 'Batch' }).click();
  await page
    .getByRole('combobox', { name: 'Template', exact: true })
    .selectOption({ label: 'shipping-4x6 (bundled)' });
  await page.getByRole('combobox', { name: 'Printer', exact: true }).selectOption({ label: 'Dock Zebra' });
  await page.getByLabel('CSV file').setInputFiles(csv);
  // The CSV says "Recipient" and "Address": matched to the fields by their labels.
  await expect(page.getByLabel('Field for column Recipient')).toHaveValue('ship_to_name');
  const report = page.getByRole('table', { name: 'Problems by record' });
  // Record 7 starts on line 14 of the file: the header is line 1 and each address holds a newline.
  await expect(report.getByRole('row').nth(1)).toContainText(
    /7\s*14\s*Tracking number\s*\(empty\)\s*Tracking number is required/,
  );
  await expect(report).toContainText(/tracking/i);
  await screenshot(page, '03-batch-report');
  expect(app.zebra.jobs.length).toBe(0); // nothing prints before the user chooses

  await page.getByRole('button', { name: 'Print valid rows (skip 1)' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Skip 1 record?' });
  await expect(confirm).toContainText('skip record 7?');
  await confirm.getByRole('button', { name: 'Print 6 labels, skip 1' }).click();
  await expect(page.getByTestId('batch-progress')).toBeVisible();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 40_000 }).toBe(6);
  await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-state', 'done');
  await screenshot(page, '04-batch-progress');
  const values = app.zebra.jobs.flatMap((job, i) => scanned(job.zpl, `batch-${i}`));
  for (let i = 1; i <= 6; i++) expect(values).toContain(`1Z999AA1012345678${i}`);
});

test('warehouse: paper out shows on the printer status', async ({ page, app }) => {
  await pickTemplate(page, 'shipping-4x6');
  const pill = page.getByTestId('printer-status');
  await expect(pill).toContainText(/ready/i);
  app.zebra.setFault({ paperOut: true });
  await expect(pill).toContainText(/paper out/i, { timeout: 20_000 });
  await screenshot(page, '05-paper-out');
  app.zebra.setFault({ paperOut: false });
  await expect(pill).toContainText(/ready/i, { timeout: 20_000 });
});

test('history: the printed job with its labels, and a reprint', async ({ page, app }) => {
  await pickTemplate(page, 'shipping-4x6');
  await fillShipping(page);
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);
  await page.getByRole('link', { name: 'History' }).click();
  const jobs = page.getByRole('table', { name: 'Jobs' });
  await expect(jobs).toContainText('shipping-4x6');
  await jobs
    .getByRole('button', { name: /^Job \d+$/ })
    .first()
    .click();
  await expect(page.getByRole('table', { name: /Labels of job/ })).toContainText(/confirmed/i);
  await screenshot(page, '06-history');
  await page.getByRole('button', { name: 'Reprint job' }).click();
  // A whole job again asks first (#42 item 12).
  await page
    .getByRole('dialog', { name: /^Reprint job \d+\?$/ })
    .getByRole('button', { name: 'Reprint 1 label on Dock Zebra' })
    .click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(2);
  expect(app.zebra.jobs[1]!.zpl.replace(/\^FX[^^]*\^FS/, '')).toBe(
    app.zebra.jobs[0]!.zpl.replace(/\^FX[^^]*\^FS/, ''),
  );
});

test('hosted mode: a wrong secret is a clear message, the right one connects and prints', async ({
  page,
  app,
}) => {
  const hosted = await startHostedApi();
  // Whatever the page receives from LabelDesk, the secret is never in it.
  const bodies: Promise<string>[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/ipc/')) bodies.push(r.text().catch(() => ''));
  });
  try {
    await page.getByRole('link', { name: /Printers & Settings/ }).click();
    await page.getByLabel('Base URL').fill(hosted.url);
    await page.getByLabel('API key').fill(hosted.key);
    await page.getByLabel('API secret').fill('wrong-secret');
    await page.getByLabel(/Use the hosted API/).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: /Test connection/ }).click();
    await expect(page.getByTestId('connection-test')).toContainText(/refused the credentials \(401\)/);
    await screenshot(page, '07-settings-wrong-secret');

    await page.getByLabel('API secret').fill(hosted.secret);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: /Test connection/ }).click();
    await expect(page.getByTestId('connection-test')).toContainText(/Connected/);
    await screenshot(page, '08-settings-connected');

    // A print now goes through the hosted API (counted as a print) and still reaches the printer.
    await page.getByRole('link', { name: 'Print', exact: true }).click();
    await pickTemplate(page, 'shipping-4x6');
    await fillShipping(page);
    await page.getByRole('button', { name: 'Print', exact: true }).click();
    await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);
    expect(scanned(app.zebra.jobs[0]!.zpl, 'hosted')).toContain(TRACKING);
    await expect(page.getByTestId('prints-used')).toContainText('1');
    await expect(page.getByTestId('connection')).toContainText(/online|hosted/i);
    for (const body of await Promise.all(bodies)) expect(body).not.toContain(hosted.secret);
  } finally {
    await hosted.close();
  }
});

test('offline: with the hosted API down, the bundled engine prints and the bar says so', async ({
  page,
  app,
}) => {
  const hosted = await startHostedApi();
  await page.getByRole('link', { name: /Printers & Settings/ }).click();
  await page.getByLabel('Base URL').fill(hosted.url);
  await page.getByLabel('API key').fill(hosted.key);
  await page.getByLabel('API secret').fill(hosted.secret);
  await page.getByLabel(/Use the hosted API/).check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await hosted.close(); // the service goes away

  await page.getByRole('link', { name: 'Print', exact: true }).click();
  await pickTemplate(page, 'shipping-4x6');
  await fillShipping(page);
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);
  expect(scanned(app.zebra.jobs[0]!.zpl, 'offline')).toContain(TRACKING);
  await expect(page.getByTestId('connection')).toContainText(/offline/i);
  await screenshot(page, '09-offline');
});

test('the preview follows the typing without asking main: computed in the page, with the label main would print', async ({
  page,
}) => {
  await pickTemplate(page, 'shipping-4x6');
  const preview = page.getByTestId('preview');
  await expect(preview).toHaveAttribute('data-lines', /./);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/ipc/preview.scene')) asked.push(r.url());
  });
  const name = page.getByRole('textbox', { name: /Recipient/ });
  // The page's preview engine and its fonts load in the background (main previews meanwhile): once a keystroke
  // is served without main, every keystroke is.
  await expect
    .poll(
      async () => {
        const before = asked.length;
        await name.fill(`x${before}`);
        await expect(preview).toHaveAttribute('data-lines', new RegExp(`x${before}`));
        return asked.length === before;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  asked.length = 0;
  await name.fill('');
  await name.click();
  await name.pressSequentially('Ada Lovelace', { delay: 30 });
  await expect(preview).toHaveAttribute('data-lines', /Ada Lovelace/);
  expect(asked).toEqual([]);
  // A value the template's rules refuse is still shown as the field's problem (the rules run in the page too).
  const weight = page.getByRole('textbox', { name: /Weight/ });
  await weight.fill('heavy');
  await weight.blur();
  await expect(page.locator('.field-problem').filter({ hasText: /Weight/ })).toBeVisible();
  expect(asked).toEqual([]);
});
