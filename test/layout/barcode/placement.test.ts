/**
 * Placement on a target: whole dots on raster targets (the reason LabelDesk barcodes scan at 203 dpi where the
 * hosted SDK's stretched bitmaps do not), exact fill on vector targets, centring, text, and size warnings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeBarcode,
  geometrySize,
  placeBarcode,
  placedWidthModules,
  type BarcodeGeometry,
  type Box,
  type LayoutText,
} from '../../../src/layout/barcode';
import type { TextNode } from '../../../src/layout/scene';

const geometries: BarcodeGeometry[] = [
  encodeBarcode('code128', '1Z999AA10123456784'),
  encodeBarcode('ean13', '590123412345'),
  encodeBarcode('itf14', '1540014128876'),
  encodeBarcode('qrcode', 'https://labeldesk.example/track/1Z999AA10123456784'),
  encodeBarcode('datamatrix', 'HELLO WORLD', { dataMatrixShape: 'rectangle' }),
  encodeBarcode('pdf417', 'SHIP TO: Ada Lovelace'),
];

function rectsOf(rects: number[]): Array<[number, number, number, number]> {
  const out: Array<[number, number, number, number]> = [];
  for (let i = 0; i < rects.length; i += 4)
    out.push([rects[i]!, rects[i + 1]!, rects[i + 2]!, rects[i + 3]!]);
  return out;
}

const dpiArb = fc.constantFrom(152, 203, 300, 406, 600);
// Box in inches, origin anywhere on a 4×6 label with fractional dots (96-dpi markup converted to dots).
const boxArb = fc.record({
  x: fc.double({ min: 0, max: 4, noNaN: true }),
  y: fc.double({ min: 0, max: 6, noNaN: true }),
  width: fc.double({ min: 0.05, max: 4, noNaN: true }),
  height: fc.double({ min: 0.05, max: 3, noNaN: true }),
});
const inDots = (b: Box, dpi: number): Box => ({
  x: b.x * dpi,
  y: b.y * dpi,
  width: b.width * dpi,
  height: b.height * dpi,
});

describe('raster targets: every module a whole number of dots', () => {
  it('whole dots, bars in whole modules, largest module that fits, symbol inside the box when it can be', () => {
    fc.assert(
      fc.property(fc.constantFrom(...geometries), boxArb, dpiArb, (g, inches, dpi) => {
        const box = inDots(inches, dpi);
        const { node, warnings } = placeBarcode(g, box, { unit: 'dots', dpi });
        const m = node.moduleWidth;
        expect(Number.isInteger(m) && m >= 1).toBe(true);

        // Collected, then asserted once: expect() per rect is too slow for hundreds of runs.
        const offGrid = rectsOf(node.rects).filter(
          ([x, y, w, h]) =>
            ![x, y, w, h].every(Number.isInteger) ||
            // Bars start on the module grid and are whole modules wide (2D: whole modules tall too).
            (x - node.box.x) % m !== 0 ||
            w % m !== 0 ||
            (g.kind === 'matrix' && (h !== m || (y - node.box.y) % m !== 0)),
        );
        expect(offGrid).toEqual([]);

        const size = { width: placedWidthModules(g), height: geometrySize(g).height };
        const availW = Math.floor(box.width + 1e-6);
        const availH = Math.floor(box.height + 1e-6);
        expect(node.box.width).toBe(m * size.width);
        const fitsAtOne = size.width <= availW && size.height <= availH;
        if (fitsAtOne) {
          // Inside the box snapped to whole dots (origin rounded, size floored).
          const left = Math.round(box.x);
          const top = Math.round(box.y);
          expect(node.box.x).toBeGreaterThanOrEqual(left);
          expect(node.box.x + node.box.width).toBeLessThanOrEqual(left + availW);
          expect(node.box.y).toBeGreaterThanOrEqual(top);
          expect(node.box.y + node.box.height).toBeLessThanOrEqual(top + availH);
          // Largest: one more dot per module would not fit.
          const biggerFits = (m + 1) * size.width <= availW && (m + 1) * size.height <= availH;
          expect(biggerFits).toBe(false);
          expect(warnings.join(' ')).not.toMatch(/overflows/);
        } else {
          expect(m).toBe(1);
          expect(warnings).toHaveLength(1);
          expect(warnings[0]).toMatch(/overflows the box/);
        }
        const outside = rectsOf(node.rects).filter(
          ([x, y, w, h]) =>
            x < node.box.x ||
            y < node.box.y ||
            x + w > node.box.x + node.box.width ||
            y + h > node.box.y + node.box.height,
        );
        expect(outside).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('centres the symbol: horizontally for linear codes (full height), both ways for 2D', () => {
    const dpi = 203;
    const box = { x: 10, y: 20, width: 400, height: 150 };
    const lin = placeBarcode(geometries[0]!, box, { unit: 'dots', dpi }).node;
    const slackL = lin.box.x - box.x;
    const slackR = box.x + box.width - (lin.box.x + lin.box.width);
    expect(Math.abs(slackL - slackR)).toBeLessThanOrEqual(1);
    expect([lin.box.y, lin.box.height]).toEqual([20, 150]);
    expect(new Set(rectsOf(lin.rects).map(([, y, , h]) => `${y}/${h}`))).toEqual(new Set(['20/150']));

    const qr = placeBarcode(geometries[3]!, box, { unit: 'dots', dpi }).node;
    expect(qr.box.width).toBe(qr.box.height);
    expect(Math.abs(qr.box.x - box.x - (box.x + box.width - qr.box.x - qr.box.width))).toBeLessThanOrEqual(1);
    expect(Math.abs(qr.box.y - box.y - (box.y + box.height - qr.box.y - qr.box.height))).toBeLessThanOrEqual(
      1,
    );
  });

  it('keeps the quiet zones: no bar within 10 modules of a Code 128 box edge, 4 of a QR', () => {
    const dpi = 300;
    const c128 = placeBarcode(
      geometries[0]!,
      { x: 0, y: 0, width: 750, height: 300 },
      { unit: 'dots', dpi },
    ).node;
    const xs = rectsOf(c128.rects);
    expect(Math.min(...xs.map(([x]) => x)) - c128.box.x).toBe(10 * c128.moduleWidth);
    expect(c128.box.x + c128.box.width - Math.max(...xs.map(([x, , w]) => x + w))).toBe(
      10 * c128.moduleWidth,
    );
    const qr = placeBarcode(
      geometries[3]!,
      { x: 0, y: 0, width: 300, height: 300 },
      { unit: 'dots', dpi },
    ).node;
    const qs = rectsOf(qr.rects);
    expect(Math.min(...qs.map(([, y]) => y)) - qr.box.y).toBe(4 * qr.moduleWidth);
  });

  it('one rect per bar for linear codes; one per horizontal run for 2D', () => {
    const g = geometries[0]!;
    if (g.kind !== 'linear') throw new Error('linear expected');
    const node = placeBarcode(g, { x: 0, y: 0, width: 600, height: 200 }, { unit: 'dots', dpi: 203 }).node;
    expect(node.rects.length / 4).toBe(g.bars.length);
    const qr = geometries[3]!;
    if (qr.kind !== 'matrix') throw new Error('matrix expected');
    let runs = 0;
    for (let i = 0; i < qr.modules.length; i++) {
      const startsRow = i % qr.cols === 0;
      if (qr.modules[i] === 1 && (startsRow || qr.modules[i - 1] !== 1)) runs++;
    }
    expect(
      placeBarcode(qr, { x: 0, y: 0, width: 203, height: 203 }, { unit: 'dots', dpi: 203 }).node.rects
        .length / 4,
    ).toBe(runs);
  });
});

describe('vector targets (px)', () => {
  it('linear symbols fill the box width exactly; 2D symbols fit and touch two sides', () => {
    fc.assert(
      fc.property(fc.constantFrom(...geometries), boxArb, (g, inches) => {
        const box = inDots(inches, 96);
        const { node } = placeBarcode(g, box, { unit: 'px', dpi: 96 });
        const size = { width: placedWidthModules(g), height: geometrySize(g).height };
        if (g.kind === 'linear') {
          expect(node.box.x).toBeCloseTo(box.x, 9);
          expect(node.box.width).toBeCloseTo(box.width, 9);
          expect(node.moduleWidth).toBeCloseTo(box.width / size.width, 12);
          expect([node.box.y, node.box.height]).toEqual([box.y, box.height]);
        } else {
          expect(node.box.width).toBeLessThanOrEqual(box.width + 1e-9);
          expect(node.box.height).toBeLessThanOrEqual(box.height + 1e-9);
          const touches =
            Math.abs(node.box.width - box.width) < 1e-9 || Math.abs(node.box.height - box.height) < 1e-9;
          expect(touches).toBe(true);
          expect(node.box.x - box.x).toBeCloseTo(box.x + box.width - node.box.x - node.box.width, 9);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("a module width asked for (the element's moduleWidth)", () => {
  it('is rounded to whole dots and kept whatever room the box leaves, for every symbology', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...geometries),
        dpiArb,
        fc.double({ min: 0.2, max: 6, noNaN: true }),
        (g, dpi, asked) => {
          const want = Math.max(1, Math.round(asked));
          const size = geometrySize(g);
          // A box with room for twice the symbol at that module: the largest that fits would be bigger.
          const box = {
            x: 0,
            y: 0,
            width: 2 * want * placedWidthModules(g),
            height: 2 * want * size.height + 200,
          };
          const { node, warnings } = placeBarcode(g, box, { unit: 'dots', dpi }, { module: asked });
          expect(node.moduleWidth).toBe(want);
          expect(warnings.filter((w) => w.includes('module width asked'))).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a symbol too long for its box at that module gets the largest that fits, and a warning naming both', () => {
    const code128 = geometries[0]!;
    const width = placedWidthModules(code128) * 3; // room for 3 dots a module, not 4
    const { node, warnings } = placeBarcode(
      code128,
      { x: 0, y: 0, width, height: 200 },
      { unit: 'dots', dpi: 203 },
      { module: 3.96 },
    );
    expect(node.moduleWidth).toBe(3);
    expect(warnings).toEqual([
      'Code 128 "1Z999AA10123456784" does not fit its box at the module width asked (4 dots): drawn at 3 dots. Widen the box or shorten the value.',
    ]);
  });

  it('on vector targets the module is exactly the one asked for', () => {
    const qr = geometries[3]!;
    const { node } = placeBarcode(
      qr,
      { x: 0, y: 0, width: 400, height: 400 },
      { unit: 'px', dpi: 96 },
      { module: 2.5 },
    );
    expect(node.moduleWidth).toBe(2.5);
    expect(node.box.width).toBe(2.5 * geometrySize(qr).width);
  });
});

describe('size warnings', () => {
  const code128 = geometries[0]!;
  const total = geometrySize(code128).width;

  it('a box too narrow even for 1 dot per module: the symbol overflows, and says so', () => {
    const { node, warnings } = placeBarcode(
      code128,
      { x: 0, y: 0, width: 203, height: 100 },
      { unit: 'dots', dpi: 203 },
    );
    expect(total).toBeGreaterThan(203);
    expect(node.moduleWidth).toBe(1);
    expect(warnings).toEqual([
      expect.stringMatching(/Code 128 .*needs \d+ dots.*box is 203 dots.*overflows the box/),
    ]);
  });

  it('1-dot bars at 203 dpi (4.9 mil) are below the 7.5 mil minimum; 2 dots are not', () => {
    const small = placeBarcode(
      code128,
      { x: 0, y: 0, width: 1.5 * 203, height: 100 },
      { unit: 'dots', dpi: 203 },
    );
    expect(small.node.moduleWidth).toBe(1);
    expect(small.warnings).toEqual([
      expect.stringMatching(/narrow bars are 4\.9 mil \(1 dot at 203 dpi\), below the 7\.5 mil/),
    ]);
    const ok = placeBarcode(
      code128,
      { x: 0, y: 0, width: 2.5 * 203, height: 100 },
      { unit: 'dots', dpi: 203 },
    );
    expect(ok.node.moduleWidth).toBe(2);
    expect(ok.warnings).toEqual([]);
  });

  it('2D modules below 10 mil warn (a QR code in a 0.3 in box at 300 dpi)', () => {
    const { warnings } = placeBarcode(
      geometries[3]!,
      { x: 0, y: 0, width: 90, height: 90 },
      { unit: 'dots', dpi: 300 },
    );
    expect(warnings).toEqual([
      expect.stringMatching(/QR code .*modules are 6\.7 mil \(2 dots at 300 dpi\), below the 10 mil/),
    ]);
  });

  it('vector targets warn about small modules too (no overflow: they scale down)', () => {
    const { warnings } = placeBarcode(
      code128,
      { x: 0, y: 0, width: 96, height: 40 },
      { unit: 'px', dpi: 96 },
    );
    expect(warnings).toEqual([expect.stringMatching(/below the 7\.5 mil/)]);
  });
});

describe('human-readable text', () => {
  const calls: Array<{ text: string; box: Box; size: number }> = [];
  const layoutText: LayoutText = (text, box, size) => {
    calls.push({ text, box, size });
    const node: TextNode = {
      kind: 'text',
      font: 'test',
      size,
      color: '#000000',
      box,
      direction: 'ltr',
      lines: [],
    };
    return node;
  };

  it('EAN-13 shows its digits under the bars by default, in three groups; data bars stop where they start', () => {
    calls.length = 0;
    const box = { x: 0.4, y: 10.6, width: 300, height: 200 };
    const { node } = placeBarcode(
      encodeBarcode('ean13', '590123412345'),
      box,
      { unit: 'dots', dpi: 203 },
      { layoutText },
    );
    expect(calls.map((c) => c.text)).toEqual(['5', '901234', '123457']);
    expect(node.text?.box.y).toBe(calls[1]!.box.y);
    const bars = rectsOf(node.rects);
    // The third bar is a data bar (the first two are the left guard).
    const dataBottom = bars[2]![1] + bars[2]![3];
    for (const call of calls) {
      expect(call.box.y).toBe(dataBottom);
      expect(call.box.y + call.box.height).toBe(11 + 200);
      expect(Object.values(call.box).every(Number.isInteger)).toBe(true);
      expect(call.size).toBeGreaterThan(0);
    }
  });

  it('off by default for Code 128 and QR, on when asked; omitted without a layout function', () => {
    calls.length = 0;
    const box = { x: 0, y: 0, width: 600, height: 200 };
    const target = { unit: 'dots', dpi: 203 } as const;
    expect(placeBarcode(geometries[0]!, box, target, { layoutText }).node.text).toBeUndefined();
    expect(placeBarcode(geometries[3]!, box, target, { layoutText }).node.text).toBeUndefined();
    expect(calls).toHaveLength(0);
    const on = placeBarcode(geometries[0]!, box, target, { layoutText, humanReadable: true }).node;
    expect(on.text).toBeDefined();
    expect(calls[0]!.text).toBe('1Z999AA10123456784');
    const noFn = placeBarcode(encodeBarcode('ean13', '590123412345'), box, target).node;
    expect(noFn.text).toBeUndefined();
    // Without digits the guards still reach the bottom of the box, 5X below the data bars.
    expect(rectsOf(noFn.rects)[0]![3]).toBe(200);
    expect(rectsOf(noFn.rects)[2]![3]).toBe(200 - 5 * noFn.moduleWidth);
  });
});
