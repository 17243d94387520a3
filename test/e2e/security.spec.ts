/**
 * Web mode's guards as a browser meets them: the printed URL signs the browser in and leaves no token in the
 * address bar, another browser gets nothing at all, and the app renders and prints under its Content Security
 * Policy (no 'unsafe-inline') without a single violation — in the page or in the print frame.
 */
import { expect, test } from './fixtures';

test('the printed URL signs in and leaves no token behind; without it nothing is served', async ({
  page,
  app,
  browser,
}) => {
  expect(page.url()).not.toContain('token');
  await expect(page.getByRole('link', { name: 'Settings' })).toBeVisible();

  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  const response = await other.goto(new URL(app.url).origin);
  expect(response?.status()).toBe(401);
  await expect(other.getByText('not signed in to LabelDesk')).toBeVisible();
  await stranger.close();
});

test('renders, previews and prints under the CSP with no violation', async ({ page }) => {
  // Every frame records what the CSP refused, from its first script on.
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[]; print: () => void };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
    );
    w.print = () => undefined;
  });
  const consoleViolations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) consoleViolations.push(m.text());
  });
  await page.reload();

  await page.getByRole('listbox', { name: 'Template' }).getByRole('option', { name: 'shipping-4x6' }).click();
  await page.getByRole('textbox', { name: /Recipient/ }).fill('Ada Lovelace');
  await page.getByRole('textbox', { name: /Address/ }).fill('12 Analytical Row\nLondon');
  await page.getByRole('textbox', { name: /Tracking number/ }).fill('1Z999AA10123456784');
  await expect(page.getByTestId('preview').locator('canvas').first()).toBeVisible();
  await page.getByRole('button', { name: /System print dialog/ }).click();
  await expect.poll(() => page.frames().length).toBeGreaterThan(1);
  for (const name of ['Batch', 'History', 'Settings']) {
    await page.getByRole('link', { name }).click();
  }
  await expect(page.getByRole('heading', { name: 'Hosted API' })).toBeVisible();
  // Web mode has no folder dialog: no folder for file printers unless given at start, and it says how.
  await expect(page.getByTestId('file-printer-folder')).toHaveText(/No folder chosen/);
  await expect(page.getByText('--file-printer-folder DIR')).toBeVisible();

  // The stylesheet applied: the app is laid out by its CSS, not shown as bare markup.
  const rail = await page
    .locator('nav')
    .first()
    .evaluate((n) => getComputedStyle(n).display);
  expect(rail).not.toBe('inline');
  const violations: string[] = [];
  for (const frame of page.frames()) {
    violations.push(
      ...(await frame.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? [])),
    );
  }
  expect(violations).toEqual([]);
  expect(consoleViolations).toEqual([]);
});
