import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getDot } from '../../src/render/bitmap';
import { rasterizeRgba, renderPng, svgImageToPng, toMonoBitmap } from '../../src/node/resvg';
import { writeMonoPgm } from '../support/pgm';
import { zbarValues } from '../support/zbar';
import { code128, fonts, scene, shippingLabel, tempDir } from '../render/fixtures';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Width, height and pixels per metre (pHYs) of a PNG. */
function pngInfo(png: Uint8Array): { width: number; height: number; ppm?: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const info: { width: number; height: number; ppm?: number } = {
    width: view.getUint32(16),
    height: view.getUint32(20),
  };
  for (let at = 8; at + 8 <= png.length;) {
    const len = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (type === 'pHYs') info.ppm = view.getUint32(at + 8);
    at += 12 + len;
  }
  return info;
}

describe('renderPng', () => {
  it.each([
    [96, 384, 576, 3780],
    [203, 812, 1218, 7992],
    [300, 1200, 1800, 11811],
  ])('renders a 4 × 6 in px scene at %i dpi as %i × %i pixels, dpi recorded', (dpi, w, h, ppm) => {
    const png = renderPng(shippingLabel(), fonts, { dpi });
    expect(pngInfo(png)).toEqual({ width: w, height: h, ppm });
  });

  it('renders a dots scene at one pixel per dot by default', () => {
    const png = renderPng(scene('dots', 203, 812, 1218, []), fonts);
    expect(pngInfo(png)).toEqual({ width: 812, height: 1218, ppm: 7992 });
  });

  it('produces a PNG whose barcode zbarimg decodes', () => {
    const file = join(dir, 'label-203.png');
    writeFileSync(file, renderPng(shippingLabel(), fonts, { dpi: 203 }));
    expect(zbarValues(file)).toEqual(['LABELDESK-42']);
  });
});

describe('rasterizeRgba', () => {
  it('gives straight RGBA on white at the requested scale', () => {
    const s = scene('px', 96, 100, 50, [
      { kind: 'rect', x: 0, y: 0, width: 50, height: 50, fill: '#ff0000' },
    ]);
    const img = rasterizeRgba(s, fonts, { scale: 2 });
    expect([img.width, img.height, img.rgba.length]).toEqual([200, 100, 200 * 100 * 4]);
    expect([...img.rgba.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    expect([...img.rgba.subarray((100 * 200 - 1) * 4)]).toEqual([255, 255, 255, 255]);
  });
});

describe('toMonoBitmap', () => {
  it('prints whole-dot barcode modules exactly, and zbarimg decodes the bitmap', () => {
    const bar = code128('LABELDESK-42', 20, 20, 3, 120);
    const s = scene('dots', 203, 600, 160, [bar]);
    const bitmap = toMonoBitmap(s, fonts);
    expect([bitmap.width, bitmap.height]).toEqual([600, 160]);
    // Along one row, black exactly where a bar is: no anti-aliased grey turned into a wider or narrower bar.
    const inBar = (x: number): boolean => {
      for (let i = 0; i < bar.rects.length; i += 4) {
        const x0 = bar.rects[i] ?? 0;
        if (x >= x0 && x < x0 + (bar.rects[i + 2] ?? 0)) return true;
      }
      return false;
    };
    for (let x = 0; x < 600; x++) expect(getDot(bitmap, x, 80)).toBe(inBar(x));
    const file = join(dir, 'mono-barcode.pgm');
    writeMonoPgm(file, bitmap);
    expect(zbarValues(file)).toEqual(['LABELDESK-42']);
  });

  it('renders a px scene at the printer dpi', () => {
    const bitmap = toMonoBitmap(shippingLabel(), fonts, { dpi: 203 });
    expect([bitmap.width, bitmap.height, bitmap.rowBytes]).toEqual([812, 1218, 102]);
    const file = join(dir, 'mono-label.pgm');
    writeMonoPgm(file, bitmap);
    expect(zbarValues(file)).toEqual(['LABELDESK-42']);
  });
});

describe('svgImageToPng', () => {
  it('rasterises an SVG image at an exact pixel size, stretched', () => {
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    expect(pngInfo(svgImageToPng(svg, 300, 150))).toMatchObject({ width: 300, height: 150 });
  });
});
