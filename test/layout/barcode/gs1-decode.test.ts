/**
 * GS1 symbols as a scanner reads them (issue #23): each is placed on a raster target at 203, 300 and 600 dpi,
 * drawn dot by dot and read by ZXing, which must report the GS1 symbology identifier (`]C1` GS1-128, `]d2` GS1
 * DataMatrix, `]Q3` GS1 QR) and the element string with a GS after each variable-length field that is not last.
 * The X-dimension actually printed (whole dots) is reported and must lie in GS1's range; the quiet zones in the
 * drawn image must be white for their full width.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { encodeBarcode, placeBarcode, type BarcodeFormat } from '../../../src/layout/barcode';
import { GS } from '../../../src/model/barcode/gs1';
import { quietZone } from '../../../src/model/barcode/formats';
import { MM_PER_INCH, px, pxToDots } from '../../../src/units/units';
import { drawRects, type GreyImage } from '../../support/draw-rects';
import { GS1_X_RANGE_MM } from '../../support/gs1-label';
import { zxingDecode } from '../../support/zxing';

interface Case {
  format: BarcodeFormat;
  typed: string;
  /** What the scanner sends after the symbology identifier. */
  scans: string;
  symbologyIdentifier: string;
  /** Element box in px (96 dpi), as the template gives it. */
  box: [number, number];
}

const cases: Case[] = [
  {
    format: 'gs1-128',
    typed: '(00)35012345123456789', // check digit computed
    scans: '00350123451234567894',
    symbologyIdentifier: ']C1',
    box: [364, 110],
  },
  {
    format: 'gs1-128',
    typed: '(02)05012345678900(37)12',
    scans: '02050123456789003712',
    symbologyIdentifier: ']C1',
    box: [364, 110],
  },
  {
    format: 'gs1-128',
    typed: '(10)AB12(17)260131',
    scans: `10AB12${GS}17260131`,
    symbologyIdentifier: ']C1',
    box: [364, 110],
  },
  {
    format: 'gs1datamatrix',
    typed: '(01)09501101530003(17)260131(10)AB12(21)S12345',
    scans: `01095011015300031726013110AB12${GS}21S12345`,
    symbologyIdentifier: ']d2',
    box: [48, 48],
  },
  {
    format: 'gs1datamatrix',
    typed: '(00)350123451234567894(02)05012345678900(37)12(10)ABC123',
    scans: `0035012345123456789402050123456789003712${GS}10ABC123`,
    symbologyIdentifier: ']d2',
    box: [48, 48],
  },
  {
    format: 'gs1qrcode',
    typed: '(01)09501101530003(17)260131(10)AB12(21)S12345',
    scans: `01095011015300031726013110AB12${GS}21S12345`,
    symbologyIdentifier: ']Q3',
    box: [120, 120],
  },
];

const DPIS = [203, 300, 600] as const;
const printed: string[] = [];
afterAll(() => {
  // The X-dimension each symbol is printed with, for the report (issue #23).
  console.info(`X-dimension printed (mm):\n${printed.join('\n')}`);
});

/** Whether every pixel of the rectangle is white. */
function white(image: GreyImage, x0: number, y0: number, w: number, h: number): boolean {
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) if ((image.grey[y * image.width + x] ?? 0) < 128) return false;
  }
  return true;
}

describe.each(DPIS)('at %i dpi', (dpi) => {
  it.each(cases)('$format $typed: ZXing reads $symbologyIdentifier and the element string', async (c) => {
    const geometry = encodeBarcode(c.format, c.typed);
    const margin = 20;
    const box = {
      x: 0.37 * dpi,
      y: 0.21 * dpi,
      width: pxToDots(px(c.box[0]), dpi),
      height: pxToDots(px(c.box[1]), dpi),
    };
    const { node, warnings } = placeBarcode(geometry, box, { unit: 'dots', dpi });
    expect(warnings).toEqual([]);
    const image = drawRects(
      node.rects,
      Math.ceil(box.x + box.width) + 1,
      Math.ceil(box.y + box.height) + 1,
      margin,
    );

    const reads = await zxingDecode(image);
    expect(reads.map((r) => [r.symbologyIdentifier, r.text])).toEqual([[c.symbologyIdentifier, c.scans]]);

    const xMm = (node.moduleWidth / dpi) * MM_PER_INCH;
    printed.push(`${c.format} ${c.typed} at ${dpi} dpi: ${node.moduleWidth} dots = ${xMm.toFixed(3)} mm`);
    const range = c.format === 'gs1qrcode' ? undefined : GS1_X_RANGE_MM[c.format as 'gs1-128'];
    if (range) {
      expect(xMm, `X of ${c.format} at ${dpi} dpi`).toBeGreaterThanOrEqual(range[0]);
      expect(xMm, `X of ${c.format} at ${dpi} dpi`).toBeLessThanOrEqual(range[1]);
    }

    // Quiet zones, in the drawn dots: white for the symbology's width around the symbol.
    const qz = quietZone(c.format);
    const m = node.moduleWidth;
    const rects = node.rects;
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < rects.length; i += 4) {
      minX = Math.min(minX, rects[i]!);
      maxX = Math.max(maxX, rects[i]! + rects[i + 2]!);
      minY = Math.min(minY, rects[i + 1]!);
      maxY = Math.max(maxY, rects[i + 1]! + rects[i + 3]!);
    }
    const [x0, x1, y0, y1] = [minX + margin, maxX + margin, minY + margin, maxY + margin];
    expect(white(image, x0 - qz.left * m, y0, qz.left * m, y1 - y0), 'left quiet zone').toBe(true);
    expect(white(image, x1, y0, qz.right * m, y1 - y0), 'right quiet zone').toBe(true);
    if (qz.top > 0) {
      expect(white(image, x0, y0 - qz.top * m, x1 - x0, qz.top * m), 'top quiet zone').toBe(true);
      expect(white(image, x0, y1, x1 - x0, qz.bottom * m), 'bottom quiet zone').toBe(true);
    }
  });
});
