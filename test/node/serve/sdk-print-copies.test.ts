/**
 * The browser SDK prints every copy it receives (issue #19, checked with amount 2): each copy on its own page of
 * the label's size, also when the client's print page styles `#printRoot` (or a parent) in a way that stops
 * page breaks — a flex box, a fixed-height scroller, columns. Before the SDK undid that layout for print, those
 * pages printed the first copy only.
 *
 * Chromium cannot print a frame to PDF from outside, so the print frame's document, as the SDK left it, is laid
 * out for print in a page of its own (the same document, styles and SVGs; scripts dropped) and printed to PDF;
 * poppler counts the pages and rasterises each, and zbarimg reads the tracking number on every page.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildSdk } from '../../../scripts/build-sdk.mjs';
import { zbarValues } from '../../support/zbar';
import { startHarness, type Harness } from './harness';

const TRACKING = '1Z999AA10123456784';

let work: string;
let site: Harness;
let browser: Browser;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ld-sdk-copies-'));
  const sdkBundle = join(work, 'labeldesk-sdk.js');
  await buildSdk(sdkBundle);
  site = await startHarness({ sdkBundle });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    headless: true,
  });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Prints `amount` copies through the demo page with the print page's `#printRoot` styled by `clientCss`. */
async function printedPdf(clientCss: string, amount: number): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.addInitScript(() => {
      window.print = () => undefined;
    });
    if (clientCss) {
      await page.route('**/sdk/print-label.html', async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace('</style>', `${clientCss}</style>`);
        await route.fulfill({ response, body });
      });
    }
    await page.goto(`${site.url}/sdk/demo.html`);
    await page.fill('#apiKey', site.key);
    await page.fill('#apiSecret', site.secret);
    await page.fill('#amount', String(amount));
    await page.fill('#apiData', JSON.stringify({ tracking: TRACKING }));
    await page.click('button[type=submit]');
    await page.waitForFunction(() => /sent|:/.test(document.getElementById('status')?.textContent ?? ''));
    expect(await page.textContent('#status')).toBe(`sent ${amount} copies to the print dialog`);
    const frame = page.frames().find((f) => f.url().endsWith('/sdk/print-label.html'));
    if (!frame) throw new Error('no print frame');
    const html = await frame.evaluate(() => document.documentElement.outerHTML);
    const printed = await browser.newPage();
    try {
      await printed.setContent(html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ''));
      const file = join(work, `printed-${readdirSync(work).length}.pdf`);
      writeFileSync(file, await printed.pdf({ preferCSSPageSize: true, printBackground: true }));
      return file;
    } finally {
      await printed.close();
    }
  } finally {
    await page.close();
  }
}

describe('browser SDK: every copy on its own page', () => {
  test.each([
    ['the bundled print page', ''],
    ['#printRoot a flex box', '#printRoot { display: flex }'],
    ['#printRoot a fixed-height scroller', '#printRoot { height: 100vh; overflow: auto }'],
    ['#printRoot in two columns', '#printRoot { columns: 2 }'],
    ['a flex body around it', 'body { display: flex; height: 100vh; overflow: hidden }'],
  ])('%s: amount 2 prints 2 pages of 4 × 6 in, each with the label', async (_what, css) => {
    const pdf = await printedPdf(css, 2);
    const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+2\n/);
    expect(info).toMatch(/Page size:\s+288 x 432 pts/);
    const prefix = pdf.replace(/\.pdf$/, '');
    execFileSync('pdftoppm', ['-r', '150', '-gray', pdf, prefix]);
    for (const n of [1, 2]) expect(zbarValues(`${prefix}-${n}.pgm`)).toContain(TRACKING);
  });
});
