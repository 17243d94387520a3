/**
 * EAN/UPC as ISO/IEC 15420 and the GS1 General Specifications (5.2) draw them, checked on the laid-out Scene
 * (the one every output is drawn from) at 203, 300 and 600 dpi: the symbol scans as the value typed (zbarimg
 * and ZXing, which tells UPC-E apart); EAN-2/EAN-5 add-ons scan too, 7-12X right of the symbol, their digits
 * above bars that end level with the guards; the guard bars (and UPC-A's first and last characters) are 5X
 * longer than the other bars; the digits sit under the data bars between the guards, EAN-13's first digit in
 * the left quiet zone, UPC's outer digits smaller and outside the bars; every bar a whole number of dots.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { layout } from '../../../src/layout/layout';
import type { BarcodeNode, SceneNode, TextLine, TextNode } from '../../../src/layout/scene';
import { parseMarkup } from '../../../src/model/parse';
import { loadBundledFonts } from '../../../src/node/fonts';
import { drawRects } from '../../support/draw-rects';
import { writeGreyPgm } from '../../support/pgm';
import { zbarDecode } from '../../support/zbar';
import { zxingDecode } from '../../support/zxing';

const fonts = loadBundledFonts();
const dir = mkdtempSync(join(tmpdir(), 'labeldesk-retail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Case {
  format: string;
  typed: string;
  /** zbar's symbology and what it reads. */
  zbar: string;
  scans: string;
  /** What zbar reads when it is not `scans`. */
  zbarScans?: string;
  /** ZXing's format and text: it names UPC-E apart, and sends UPC digits as a 13-digit GTIN. */
  zxing: [string, string];
  /** Main symbol width and its long bars, in modules from the left guard's first module. */
  width: number;
  long: Array<[number, number]>;
  /** Left quiet zone in modules. */
  quiet: number;
  /** Digit groups of the usual size: text and the module range they must stay within. */
  groups: Array<[string, number, number]>;
  /** Smaller digits outside the bars: text and the side. */
  small: Array<[string, 'left' | 'right']>;
  /** Element size in px at 96 dpi. */
  box: [number, number];
}

const CASES: Case[] = [
  {
    format: 'ean13',
    typed: '590123412345',
    zbar: 'EAN-13',
    scans: '5901234123457',
    zxing: ['EAN13', '5901234123457'],
    width: 95,
    long: [
      [0, 3],
      [45, 50],
      [92, 95],
    ],
    quiet: 11,
    // The leading digit stands in the left quiet zone, left of the left guard.
    groups: [
      ['5', -11, 0],
      ['901234', 3, 45],
      ['123457', 50, 92],
    ],
    small: [],
    box: [144, 96],
  },
  {
    format: 'ean8',
    typed: '9638507',
    zbar: 'EAN-8',
    scans: '96385074',
    zxing: ['EAN8', '96385074'],
    width: 67,
    long: [
      [0, 3],
      [31, 36],
      [64, 67],
    ],
    quiet: 7,
    groups: [
      ['9638', 3, 31],
      ['5074', 36, 64],
    ],
    small: [],
    box: [115, 77],
  },
  {
    format: 'upca',
    typed: '03600029145',
    zbar: 'UPC-A',
    scans: '036000291452',
    zxing: ['EAN13', '0036000291452'],
    width: 95,
    // UPC-A: the guards and the bars of the first and last characters.
    long: [
      [0, 10],
      [45, 50],
      [85, 95],
    ],
    quiet: 9,
    groups: [
      ['36000', 10, 45],
      ['29145', 50, 85],
    ],
    small: [
      ['0', 'left'],
      ['2', 'right'],
    ],
    box: [144, 96],
  },
  {
    format: 'upce',
    typed: '425261',
    // zbar reports a UPC-E as the UPC-A it stands for; ZXing as the UPC-E it is (below).
    zbar: 'UPC-A',
    zbarScans: '042100005264',
    scans: '04252614',
    zxing: ['UPCE', '0042100005264'],
    width: 51,
    long: [
      [0, 3],
      [45, 51],
    ],
    quiet: 9,
    groups: [['425261', 3, 45]],
    // The number system and the check digit (of the UPC-A 042100005264 it stands for), small, outside.
    small: [
      ['0', 'left'],
      ['4', 'right'],
    ],
    box: [115, 77],
  },
];

function flatten(nodes: readonly SceneNode[]): SceneNode[] {
  return nodes.flatMap((n) => (n.kind === 'group' ? flatten(n.children) : [n]));
}

function place(c: Case, dpi: number): { node: BarcodeNode; texts: TextNode[] } {
  const markup = parseMarkup({
    stage: { width: 3, height: 2, unit: 'in' },
    elements: [
      // A fractional origin, as 96-dpi markup gives: the bars must still land on whole dots.
      {
        type: 'barcode',
        format: c.format,
        text: c.typed,
        x: 20.3,
        y: 10.7,
        width: c.box[0],
        height: c.box[1],
      },
    ],
  });
  const scene = layout(markup, { fonts, target: { unit: 'dots', dpi } });
  expect(scene.warnings).toEqual([]);
  const all = flatten(scene.nodes);
  const node = all.find((n): n is BarcodeNode => n.kind === 'barcode');
  if (!node) throw new Error('no barcode node');
  const texts = [node.text, ...all.filter((n): n is TextNode => n.kind === 'text')].filter(
    (t): t is TextNode => t !== undefined,
  );
  return { node, texts };
}

interface Bar {
  x: number;
  y: number;
  w: number;
  h: number;
}

function barsOf(node: BarcodeNode): Bar[] {
  const out: Bar[] = [];
  const r = node.rects;
  for (let i = 0; i + 3 < r.length; i += 4) out.push({ x: r[i]!, y: r[i + 1]!, w: r[i + 2]!, h: r[i + 3]! });
  return out;
}

function lineOf(texts: TextNode[], text: string): { line: TextLine; node: TextNode } {
  for (const node of texts) {
    const line = node.lines.find((l) => l.text === text);
    if (line) return { line, node };
  }
  throw new Error(`no line "${text}" in ${JSON.stringify(texts.flatMap((t) => t.lines.map((l) => l.text)))}`);
}

describe.each([203, 300, 600])('at %i dpi', (dpi) => {
  it.each(CASES)('$format "$typed" scans as $scans', async (c) => {
    const { node } = place(c, dpi);
    expect(node.value).toBe(c.scans);
    expect(node.format).toBe(c.format);
    const w = Math.ceil(node.box.x + node.box.width) + 1;
    const h = Math.ceil(node.box.y + node.box.height) + 1;
    const path = join(dir, `${c.format}-${dpi}.pgm`);
    const image = drawRects(node.rects, w, h, 20);
    writeGreyPgm(path, image.width, image.height, image.grey);
    expect(zbarDecode(path).map((s) => [s.symbology, s.value])).toEqual([[c.zbar, c.zbarScans ?? c.scans]]);
    const zxing = await zxingDecode(image);
    expect(zxing.map((r) => [r.format, r.text])).toEqual([c.zxing]);
  });

  it.each(CASES)('$format: guard bars 5X below the data bars, whole dots', (c) => {
    const { node } = place(c, dpi);
    const m = node.moduleWidth;
    const bars = barsOf(node);
    const start = bars[0]!.x;
    expect(start - node.box.x).toBe(c.quiet * m);
    expect(bars.every((b) => [b.x, b.y, b.w, b.h].every(Number.isInteger))).toBe(true);
    const isLong = (b: Bar): boolean => {
      const at = (b.x - start) / m;
      return c.long.some(([from, to]) => at >= from && at < to);
    };
    const long = bars.filter(isLong);
    const short = bars.filter((b) => !isLong(b));
    expect(long.length).toBeGreaterThanOrEqual(5);
    expect(short.length).toBeGreaterThan(10);
    // All bars start at the top; the long ones end 5X lower than the others.
    expect(new Set(bars.map((b) => b.y))).toEqual(new Set([node.box.y]));
    const dataH = short[0]!.h;
    expect(new Set(short.map((b) => b.h))).toEqual(new Set([dataH]));
    expect(new Set(long.map((b) => b.h))).toEqual(new Set([dataH + 5 * m]));
    // The symbol is as wide as the standard says: the last bar ends at module `width`.
    const last = bars[bars.length - 1]!;
    expect((last.x + last.w - start) / m).toBe(c.width);
  });

  it.each(CASES)('$format: the digits under the data bars, between the guards, outer ones outside', (c) => {
    const { node, texts } = place(c, dpi);
    const m = node.moduleWidth;
    const bars = barsOf(node);
    const start = bars[0]!.x;
    const dataBottom = Math.min(...bars.map((b) => b.y + b.h));
    const guardBottom = Math.max(...bars.map((b) => b.y + b.h));
    const main = node.text!;
    const at = (module: number): number => start + module * m;
    for (const [text, from, to] of c.groups) {
      const { line, node: t } = lineOf(texts, text);
      expect(t.size).toBe(main.size);
      expect(line.x, `${text} left edge`).toBeGreaterThanOrEqual(at(from));
      expect(line.x + line.width, `${text} right edge`).toBeLessThanOrEqual(at(to));
      // Under the data bars, level with the guards' extension, inside the element's box.
      expect(line.baseline - 0.7 * t.size).toBeGreaterThanOrEqual(dataBottom);
      expect(line.baseline).toBeGreaterThan(guardBottom - 5 * m);
      expect(line.baseline).toBeLessThanOrEqual(node.box.y + node.box.height);
    }
    const mainBaseline = lineOf(texts, c.groups[c.groups.length - 1]![0]).line.baseline;
    for (const [text, side] of c.small) {
      const { line, node: t } = lineOf(texts, text);
      expect(t.size).toBeLessThan(main.size);
      if (side === 'left') {
        expect(line.x + line.width).toBeLessThanOrEqual(start);
        expect(line.x).toBeGreaterThanOrEqual(node.box.x);
      } else {
        expect(line.x).toBeGreaterThanOrEqual(at(c.width));
        expect(line.x + line.width).toBeLessThanOrEqual(node.box.x + node.box.width);
      }
      // Baselines level with the other digits' (to the dot).
      expect(Math.abs(line.baseline - mainBaseline)).toBeLessThanOrEqual(0.1 * main.size);
    }
  });
});

interface AddonCase {
  format: string;
  typed: string;
  /** The main symbol's value and width, the add-on's digits. */
  main: string;
  width: number;
  addon: string;
  quiet: number;
  box: [number, number];
  /** What zbar reads with add-ons enabled: the symbol and its add-on, each with its symbology. */
  zbar: Array<[string, string]>;
}

const ADDONS: AddonCase[] = [
  {
    format: 'ean13',
    typed: '590123412345 12',
    main: '5901234123457',
    width: 95,
    addon: '12',
    quiet: 11,
    box: [180, 96],
    zbar: [
      ['EAN-13', '5901234123457'],
      ['EAN-2', '12'],
    ],
  },
  {
    format: 'upca',
    typed: '036000291452 53999',
    main: '036000291452',
    width: 95,
    addon: '53999',
    quiet: 9,
    box: [220, 96],
    zbar: [
      ['EAN-5', '53999'],
      ['UPC-A', '036000291452'],
    ],
  },
  {
    format: 'upce',
    typed: '04252614 12',
    main: '04252614',
    width: 51,
    addon: '12',
    quiet: 9,
    box: [140, 77],
    // zbar reports a UPC-E as the UPC-A it stands for.
    zbar: [
      ['EAN-2', '12'],
      ['UPC-A', '042100005264'],
    ],
  },
];

function placeAddon(c: AddonCase, dpi: number): { node: BarcodeNode; texts: TextNode[] } {
  return place(
    {
      format: c.format,
      typed: c.typed,
      box: c.box,
    } as Case,
    dpi,
  );
}

describe.each([203, 300, 600])('EAN-2/EAN-5 add-ons at %i dpi', (dpi) => {
  it.each(ADDONS)('$format "$typed" scans with its add-on', (c) => {
    const { node } = placeAddon(c, dpi);
    expect(node.value).toBe(`${c.main} ${c.addon}`);
    const image = drawRects(
      node.rects,
      Math.ceil(node.box.x + node.box.width) + 1,
      Math.ceil(node.box.y + node.box.height) + 1,
      20,
    );
    const path = join(dir, `${c.format}-addon-${dpi}.pgm`);
    writeGreyPgm(path, image.width, image.height, image.grey);
    const read = zbarDecode(path, { addons: true }).map((s) => [s.symbology, s.value]);
    expect(read.sort()).toEqual(c.zbar);
  });

  it.each(ADDONS)('$format "$typed": the add-on beside the symbol, its digits above it', (c) => {
    const { node, texts } = placeAddon(c, dpi);
    const m = node.moduleWidth;
    const bars = barsOf(node);
    const start = bars[0]!.x;
    expect(start - node.box.x).toBe(c.quiet * m);
    const mainBars = bars.filter((b) => b.x < start + c.width * m);
    const addonBars = bars.filter((b) => b.x >= start + c.width * m);
    expect(mainBars.length).toBeGreaterThan(10);
    const addonStart = addonBars[0]!.x;
    const addonEnd = Math.max(...addonBars.map((b) => b.x + b.w));
    // ISO/IEC 15420: 7X to 12X between the symbol and its add-on; EAN-2 20X, EAN-5 47X; 5X quiet zone after it.
    const gap = (addonStart - (start + c.width * m)) / m;
    expect(gap).toBeGreaterThanOrEqual(7);
    expect(gap).toBeLessThanOrEqual(12);
    expect((addonEnd - addonStart) / m).toBe(c.addon.length === 2 ? 20 : 47);
    expect(node.box.x + node.box.width - addonEnd).toBeGreaterThanOrEqual(5 * m);
    // The add-on's bars: from under its digits down to the guards' bottom.
    const guardBottom = Math.max(...mainBars.map((b) => b.y + b.h));
    const addonTop = addonBars[0]!.y;
    expect(new Set(addonBars.map((b) => `${b.y}/${b.y + b.h}`))).toEqual(
      new Set([`${addonTop}/${guardBottom}`]),
    );
    expect(addonTop).toBeGreaterThan(node.box.y);
    const { line, node: t } = lineOf(texts, c.addon);
    expect(line.baseline).toBeLessThanOrEqual(addonTop);
    expect(line.baseline - 0.7 * t.size).toBeGreaterThanOrEqual(node.box.y - 1);
    expect(line.x).toBeGreaterThanOrEqual(addonStart);
    expect(line.x + line.width).toBeLessThanOrEqual(addonEnd);
  });
});
