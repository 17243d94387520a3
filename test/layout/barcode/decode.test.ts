/**
 * What a user checks: the printed barcode scans as the value they typed. Each format is placed on a raster
 * target at 203, 300 and 600 dpi in a realistic box, drawn dot by dot, written to PGM and read back with a real
 * decoder (zbarimg, dmtxread, ZXing for PDF417).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeBarcode, placeBarcode, type BarcodeFormat } from '../../../src/layout/barcode';
import { dmtxDecode } from '../../support/dmtx';
import { drawRects, type GreyImage } from '../../support/draw-rects';
import { writeGreyPgm } from '../../support/pgm';
import { zbarDecode } from '../../support/zbar';
import { zxingDecodePdf417 } from '../../support/zxing-pdf417';

const dir = mkdtempSync(join(tmpdir(), 'labeldesk-barcode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Decoder = 'zbar' | 'dmtx' | 'zxing';

interface Case {
  format: BarcodeFormat;
  typed: string;
  /** What the scanner must read. */
  scans: string;
  /** The normalised value on the node, when it differs from what is scanned (GS1 keeps its brackets, UPC-E is read as its UPC-A). */
  value?: string;
  /** Element box in inches. */
  box: [number, number];
  decoder: Decoder;
  /** zbar's symbology name, to be sure the right decoder read it. */
  zbarType?: string;
}

const GS = '\u001d';
const cases: Case[] = [
  {
    format: 'code128',
    typed: '1Z999AA10123456784',
    scans: '1Z999AA10123456784',
    box: [2.5, 1],
    decoder: 'zbar',
    zbarType: 'CODE-128',
  },
  {
    format: 'gs1-128',
    typed: '(01)09501101530003(17)250101(10)AB-123',
    // FNC1 after the variable-length AI (10) is not needed at the end; zbar shows the fixed ones joined.
    scans: '01095011015300031725010110AB-123',
    value: '(01)09501101530003(17)250101(10)AB-123',
    box: [3.5, 1],
    decoder: 'zbar',
    zbarType: 'CODE-128',
  },
  {
    format: 'code39',
    typed: 'ABC-123 $/+%.',
    scans: 'ABC-123 $/+%.',
    box: [3, 1],
    decoder: 'zbar',
    zbarType: 'CODE-39',
  },
  {
    format: 'ean13',
    typed: '590123412345',
    scans: '5901234123457',
    box: [1.5, 1],
    decoder: 'zbar',
    zbarType: 'EAN-13',
  },
  {
    format: 'ean8',
    typed: '9638507',
    scans: '96385074',
    box: [1.2, 0.8],
    decoder: 'zbar',
    zbarType: 'EAN-8',
  },
  {
    format: 'upca',
    typed: '03600029145',
    scans: '036000291452',
    box: [1.5, 1],
    decoder: 'zbar',
    zbarType: 'UPC-A',
  },
  {
    format: 'upce',
    typed: '425261',
    // zbar reports a UPC-E as the UPC-A it stands for.
    scans: '042100005264',
    value: '04252614',
    box: [1.2, 0.8],
    decoder: 'zbar',
    zbarType: 'UPC-A',
  },
  {
    format: 'itf14',
    typed: '1540014128876',
    scans: '15400141288763',
    box: [2.5, 1],
    decoder: 'zbar',
    zbarType: 'I2/5',
  },
  {
    format: 'isbn',
    typed: '978-1-56581-231-4',
    scans: '9781565812314',
    box: [1.5, 1],
    decoder: 'zbar',
    zbarType: 'EAN-13',
  },
  {
    format: 'ismn',
    typed: 'M-2600-0043-8',
    scans: '9790260000438',
    box: [1.5, 1],
    decoder: 'zbar',
    zbarType: 'EAN-13',
  },
  {
    format: 'issn',
    typed: '0317-8471',
    scans: '9770317847001',
    box: [1.5, 1],
    decoder: 'zbar',
    zbarType: 'EAN-13',
  },
  {
    format: 'qrcode',
    typed: 'https://labeldesk.example/track/1Z999AA10123456784',
    scans: 'https://labeldesk.example/track/1Z999AA10123456784',
    box: [1, 1],
    decoder: 'zbar',
    zbarType: 'QR-Code',
  },
  {
    format: 'datamatrix',
    typed: 'LD-0001234 LOT 42',
    scans: 'LD-0001234 LOT 42',
    box: [0.75, 0.75],
    decoder: 'dmtx',
  },
  {
    format: 'pdf417',
    typed: 'SHIP TO: Ada Lovelace, 12 St James Sq, London SW1Y 4JH',
    scans: 'SHIP TO: Ada Lovelace, 12 St James Sq, London SW1Y 4JH',
    box: [3, 1],
    decoder: 'zxing',
  },
];

function decode(c: Case, image: GreyImage, name: string): string[] {
  const path = join(dir, `${name}.pgm`);
  writeGreyPgm(path, image.width, image.height, image.grey);
  switch (c.decoder) {
    case 'zbar': {
      const found = zbarDecode(path);
      if (c.zbarType) expect(found.map((s) => s.symbology)).toEqual(found.map(() => c.zbarType));
      return found.map((s) => s.value);
    }
    case 'dmtx':
      return dmtxDecode(path);
    case 'zxing':
      return zxingDecodePdf417(image);
  }
}

describe.each([203, 300, 600])('at %i dpi, every format scans as the value typed', (dpi) => {
  it.each(cases)('$format "$typed"', (c) => {
    const geometry = encodeBarcode(c.format, c.typed);
    // A fractional origin, as 96-dpi markup positions give: the symbol must still land on whole dots.
    const box = { x: 0.37 * dpi, y: 0.21 * dpi, width: c.box[0] * dpi, height: c.box[1] * dpi };
    const { node, warnings } = placeBarcode(geometry, box, { unit: 'dots', dpi });
    expect(warnings).toEqual([]);
    expect(node.value).toBe(c.value ?? c.scans);
    const canvasW = Math.ceil(box.x + box.width) + 1;
    const canvasH = Math.ceil(box.y + box.height) + 1;
    const image = drawRects(node.rects, canvasW, canvasH, 20);
    expect(decode(c, image, `${c.format}-${dpi}`)).toEqual([c.scans]);
  });
});

it('GS1-128 separates a variable-length AI from the next one with FNC1 (scanned as GS)', () => {
  const dpi = 300;
  const box = { x: 0, y: 0, width: 3.5 * dpi, height: dpi };
  const node = placeBarcode(encodeBarcode('gs1-128', '(10)AB-123(01)09501101530003'), box, {
    unit: 'dots',
    dpi,
  }).node;
  const path = join(dir, 'gs1-fnc1.pgm');
  const image = drawRects(node.rects, box.width, box.height, 20);
  writeGreyPgm(path, image.width, image.height, image.grey);
  // zbarimg prints data holding control characters (the GS) as base64, which support/zbar.ts does not read.
  const xml = execFileSync('zbarimg', ['-q', '--xml', path], { encoding: 'utf8' });
  const b64 = /<data format='base64'[^>]*><!\[CDATA\[\s*([A-Za-z0-9+/=]+)\s*\]\]>/.exec(xml)?.[1] ?? '';
  expect(Buffer.from(b64, 'base64').toString('latin1')).toBe(`10AB-123${GS}0109501101530003`);
});
