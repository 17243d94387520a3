/**
 * Issue #33: labels written from the ZPL II guide (corpus.ts) rendered by our reader and rasteriser and, in the
 * same test, by an independent renderer from npm (zpl-renderer-js: zebrash compiled to WebAssembly). Every bar
 * code must decode (zbarimg and ZXing) to the same value from both images, and the black dots must agree.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ready } from 'zpl-renderer-js';
import { loadBundledFonts } from '../../../src/node/fonts';
import { createMonoBitmap, getDot, setDot, type MonoBitmap } from '../../../src/render/bitmap';
import { renderMono } from '../../../src/render/dots';
import { readZpl } from '../../../src/zpl/read';
import { decodePngToGrey } from '../../support/grey-image';
import { writeMonoPgm } from '../../support/pgm';
import { zbarDecodeAsync } from '../../support/zbar';
import { zxingDecode } from '../../support/zxing';
import { CORPUS } from './corpus';

const DPI = 203;
const dir = mkdtempSync(join(tmpdir(), 'ld-zpl-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A white margin so scanners find quiet zones at the label's edge. */
const MARGIN = 20;

async function decodeAll(bitmap: MonoBitmap, name: string): Promise<string[]> {
  const path = join(dir, `${name}.pgm`);
  writeMonoPgm(path, bitmap, MARGIN);
  const w = bitmap.width + 2 * MARGIN;
  const h = bitmap.height + 2 * MARGIN;
  const grey = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < bitmap.height; y++)
    for (let x = 0; x < bitmap.width; x++) if (getDot(bitmap, x, y)) grey[(y + MARGIN) * w + x + MARGIN] = 0;
  const [zbar, zxing] = await Promise.all([
    zbarDecodeAsync(path, {}),
    zxingDecode({ width: w, height: h, grey }),
  ]);
  // ZXing reads UPC-A as the EAN-13 it is, with a leading 0; zbarimg (UPC-A on) as 12 digits.
  const values = [...zbar.map((d) => d.value), ...zxing.map((d) => d.text)].map((v) =>
    /^0\d{12}$/.test(v) ? v.slice(1) : v,
  );
  return [...new Set(values)].sort();
}

/** The reference PNG as dots: black where its grey is under half. */
function pngToMono(png: Uint8Array): MonoBitmap {
  const { width, height, grey } = decodePngToGrey(png);
  const bitmap = createMonoBitmap(width, height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) if ((grey[y * width + x] ?? 255) < 128) setDot(bitmap, x, y, true);
  return bitmap;
}

/** Share of `a`'s black dots with a black dot of `b` within `reach` dots. */
function covered(a: MonoBitmap, b: MonoBitmap, reach: number): number {
  let black = 0;
  let hit = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (!getDot(a, x, y)) continue;
      black++;
      search: for (let dy = -reach; dy <= reach; dy++) {
        for (let dx = -reach; dx <= reach; dx++) {
          const bx = x + dx;
          const by = y + dy;
          if (bx >= 0 && by >= 0 && bx < b.width && by < b.height && getDot(b, bx, by)) {
            hit++;
            break search;
          }
        }
      }
    }
  }
  return black ? hit / black : 1;
}

describe('ZPL labels: ours against zpl-renderer-js (zebrash)', async () => {
  const fonts = loadBundledFonts();
  const { api } = await ready;
  for (const label of CORPUS) {
    it(`${label.name}: every bar code decodes to the same value from both, and the dots agree`, async () => {
      const { labels, warnings } = readZpl(label.zpl, { fonts, dpi: DPI });
      expect(warnings).toEqual([]);
      expect(labels).toHaveLength(1);
      const scene = labels[0]!.scene;
      expect(labels[0]!.warnings).toEqual([]);
      const ours = renderMono(scene, fonts);
      const png = await api.zplToBase64Async(label.zpl, ours.width / 8, ours.height / 8, 8);
      const theirs = pngToMono(Buffer.from(png, 'base64'));
      expect([theirs.width, theirs.height]).toEqual([ours.width, ours.height]);
      const [ourValues, theirValues] = await Promise.all([
        decodeAll(ours, `${label.name}-ours`),
        decodeAll(theirs, `${label.name}-theirs`),
      ]);
      expect(ourValues).toEqual(label.barcodes);
      expect(theirValues).toEqual(label.barcodes.filter((v) => !label.theirsLacks?.includes(v)));
      // Black dots of each within 1 dot of a black dot of the other (fonts differ: see docs/zpl.md).
      const agreement = Math.min(covered(ours, theirs, 1), covered(theirs, ours, 1));
      if (process.env.ZPL_FIGURES) console.log(label.name, agreement.toFixed(4));
      expect(agreement).toBeGreaterThanOrEqual(label.minAgreement ?? 0.9);
    }, 60_000);
  }

  it('^A0 and font D text is as wide and as high as zpl-renderer-js draws it, within 5 % and 3 dots', async () => {
    const cases: Array<[font: string, h: number, w: number, text: string]> = [
      ['0', 40, 40, 'WAREHOUSE 12345'],
      ['0', 60, 30, 'Jane Example'],
      ['0', 30, 30, 'abcdefghijklmnopqrstuvwxyz'],
      ['0', 100, 100, 'HXH'],
      ['0', 20, 20, 'Springfield 12345'],
      ['D', 36, 20, 'MMMMMMMMMM'],
    ];
    for (const [font, h, w, text] of cases) {
      const zpl = `^XA^PW1600^LL200^FO10,10^A${font}N,${h},${w}^FD${text}^FS^XZ`;
      const ours = renderMono(readZpl(zpl, { fonts, dpi: DPI }).labels[0]!.scene, fonts);
      const theirs = pngToMono(Buffer.from(await api.zplToBase64Async(zpl, 200, 25, 8), 'base64'));
      const a = inkBox(ours);
      const b = inkBox(theirs);
      if (process.env.ZPL_FIGURES) console.log(zpl, a, b, (a.x1 - a.x0 + 1) / (b.x1 - b.x0 + 1));
      expect((a.x1 - a.x0 + 1) / (b.x1 - b.x0 + 1)).toBeGreaterThan(0.95);
      expect((a.x1 - a.x0 + 1) / (b.x1 - b.x0 + 1)).toBeLessThan(1.05);
      expect(Math.abs(a.y1 - b.y1)).toBeLessThanOrEqual(3);
      expect(Math.abs(a.y0 - b.y0)).toBeLessThanOrEqual(3);
    }
  }, 60_000);
});

/** Bounding box of the black dots. */
function inkBox(b: MonoBitmap) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      if (!getDot(b, x, y)) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  }
  return { x0, y0, x1, y1 };
}
