/**
 * Every screen at the sizes front-desk PCs run (1024 × 768 and 1280 × 800): axe-core finds no violation, the
 * "Printer view" switch is on screen and turning it on scrolls nothing sideways, the narrow rail names each
 * screen. Screenshots of every screen at both sizes land in test-results/screenshots/ (#17 items 14, 16).
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { SCREENSHOTS, expect, test } from './fixtures';

const SIZES = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const;

const DOCS = resolve(import.meta.dirname, '../../docs/screenshots');

/** axe's findings as "rule: selector" lines (empty when there is none), so a failure says where to look. */
async function violations(page: Page): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page }).analyze();
  return found.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}`));
}

/** At each size: axe finds nothing, nothing scrolls sideways, and a screenshot is saved. */
async function checkScreen(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    expect(await violations(page), `${name} at ${size.width}×${size.height}`).toEqual([]);
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways, `${name} at ${size.width}×${size.height} scrolls sideways`).toBe(0);
    const file = join(SCREENSHOTS, `screen-${name}-${size.width}x${size.height}.png`);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: file });
    if (name.startsWith('print')) {
      mkdirSync(DOCS, { recursive: true });
      copyFileSync(file, join(DOCS, `${name}-${size.width}x${size.height}.png`));
    }
  }
}

async function pickShipping(page: Page): Promise<void> {
  await page
    .getByRole('listbox', { name: 'Template' })
    .getByRole('option', { name: /Shipping label 4×6/ })
    .click();
  await expect(page.getByRole('textbox', { name: /Recipient/ })).toBeVisible();
}

test('print screen: no axe violation, the printer view switch fits and scrolls nothing sideways', async ({
  page,
}) => {
  await checkScreen(page, 'print-empty');
  await pickShipping(page);
  await page.getByRole('textbox', { name: /Recipient/ }).fill('Ada Lovelace');
  await checkScreen(page, 'print');

  for (const size of SIZES) {
    await page.setViewportSize(size);
    const toggle = page.getByRole('switch', { name: 'Printer view' });
    // On screen and not covered or clipped: a click at its centre lands on it.
    await expect(toggle).toBeInViewport({ ratio: 1 });
    const box = (await page.locator('.switch').boundingBox())!;
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest('.switch') !== null,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(hit, `the Printer view switch at ${size.width}×${size.height}`).toBe(true);
    await toggle.check();
    await expect(page.getByTestId('preview').locator('img')).toBeVisible({ timeout: 20_000 });
    const canvas = page.locator('.preview-canvas');
    const overflow = await canvas.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow, `the printer view scrolls sideways at ${size.width}×${size.height}`).toBeLessThanOrEqual(
      0,
    );
    await checkScreen(page, 'print-printer-view');
    await toggle.uncheck();
  }

  // The narrow rail names every screen (not only icons), and tells it again on hover.
  await page.setViewportSize(SIZES[0]);
  for (const name of ['Print', 'Batch', 'History', 'Printers & Settings']) {
    const link = page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name, exact: true });
    await expect(link).toHaveAttribute('title', name);
    const text = link.locator('span');
    expect((await text.boundingBox())!.width, `the rail's "${name}"`).toBeGreaterThan(20);
  }
});

test('batch, history and settings screens: no axe violation at 1024×768 and 1280×800', async ({
  page,
  app,
}) => {
  // A job to show in History.
  await pickShipping(page);
  await page.getByRole('textbox', { name: /Recipient/ }).fill('Ada Lovelace');
  await page.getByRole('textbox', { name: /Address/ }).fill('12 Analytical Row\nLondon');
  await page.getByRole('textbox', { name: /Tracking number/ }).fill('1Z999AA10123456784');
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);
  await checkScreen(page, 'print-printed');

  await page.getByRole('link', { name: 'Batch' }).click();
  await checkScreen(page, 'batch-empty');
  const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-screens-'));
  const csv = join(dir, 'orders.csv');
  writeFileSync(
    csv,
    'Recipient,Address,tracking\nCustomer 1,1 Main St,1Z999AA10123456781\nCustomer 2,2 Main St,\n',
  );
  await page
    .getByRole('combobox', { name: 'Template', exact: true })
    .selectOption({ label: 'shipping-4x6 (bundled)' });
  await page.getByRole('combobox', { name: 'Printer', exact: true }).selectOption({ label: 'Dock Zebra' });
  await page.getByLabel('CSV file').setInputFiles(csv);
  await expect(page.getByRole('table', { name: 'Problems by record' })).toBeVisible();
  await checkScreen(page, 'batch-report');

  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByRole('table', { name: 'Jobs' })).toContainText('shipping-4x6');
  await checkScreen(page, 'history');
  await page
    .getByRole('table', { name: 'Jobs' })
    .getByRole('button', { name: /^Job \d+$/ })
    .first()
    .click();
  await expect(page.getByRole('table', { name: /Labels of job/ })).toContainText(/confirmed/i);
  await checkScreen(page, 'history-job');

  await page.getByRole('link', { name: /Printers & Settings/ }).click();
  await expect(page.getByText('Dock Zebra').first()).toBeVisible();
  await checkScreen(page, 'settings');
  await page.getByRole('button', { name: 'Add printer' }).click();
  await checkScreen(page, 'settings-add-printer');
  await page.getByRole('button', { name: 'Discover' }).click();
  await expect(page.getByRole('heading', { name: 'Found on this computer' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Discover' })).toBeEnabled({ timeout: 30_000 });
  await checkScreen(page, 'settings-discover');
});
