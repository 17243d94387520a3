/**
 * ITF-14 as GS1 asks for it, checked on the laid-out Scene at 203, 300 and 600 dpi for each bearer choice:
 * it scans (zbarimg, I2/5) as the GTIN-14 typed; wide elements 3X (GS1: a wide-to-narrow ratio of 2.25 to
 * 3.0); bearer bars at least 2X thick (GS1 for symbols not printed with plates), a frame's vertical bars
 * outside 10X quiet zones, top and bottom bars over the quiet zones too; the digits under the bottom bearer;
 * the X-dimension inside GS1's range for ITF-14 (0.495 to 1.016 mm) for a box of a carton label's width.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { layout } from '../../../src/layout/layout';
import type { BarcodeNode, SceneNode } from '../../../src/layout/scene';
import { parseMarkup } from '../../../src/model/parse';
import { loadBundledFonts } from '../../../src/node/fonts';
import { MM_PER_INCH } from '../../../src/units/units';
import { drawRects } from '../../support/draw-rects';
import { writeGreyPgm } from '../../support/pgm';
import { zbarDecode } from '../../support/zbar';

const fonts = loadBundledFonts();
const dir = mkdtempSync(join(tmpdir(), 'labeldesk-itf14-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BEARERS = ['frame', 'top-bottom', 'none'] as const;
type Bearer = (typeof BEARERS)[number];

function place(dpi: number, bearer: Bearer | undefined): BarcodeNode {
  const markup = parseMarkup({
    stage: { width: 4, height: 2, unit: 'in' },
    elements: [
      {
        type: 'barcode',
        format: 'itf14',
        text: '1540014128876',
        x: 20.3,
        y: 10.7,
        // 3.3 in: X of 4, 6 and 12 dots at 203, 300 and 600 dpi.
        width: 317,
        height: 125,
        ...(bearer ? { bearer } : {}),
      },
    ],
  });
  const scene = layout(markup, { fonts, target: { unit: 'dots', dpi } });
  expect(scene.warnings).toEqual([]);
  const flat = (nodes: readonly SceneNode[]): SceneNode[] =>
    nodes.flatMap((n) => (n.kind === 'group' ? flat(n.children) : [n]));
  const node = flat(scene.nodes).find((n): n is BarcodeNode => n.kind === 'barcode');
  if (!node) throw new Error('no barcode node');
  return node;
}

interface R {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The node's rects sorted into bearer bars and the symbol's bars. */
function parts(node: BarcodeNode): { horizontal: R[]; vertical: R[]; bars: R[] } {
  const m = node.moduleWidth;
  const rects: R[] = [];
  for (let i = 0; i + 3 < node.rects.length; i += 4) {
    const [x, y, w, h] = node.rects.slice(i, i + 4) as [number, number, number, number];
    rects.push({ x, y, w, h });
  }
  const right = node.box.x + node.box.width;
  const horizontal = rects.filter((r) => r.w > 20 * m);
  const vertical = rects.filter((r) => r.w <= 20 * m && (r.x === node.box.x || r.x + r.w === right));
  const bars = rects.filter((r) => !horizontal.includes(r) && !vertical.includes(r));
  return { horizontal, vertical, bars };
}

describe.each([203, 300, 600])('at %i dpi', (dpi) => {
  it.each(BEARERS)('bearer %s: scans as the GTIN-14 typed, check digit completed', (bearer) => {
    const node = place(dpi, bearer);
    expect(node.value).toBe('15400141288763');
    const image = drawRects(
      node.rects,
      Math.ceil(node.box.x + node.box.width) + 1,
      Math.ceil(node.box.y + node.box.height) + 1,
      20,
    );
    const path = join(dir, `itf14-${bearer}-${dpi}.pgm`);
    writeGreyPgm(path, image.width, image.height, image.grey);
    expect(zbarDecode(path).map((s) => [s.symbology, s.value])).toEqual([['I2/5', '15400141288763']]);
  });

  it.each(BEARERS)('bearer %s: bars and bearers as GS1 asks, X in range', (bearer) => {
    const node = place(dpi, bearer);
    const m = node.moduleWidth;
    const xMm = (m / dpi) * MM_PER_INCH;
    expect(xMm).toBeGreaterThanOrEqual(0.495);
    expect(xMm).toBeLessThanOrEqual(1.016);
    expect(node.rects.every(Number.isInteger)).toBe(true);

    const { horizontal, vertical, bars } = parts(node);
    // Narrow elements 1X, wide ones 3X: bars and the spaces between them.
    expect(new Set(bars.map((b) => b.w / m))).toEqual(new Set([1, 3]));
    const spaces = bars.slice(1).map((b, i) => (b.x - (bars[i]!.x + bars[i]!.w)) / m);
    expect(new Set(spaces)).toEqual(new Set([1, 3]));
    const first = bars[0]!;
    const last = bars[bars.length - 1]!;

    if (bearer === 'none') {
      expect([horizontal, vertical]).toEqual([[], []]);
      expect(first.x - node.box.x).toBe(10 * m);
      return;
    }
    expect(horizontal).toHaveLength(2);
    const [top, bottom] = [...horizontal].sort((a, b) => a.y - b.y) as [R, R];
    for (const b of [top, bottom]) {
      expect(b.h).toBeGreaterThanOrEqual(2 * m);
      expect(b.h % m).toBe(0);
      // Over the quiet zones too.
      expect(b.x).toBeLessThanOrEqual(first.x - 10 * m);
      expect(b.x + b.w).toBeGreaterThanOrEqual(last.x + last.w + 10 * m);
    }
    // The bars stand between the bearers, touching them.
    expect(first.y).toBe(top.y + top.h);
    expect(first.y + first.h).toBe(bottom.y);
    // The digits under the bottom bearer.
    expect(node.text?.box.y).toBeGreaterThanOrEqual(bottom.y + bottom.h);
    expect(node.text?.lines.map((l) => l.text)).toEqual(['15400141288763']);

    if (bearer === 'top-bottom') {
      expect(vertical).toEqual([]);
      return;
    }
    expect(vertical).toHaveLength(2);
    const [left, right] = [...vertical].sort((a, b) => a.x - b.x) as [R, R];
    for (const v of [left, right]) {
      expect(v.w).toBe(top.h);
      expect(v.y).toBe(top.y + top.h);
      expect(v.y + v.h).toBe(bottom.y);
    }
    // Quiet zones of 10X inside the frame.
    expect(first.x - (left.x + left.w)).toBe(10 * m);
    expect(right.x - (last.x + last.w)).toBe(10 * m);
  });
});

it('frame is the default bearer', () => {
  expect(place(203, undefined).rects).toEqual(place(203, 'frame').rects);
});

it('an unknown bearer is refused, naming the field and the choices', () => {
  const parse = (): unknown =>
    parseMarkup({
      stage: { width: 4, height: 2, unit: 'in' },
      elements: [{ type: 'barcode', format: 'itf14', text: '1540014128876', x: 0, y: 0, bearer: 'box' }],
    });
  expect(parse).toThrow(/bearer/);
  expect(parse).toThrow(/frame.*top-bottom.*none/);
});
