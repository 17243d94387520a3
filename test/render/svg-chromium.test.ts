/**
 * The SVG we hand to users must look the same in a browser as in our own rasteriser: the element gallery
 * (every element kind, every barcode format, bidi text, an image) drawn by resvg and by Chromium differs in
 * less than 1 % of pixels. Antialiasing differs between the two engines, so each channel may differ by a
 * little; a pixel counts as different when any channel differs by more than that.
 */
import { Resvg } from '@resvg/resvg-js';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSvgLabels } from '../../src/outputs/render';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { resolve } from '../../src/resolve/resolve';
import { decodePngToRgba } from '../support/grey-image';
import { SAMPLE_DATA, bundledTemplate } from '../support/templates';

/** Per channel, out of 255: edge coverage differs between Skia and resvg by up to about this much. */
const CHANNEL_TOLERANCE = 32;
const MAX_DIFFERENT = 0.01;

interface Rgba {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Share of pixels where some channel differs by more than the tolerance; `dx` shifts `b` right. */
function differentShare(a: Rgba, b: Rgba, dx = 0): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let different = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 4;
      const bx = x - dx;
      const j = (y * b.width + Math.min(b.width - 1, Math.max(0, bx))) * 4;
      for (let c = 0; c < 4; c++) {
        if (Math.abs(a.rgba[i + c]! - b.rgba[j + c]!) > CHANNEL_TOLERANCE) {
          different++;
          break;
        }
      }
    }
  }
  return different / (a.width * a.height);
}

let browser: Browser;
let svg: string;
beforeAll(async () => {
  const markups = resolve(
    bundledTemplate('element-gallery-4x6'),
    SAMPLE_DATA['element-gallery-4x6'] ?? {},
    1,
  );
  svg = (await renderSvgLabels(markups, nodeRenderPorts()))[0]!;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
});

/** Chromium's rendering of the SVG inline in a zero-margin page of exactly its size, at `scale` px per px. */
async function chromiumShot(scale: number): Promise<Rgba> {
  // The root declares inches; a page of that size in CSS px (96 per inch) holds it exactly.
  const [, w, h] = /^<svg [^>]*width="([\d.]+)in" height="([\d.]+)in"/.exec(svg) ?? [];
  const page = await browser.newPage({
    viewport: { width: Number(w) * 96, height: Number(h) * 96 },
    deviceScaleFactor: scale,
  });
  try {
    await page.setContent(`<!doctype html><html><body style="margin:0;background:#fff">${svg}</body></html>`);
    return decodePngToRgba(await page.screenshot({ type: 'png' }));
  } finally {
    await page.close();
  }
}

function resvgRender(width: number): Rgba {
  const r = new Resvg(svg, {
    font: { loadSystemFonts: false },
    fitTo: { mode: 'width', value: width },
    background: 'white',
  }).render();
  return { width: r.width, height: r.height, rgba: new Uint8Array(r.pixels) };
}

describe('element-gallery-4x6 as SVG, resvg vs Chromium', () => {
  it('is sized 4 × 6 in, in inches, with a viewBox in CSS px', () => {
    expect(svg).toMatch(/^<svg [^>]*width="4in" height="6in" viewBox="0 0 384 576"/);
  });

  it.each([
    { what: 'at 96 dpi (1 px per CSS px)', scale: 1, width: 384 },
    { what: 'at 203 dpi (a thermal printer)', scale: 203 / 96, width: 812 },
  ])('differs in less than 1 percent of pixels $what', async ({ scale, width }) => {
    const browserPixels = await chromiumShot(scale);
    const ours = resvgRender(width);
    const share = differentShare(browserPixels, ours);
    expect(share).toBeLessThan(MAX_DIFFERENT);
    // The comparison can fail: the same rendering 1 px out of register is far over the limit.
    expect(differentShare(browserPixels, ours, 1)).toBeGreaterThan(MAX_DIFFERENT * 3);
  });
});
