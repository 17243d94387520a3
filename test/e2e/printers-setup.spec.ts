/**
 * Setting printers up as a user meets it (#42 items 5, 6, 10): the first printer added is the default and is
 * chosen on the Print screen at once; an address typed as a bare IP or host:port is a network printer; media,
 * speed, print mode and calibration reach the printer in its own commands.
 */
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';

async function addPrinter(page: Page, name: string, address: string): Promise<void> {
  await page.getByRole('link', { name: /Printers & Settings/ }).click();
  await page.getByRole('button', { name: 'Add printer' }).click();
  const form = page.getByRole('form', { name: 'Add printer' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Address (URI)').fill(address);
  await form.getByRole('button', { name: 'Save printer' }).click();
  await expect(form).toHaveCount(0);
}

const printerRow = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });

test.describe('with no printer configured', () => {
  test.use({ preconfigured: false });

  test('the first printer added is the default and chosen on the Print screen without a reload; removing the default names another', async ({
    page,
    app,
  }) => {
    const printerBox = page.getByRole('combobox', { name: 'Printer', exact: true });
    await expect(printerBox.locator('option:checked')).toHaveText('No printers yet');

    await addPrinter(page, 'Front Zebra', app.zebra.uri);
    await expect(printerRow(page, 'Front Zebra').getByText('Default', { exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'Print', exact: true }).click();
    await expect(printerBox.locator('option:checked')).toHaveText('Front Zebra');

    // A second printer does not take the default; removing the default hands it to the other one.
    const back: ZebraEmulator = await startZebraEmulator({ dpi: 203 });
    try {
      await addPrinter(page, 'Back Zebra', back.uri);
      await expect(printerRow(page, 'Back Zebra').getByText('Default', { exact: true })).toHaveCount(0);
      await page.getByRole('button', { name: 'Remove Front Zebra' }).click();
      await page
        .getByRole('group', { name: 'Remove Front Zebra?' })
        .getByRole('button', { name: 'Yes, remove' })
        .click();
      await expect(printerRow(page, 'Front Zebra')).toHaveCount(0);
      await expect(printerRow(page, 'Back Zebra').getByText('Default', { exact: true })).toBeVisible();
      await page.getByRole('link', { name: 'Print', exact: true }).click();
      await expect(printerBox.locator('option:checked')).toHaveText('Back Zebra');
    } finally {
      await back.close();
    }
  });
});

test('a printer added by its bare IP and port is a network printer on port 9100 or the port typed; a Windows share is explained', async ({
  page,
}) => {
  const other = await startZebraEmulator({ dpi: 300 });
  try {
    await addPrinter(page, 'Bare Zebra', `127.0.0.1:${other.port}`);
    const row = printerRow(page, 'Bare Zebra');
    await expect(row).toContainText(`tcp://127.0.0.1:${other.port}`);
    await expect(row).toContainText(`Network 127.0.0.1:${other.port}`);
    // It is really that printer: it answers its status.
    await expect(row.getByText('Ready')).toBeVisible({ timeout: 20_000 });

    await page.getByRole('button', { name: 'Add printer' }).click();
    const form = page.getByRole('form', { name: 'Add printer' });
    await form.getByLabel('Name').fill('Office share');
    await form.getByLabel('Address (URI)').fill('\\\\print-srv\\Zebra');
    await form.getByRole('button', { name: 'Save printer' }).click();
    await expect(form.getByText(/a Windows share .* cannot be printed to directly/)).toBeVisible();
    await expect(form.getByLabel('Address (URI)')).toBeFocused();
    await form.getByLabel('Address (URI)').fill('127.0.0.9');
    await form.getByRole('button', { name: 'Save printer' }).click();
    await expect(form).toHaveCount(0);
    await expect(printerRow(page, 'Office share')).toContainText('tcp://127.0.0.9:9100');
  } finally {
    await other.close();
  }
});

test('media type, print speed and print mode set on the printer reach it with every label; Calibrate sends ~JC and says how it went', async ({
  page,
  app,
}) => {
  await page.getByRole('link', { name: /Printers & Settings/ }).click();
  await page.getByRole('button', { name: 'Edit Dock Zebra' }).click();
  const form = page.getByRole('form', { name: 'Edit printer' });
  await form.getByLabel('Media type').selectOption({ label: 'Labels with a black mark' });
  await form.getByLabel(/Print speed/).fill('15');
  await form.getByRole('button', { name: 'Save printer' }).click();
  await expect(form.getByText(/Print speed: type whole inches per second from 1 to 14/)).toBeVisible();
  await expect(form.getByLabel(/Print speed/)).toBeFocused();
  await form.getByLabel(/Print speed/).fill('3');
  await form.getByLabel('Print mode').selectOption({ label: 'Peel-off' });
  await form.getByRole('button', { name: 'Save printer' }).click();
  await expect(form).toHaveCount(0);
  const row = printerRow(page, 'Dock Zebra');
  await expect(row).toContainText('labels with a black mark · 3 in/s · peel-off');

  await page.getByRole('link', { name: 'Print', exact: true }).click();
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill('shipping');
  await expect(page.getByRole('listbox', { name: 'Template' }).getByRole('option')).toHaveCount(1);
  await search.press('Enter');
  await page.getByRole('textbox', { name: /Recipient/ }).fill('Ada Lovelace');
  await page.getByRole('textbox', { name: /Address/ }).fill('12 Analytical Row\nLondon');
  await page.getByRole('textbox', { name: /Tracking number/ }).fill('1Z999AA10123456784');
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect.poll(() => app.zebra.printer.printed.length, { timeout: 30_000 }).toBe(1);
  // After ^XA (and the job's tag comment): black mark, peel-off, 3 in/s.
  const lines = app.zebra.jobs[0]!.zpl.split('\n');
  expect(lines[0]).toMatch(/^\^XA/);
  expect(lines.slice(1, 4)).toEqual(['^MNM', '^MMP', '^PR3']);

  // The printer says peel-off now (its ~HS print mode), and Calibrate makes it measure its labels.
  await page.getByRole('link', { name: /Printers & Settings/ }).click();
  await row.getByRole('button', { name: 'Calibrate Dock Zebra' }).click();
  const result = row.getByRole('status', { name: 'Calibration of Dock Zebra' });
  await expect(result).toHaveText(
    'Dock Zebra measured its labels and is ready. Its labels are 152 mm (1218 dots) long.',
  );
  expect(app.zebra.printer.calibrations).toBe(1);

  app.zebra.setFault({ paperOut: true });
  await row.getByRole('button', { name: 'Calibrate Dock Zebra' }).click();
  await expect(result).toHaveText(/Dock Zebra was asked to calibrate, but it says: Paper out/);
  expect(app.zebra.printer.calibrations).toBe(2);

  // Back to the printer's own settings: nothing more is sent for them.
  await page.getByRole('button', { name: 'Edit Dock Zebra' }).click();
  await form.getByLabel('Media type').selectOption({ label: 'Printer’s own' });
  await form.getByLabel(/Print speed/).fill('');
  await form.getByLabel('Print mode').selectOption({ label: 'Printer’s own' });
  await form.getByRole('button', { name: 'Save printer' }).click();
  await expect(form).toHaveCount(0);
  await expect(row).not.toContainText('in/s');
});

test('Scan network finds the printers of a range on loopback with model and dpi, and adds one in a click', async ({
  page,
}) => {
  // Loopback only: printers at 127.0.0.2 and 127.0.0.3 on one port.
  const a = await startZebraEmulator({ dpi: 203, host: '127.0.0.2' });
  const b = await startZebraEmulator({ dpi: 300, host: '127.0.0.3', port: a.port });
  try {
    await page.getByRole('link', { name: /Printers & Settings/ }).click();
    await page.getByRole('button', { name: 'Scan network' }).click();
    const form = page.getByRole('form', { name: 'Scan network' });
    await form.getByLabel('Addresses').fill('127.0.0.0/16');
    await form.getByLabel('Port').fill(String(a.port));
    await form.getByRole('button', { name: 'Scan', exact: true }).click();
    await expect(form.getByText(/Addresses: 127\.0\.0\.0\/16 holds 65536 addresses/)).toBeVisible();

    await form.getByLabel('Addresses').fill('127.0.0.0/29');
    await form.getByRole('button', { name: 'Scan', exact: true }).click();
    const result = form.getByRole('status', { name: 'Network scan result' });
    await expect(result).toContainText('Scanned 6 addresses. 2 printers found.', { timeout: 30_000 });
    await expect(result).toContainText('ZD421-300dpi (300 dpi) at 127.0.0.3');
    await result.getByRole('button', { name: 'Add ZD421-203dpi (203 dpi) at 127.0.0.2' }).click();
    const add = page.getByRole('form', { name: 'Add printer' });
    await expect(add.getByLabel('Address (URI)')).toHaveValue(`tcp://127.0.0.2:${a.port}`);
    await add.getByRole('button', { name: 'Save printer' }).click();
    await expect(add).toHaveCount(0);
    // In the printers list: a network printer at that address, under the scanned name.
    await expect(page.getByRole('listitem').filter({ hasText: `Network 127.0.0.2:${a.port}` })).toContainText(
      'ZD421-203dpi (203 dpi) at 127.0.0.2',
    );
  } finally {
    await a.close();
    await b.close();
  }
});
