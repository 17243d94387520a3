/**
 * Issue #42 on the Print screen, History and Settings as a user meets them at the front desk's screen sizes
 * (1366 × 768 and 1024 × 768), in Chromium against web mode and the Zebra emulator: a barcode fed by an empty
 * field says so at the field before anything prints (item 3), a blocked print or save names the field next to
 * its button and the form shows a label's fields (4), "Test connection" tests what is typed (8), History says
 * what is on each job and asks before a reprint (12), error texts name the field, not the channel (13), and the
 * toasts, the form's heading and the template list (14).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, startHostedApi, test } from './fixtures';

const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 1024, height: 768 },
] as const;

/** A shelf label designed from scratch: its SKU (not required, no placeholder) feeds a Code 128. */
const SHELF = {
  schemaVersion: 1,
  name: 'shelf-sku',
  title: 'Shelf label with SKU',
  stage: { width: 2, height: 1, unit: 'in' },
  fields: [
    { name: 'product', label: 'Product', placeholder: 'Product', required: true },
    { name: 'sku', label: 'SKU', placeholder: '' },
  ],
  elements: [
    { type: 'text', x: 5, y: 3, width: 180, height: 24, text: '{product}', font: { size: 11 } },
    { type: 'barcode', x: 5, y: 30, width: 180, height: 60, format: 'code128', text: '{sku}' },
  ],
};

async function pick(page: Page, name: RegExp): Promise<void> {
  await page.getByRole('listbox', { name: 'Template' }).getByRole('option', { name }).click();
}

for (const viewport of VIEWPORTS) {
  const size = `${viewport.width}×${viewport.height}`;

  test.describe(size, () => {
    test.use({ viewport });

    test(`item 3: an empty SKU that feeds a barcode is the field's problem, before any print (${size})`, async ({
      page,
      app,
    }) => {
      mkdirSync(join(app.dataDir, 'templates'), { recursive: true });
      writeFileSync(join(app.dataDir, 'templates', 'shelf-sku.json'), JSON.stringify(SHELF));
      await page.reload();
      await pick(page, /Shelf label with SKU/);
      await page.getByRole('textbox', { name: /Product/ }).fill('Green tea 100 g');
      await page.getByRole('button', { name: 'Print', exact: true }).click();

      const sku = page.getByRole('textbox', { name: 'SKU' });
      await expect(sku).toBeFocused();
      await expect(sku).toHaveAccessibleDescription(/SKU is empty — the barcode needs a value/);
      await expect(page.getByRole('alert').filter({ hasText: 'Not printed' })).toHaveText(
        /Not printed: SKU is empty — the barcode needs a value/,
      );
      // No toast in the engine's words (the preview's own list of what it could not draw is item 1's), and
      // nothing sent.
      await expect(page.getByTestId('error-toast')).toHaveCount(0);
      await expect(
        page.getByRole('alert').filter({ hasText: /elements\[1\]|Code 128: the value is empty/ }),
      ).toHaveCount(0);
      expect(app.zebra.jobs).toHaveLength(0);

      // Nothing about this form follows the user to another screen.
      await page.getByRole('link', { name: 'History' }).click();
      await expect(page.getByText(/SKU is empty/)).toHaveCount(0);
      await page.getByRole('link', { name: 'Print', exact: true }).click();

      // Typed, it prints.
      await sku.fill('SKU-1234');
      await page.getByRole('button', { name: 'Print', exact: true }).click();
      await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);
      await expect(page.getByRole('alert').filter({ hasText: 'Not printed' })).toHaveCount(0);
    });

    test(`item 4: the form shows a label's fields, a blocked save names the field by its button (${size})`, async ({
      page,
    }) => {
      await pick(page, /Product label 2×1/);
      // Every field of the four-field product label is in view: none below the fold of the form.
      for (const name of [/Product name/, 'SKU', 'Price', /EAN-13/]) {
        await expect(page.getByRole('textbox', { name })).toBeInViewport({ ratio: 1 });
      }

      // The GS1 label has more fields than fit: Save PDF with a required one below the fold left empty says
      // which next to the button, and the cursor goes to it, in view.
      await pick(page, /GS1 logistic label/);
      await page.getByRole('textbox', { name: /GTIN of contents/ }).fill('09501101530003');
      await page.getByRole('textbox', { name: /Count/ }).fill('12');
      await page.getByRole('textbox', { name: /Batch\/lot/ }).fill('L42');
      await page.getByRole('textbox', { name: 'Best before' }).fill('2027-03-31');
      await page.getByRole('textbox', { name: /Ship from/ }).fill('Supplier\n1 Road\nTown');
      await page.getByRole('button', { name: 'Save PDF' }).click();
      const notice = page.getByRole('alert').filter({ hasText: 'Not saved' });
      await expect(notice).toHaveText(/^Not saved: Ship to is required/);
      await expect(notice).toBeInViewport();
      const shipTo = page.getByRole('textbox', { name: /Ship to/ });
      await expect(shipTo).toBeFocused();
      await expect(shipTo).toBeInViewport();
      await expect(page.getByRole('button', { name: 'Save PDF' })).toHaveAccessibleDescription(/Not saved/);

      // Filled, the notice goes.
      await shipTo.fill('Customer\n2 Street\nCity');
      await expect(notice).toHaveCount(0);
    });

    test(`item 8: Test connection tests what is typed, without saving it (${size})`, async ({
      page,
      app,
    }) => {
      const hosted = await startHostedApi();
      try {
        await page.getByRole('link', { name: /Printers & Settings/ }).click();
        await page.getByLabel('Base URL').fill(hosted.url);
        await page.getByLabel('API key').fill(hosted.key);
        await page.getByLabel('API secret').fill(hosted.secret);
        await page.getByRole('button', { name: 'Test connection' }).click();
        await expect(page.getByRole('status').filter({ hasText: /Connected/ })).toContainText(
          /Connected: the hosted API accepted the key and secret/,
        );
        // Not saved: after a reload the form is as Settings have it, and the bundled engine still prints.
        await page.reload();
        await page.getByRole('link', { name: /Printers & Settings/ }).click();
        await expect(page.getByLabel('Base URL')).toHaveValue('');
        await expect(page.getByTestId('connection')).toContainText(/Local/);

        // A wrong secret typed is refused in so many words; nothing was kept.
        await page.getByLabel('Base URL').fill(hosted.url);
        await page.getByLabel('API key').fill(hosted.key);
        await page.getByLabel('API secret').fill('not-the-secret');
        await page.getByRole('button', { name: 'Test connection' }).click();
        await expect(page.getByTestId('connection-test')).toContainText(/refused the credentials \(401\)/);
        expect(app.stderr()).not.toContain(hosted.secret);
        expect(app.stderr()).not.toContain('not-the-secret');
      } finally {
        await hosted.close();
      }
    });
  });
}

test('item 13: a request refused names the field by its label, never the channel', async ({ page, app }) => {
  await page.getByRole('link', { name: /Printers & Settings/ }).click();
  await page.getByLabel('Site URL').fill('http://10.0.0.5:8787');
  await page.getByRole('button', { name: 'Save site server' }).click();
  await expect(
    page.getByRole('form', { name: 'Site server' }).getByText(/^Site URL: use https:\/\//),
  ).toBeVisible();
  await expect(page.getByText(/settings\.update|siteUrl/)).toHaveCount(0);
  // The log keeps the channel and the path.
  await expect.poll(() => app.stderr()).toMatch(/settings\.update: siteUrl/);
});

test('item 12: History says what is on each job, finds it by a value, and asks before a reprint', async ({
  page,
  app,
}) => {
  await pick(page, /Shipping label 4×6/);
  await page.getByRole('textbox', { name: /Recipient/ }).fill('Ada Lovelace');
  await page.getByRole('textbox', { name: /Address/ }).fill('12 Analytical Row\nLondon');
  await page.getByRole('textbox', { name: /Tracking number/ }).fill('1Z999AA10123456784');
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);

  await page.getByRole('link', { name: 'History' }).click();
  const jobs = page.getByRole('table', { name: 'Jobs' });
  const row = jobs.getByRole('row').filter({ hasText: 'Job 1' });
  await expect(row).toContainText('Recipient: Ada Lovelace');
  await expect(row).toContainText('Address: 12 Analytical Row / London');
  await page.getByRole('searchbox', { name: 'Find' }).fill('lovelace');
  await expect(jobs.getByRole('row')).toHaveCount(2);

  await row.getByRole('button', { name: 'Job 1' }).click();
  await page.getByRole('button', { name: 'Reprint job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reprint job 1?' });
  await expect(dialog).toContainText(
    '1 label of shipping-4x6 (Ada Lovelace, 12 Analytical Row / London) will print again on Dock Zebra.',
  );
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(jobs.getByRole('row')).toHaveCount(2);

  await page.getByRole('button', { name: 'Reprint job' }).click();
  await dialog.getByRole('button', { name: 'Reprint 1 label on Dock Zebra' }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(2);
});

test.describe('item 14', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('the job toast covers no preview and goes when dismissed; the title heads the form; pinned and recent first', async ({
    page,
    app,
  }) => {
    const options = page.getByRole('listbox', { name: 'Template' }).getByRole('option');
    await pick(page, /Shipping label 4×6/);
    await expect(page.getByRole('heading', { name: 'Shipping label 4×6' })).toBeVisible();

    await page.getByRole('textbox', { name: /Recipient/ }).fill('Ada Lovelace');
    await page.getByRole('textbox', { name: /Address/ }).fill('12 Analytical Row\nLondon');
    await page.getByRole('textbox', { name: /Tracking number/ }).fill('1Z999AA10123456784');
    await page.getByRole('button', { name: 'Print', exact: true }).click();
    await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);
    const toast = page.getByTestId('job-toast');
    await expect(toast).toContainText(/Done/i);
    const t = (await toast.boundingBox())!;
    for (const covered of [page.getByRole('region', { name: 'Preview' }), page.locator('.output')]) {
      const b = (await covered.boundingBox())!;
      const overlaps =
        t.x < b.x + b.width && b.x < t.x + t.width && t.y < b.y + b.height && b.y < t.y + t.height;
      expect(overlaps, 'the toast covers the preview or the Print button').toBe(false);
    }
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await expect(toast).toHaveCount(0);

    // The label printed is the first in the list (recent); one pinned goes above it, and stays after a reload.
    await expect(options.first()).toHaveAccessibleName(/Shipping label 4×6/);
    await pick(page, /Visitor badge/);
    await page.getByRole('button', { name: 'Pin to top' }).click();
    await expect(page.getByRole('button', { name: 'Pin to top' })).toHaveAttribute('aria-pressed', 'true');
    await expect(options.first()).toHaveAccessibleName(/Visitor badge/);
    await expect(options.nth(1)).toHaveAccessibleName(/Shipping label 4×6/);
    await page.reload();
    await expect(options.first()).toHaveAccessibleName(/Visitor badge/);
  });
});
