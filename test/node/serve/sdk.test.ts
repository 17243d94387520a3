/**
 * The browser SDK of route 02 (spec §4.2) in a real Chromium: the demo page is served by one labeldesk serve
 * (origin A, the "client's site"), the API by another (origin B, CORS allowing A only). Printing 2 copies
 * through the demo's form must call route 02 across origins, draw 2 copies into the print frame's #printRoot
 * with the engine's own layout, size the page to the label and call the frame's print().
 */
import { Resvg } from '@resvg/resvg-js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildSdk } from '../../../scripts/build-sdk.mjs';
import { zbarValues } from '../../support/zbar';
import { startHarness, type Harness } from './harness';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

let work: string;
let site: Harness; // origin A: serves the demo and print pages, the SDK and its fonts
let api: Harness; // origin B: the API
let browser: Browser;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ld-sdk-'));
  const sdkBundle = join(work, 'labeldesk-sdk.js');
  await buildSdk(sdkBundle);
  site = await startHarness({ sdkBundle });
  api = await startHarness({ sdkBundle, corsOrigins: [site.url] });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
  });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await api?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('browser SDK (route 02)', () => {
  test('the demo page prints 2 copies through a hidden frame, drawn by the engine, with @page = label size', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Runs in every frame, the print frame included: print() counts instead of opening a dialog.
    await page.addInitScript(() => {
      (window as any).__printCalls = 0;
      window.print = () => {
        (window as any).__printCalls++;
      };
    });
    await page.goto(`${site.url}/sdk/demo.html`);
    await page.fill('#apiBaseUrl', api.url);
    await page.fill('#apiKey', api.key);
    await page.fill('#apiSecret', api.secret);
    await page.fill('#labelName', 'shipping-4x6');
    await page.fill('#amount', '2');
    await page.fill(
      '#apiData',
      JSON.stringify({ ship_to_name: 'Ada Lovelace', tracking: '1Z999AA10123456784' }),
    );
    await page.click('button[type=submit]');
    await page.waitForFunction(() => /sent|:/.test(document.getElementById('status')?.textContent ?? ''));
    expect(await page.textContent('#status')).toBe('sent 2 copies to the print dialog');
    expect(errors).toEqual([]);

    const frame = page.frames().find((f) => f.url().endsWith('/sdk/print-label.html'));
    expect(frame).toBeDefined();
    const drawn = await frame!.evaluate(() => {
      const copies = [...document.querySelectorAll('#printRoot > .ld-copy')];
      return {
        copies: copies.length,
        svgs: copies.map((c) => c.querySelector('svg')?.outerHTML ?? ''),
        boxes: copies.map((c) => {
          const r = c.getBoundingClientRect();
          return [Math.round(r.width), Math.round(r.height)];
        }),
        css: document.getElementById('labeldesk-print-style')?.textContent ?? '',
        printCalls: (window as any).__printCalls as number,
      };
    });
    expect(drawn.copies).toBe(2);
    expect(drawn.printCalls).toBe(1);
    expect(drawn.css).toContain('@page { size: 4in 6in; margin: 0 }');
    // 4 x 6 in at 96 CSS px per inch.
    expect(drawn.boxes).toEqual([
      [384, 576],
      [384, 576],
    ]);
    // What the browser drew is the engine's drawing: text as glyph outlines, and a Code 128 that scans.
    for (const svg of drawn.svgs) {
      expect(svg).toMatch(/<path /);
      const png = new Resvg(svg, { fitTo: { mode: 'zoom', value: 3 }, background: '#ffffff' })
        .render()
        .asPng();
      const file = join(work, 'copy.png');
      writeFileSync(file, png);
      expect(zbarValues(file)).toContain('1Z999AA10123456784');
    }
    await page.close();
  });

  test('the API answers the cross-origin preflight for the custom headers only for the configured origin', async () => {
    const ask = (origin: string) =>
      fetch(`${api.url}/custom-labels/print`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type,x-api-key,x-api-secret',
        },
      });
    const allowed = await ask(site.url);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(site.url);
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-secret');
    const other = await ask('http://evil.example');
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
