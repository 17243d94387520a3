/** Module geometry: quiet zones per symbology spec, module matrices, bcids, and the per-keystroke cache. */
import { describe, expect, it } from 'vitest';
import {
  BARCODE_FORMATS,
  bwipBcid,
  encodeBarcode,
  geometrySize,
  parseBarcodeFormat,
  type BarcodeGeometry,
  type LinearGeometry,
  type MatrixGeometry,
} from '../../../src/layout/barcode';

function linear(g: BarcodeGeometry): LinearGeometry {
  if (g.kind !== 'linear') throw new Error(`expected linear geometry for ${g.format}`);
  return g;
}
function matrix(g: BarcodeGeometry): MatrixGeometry {
  if (g.kind !== 'matrix') throw new Error(`expected matrix geometry for ${g.format}`);
  return g;
}

describe('format names', () => {
  it('accepts the hosted service markup names exactly (they are bwip-js bcids)', () => {
    for (const name of [
      'code128',
      'code39',
      'ean13',
      'ean8',
      'upca',
      'isbn',
      'ismn',
      'issn',
      'pdf417',
      'datamatrix',
      'qrcode',
    ]) {
      const format = parseBarcodeFormat(name);
      expect(format).toBe(name);
      expect(bwipBcid(format!)).toBe(name);
    }
    expect(bwipBcid('gs1-128')).toBe('gs1-128');
    expect(bwipBcid('itf14')).toBe('itf14');
    expect(bwipBcid('gs1datamatrix')).toBe('gs1datamatrix');
    expect(bwipBcid('gs1qrcode')).toBe('gs1qrcode');
    expect(bwipBcid('upce')).toBe('upce');
    expect(parseBarcodeFormat('code12')).toBeUndefined();
    expect(parseBarcodeFormat('QRCODE')).toBeUndefined();
    expect(BARCODE_FORMATS).toHaveLength(16);
  });
});

describe('linear symbols: bars in whole modules, quiet zones per spec', () => {
  it('EAN-13: 95 modules, 11X left and 7X right quiet zones', () => {
    const g = linear(encodeBarcode('ean13', '590123412345'));
    expect(g.value).toBe('5901234123457');
    expect([g.quietLeft, g.quietRight, g.totalModules]).toEqual([11, 7, 11 + 95 + 7]);
    // Left guard 101: bars at modules 11 and 13, one module each.
    expect(g.bars.slice(0, 2)).toEqual([
      [11, 1],
      [13, 1],
    ]);
    const last = g.bars[g.bars.length - 1]!;
    expect(last[0] + last[1]).toBe(11 + 95);
  });

  it.each([
    ['ean8', '9638507', 7, 7, 67],
    ['upca', '03600029145', 9, 9, 95],
    ['upce', '425261', 9, 7, 51],
    // An add-on: 12X gap (bwip-js), EAN-2 20X / EAN-5 47X, then its own 5X quiet zone (ISO/IEC 15420).
    ['ean13', '5901234123457 12', 11, 5, 95 + 12 + 20],
    ['upca', '036000291452 53999', 9, 5, 95 + 12 + 47],
    ['isbn', '978-1-56581-231-4', 11, 7, 95],
    // ITF-14 with 3X wide elements: start 4X, 14 digits of 9X, stop 5X.
    ['itf14', '1540014128876', 10, 10, 135],
  ] as const)('%s: quiet zones %i/%i around %i modules', (format, value, left, right, width) => {
    const g = linear(encodeBarcode(format, value));
    expect([g.quietLeft, g.quietRight, g.totalModules]).toEqual([left, right, left + width + right]);
  });

  it('Code 128: 10X quiet zones; 11 modules per character, 13 for the stop', () => {
    const g = linear(encodeBarcode('code128', '1Z999AA10123456784'));
    expect([g.quietLeft, g.quietRight]).toEqual([10, 10]);
    expect((g.totalModules - 20 - 13) % 11).toBe(0);
    expect(g.bars[0]).toEqual([10, 2]); // every start character begins with a 2-module bar
  });

  it('Code 39 ends with its last bar, not the inter-character gap', () => {
    const g = linear(encodeBarcode('code39', 'ABC'));
    const last = g.bars[g.bars.length - 1]!;
    expect(last[0] + last[1] + g.quietRight).toBe(g.totalModules);
  });

  it('bars are whole modules, in order, never touching', () => {
    for (const [format, value] of [
      ['code128', 'Hello, World 123'],
      ['gs1-128', '(01)09501101530003(10)AB-123'],
      ['code39', 'LABEL-42'],
      ['itf14', '15400141288763'],
    ] as const) {
      const g = linear(encodeBarcode(format, value));
      let end = 0;
      for (const [start, width] of g.bars) {
        expect(Number.isInteger(start) && Number.isInteger(width) && width > 0).toBe(true);
        if (end > 0) expect(start).toBeGreaterThan(end);
        end = start + width;
      }
    }
  });
});

describe('matrix symbols: module grid plus quiet zone', () => {
  it('QR: 4-module quiet zone, square, version grows with level H', () => {
    const g = matrix(encodeBarcode('qrcode', 'HELLO'));
    expect([g.rows, g.cols, g.quietZone]).toEqual([21, 21, 4]);
    expect(g.modules).toHaveLength(21 * 21);
    expect(geometrySize(g)).toEqual({ width: 29, height: 29 });
    // Finder pattern: the top-left 7 modules of row 0 are dark.
    expect([...g.modules.slice(0, 7)]).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const h = matrix(
      encodeBarcode('qrcode', 'https://labeldesk.example/track/1Z999AA10123456784', {
        qrErrorCorrection: 'H',
      }),
    );
    const m = matrix(encodeBarcode('qrcode', 'https://labeldesk.example/track/1Z999AA10123456784'));
    expect(h.rows).toBeGreaterThan(m.rows);
  });

  it('Data Matrix: 1-module quiet zone; rectangle shape on request', () => {
    const sq = matrix(encodeBarcode('datamatrix', 'HELLO WORLD'));
    expect(sq.quietZone).toBe(1);
    expect(sq.rows).toBe(sq.cols);
    const rect = matrix(encodeBarcode('datamatrix', 'HELLO WORLD', { dataMatrixShape: 'rectangle' }));
    expect(rect.cols).toBeGreaterThan(rect.rows);
  });

  it('PDF417: 2-module quiet zone, rows 3 modules tall, more columns on request', () => {
    const g = matrix(encodeBarcode('pdf417', 'HELLO'));
    expect(g.quietZone).toBe(2);
    expect(g.rows % 3).toBe(0);
    for (let r = 0; r < g.rows; r += 3) {
      const row = g.modules.slice(r * g.cols, (r + 1) * g.cols);
      expect(g.modules.slice((r + 1) * g.cols, (r + 2) * g.cols)).toEqual(row);
      expect(g.modules.slice((r + 2) * g.cols, (r + 3) * g.cols)).toEqual(row);
    }
    const wide = matrix(encodeBarcode('pdf417', 'HELLO', { pdf417Columns: 4 }));
    expect(wide.cols).toBeGreaterThan(g.cols);
    const strong = matrix(encodeBarcode('pdf417', 'HELLO', { pdf417ErrorCorrection: 5 }));
    expect(strong.rows * strong.cols).toBeGreaterThan(g.rows * g.cols);
  });
});

describe('live preview', () => {
  it('re-encoding the same value is a cache hit (same geometry object)', () => {
    const a = encodeBarcode('qrcode', 'https://labeldesk.example/t/42');
    expect(encodeBarcode('qrcode', 'https://labeldesk.example/t/42')).toBe(a);
    // Options are part of the key.
    expect(encodeBarcode('qrcode', 'https://labeldesk.example/t/42', { qrErrorCorrection: 'H' })).not.toBe(a);
  });

  it('typing a tracking number one keystroke at a time stays interactive', () => {
    const value = '1Z999AA10123456784';
    const t0 = performance.now();
    for (let i = 1; i <= value.length; i++) encodeBarcode('code128', value.slice(0, i));
    // Generous bound for a shared CI core: Code 128 costs well under 1 ms per value.
    expect(performance.now() - t0).toBeLessThan(value.length * 20);
  });
});
