/**
 * The pure 1-bit rasteriser (src/render/dots): exact dots for simple shapes, fill rules, white on black,
 * transforms, strokes, text against resvg, images and the fallback, and a fuzz that it never throws or draws
 * outside its shapes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Matrix, SceneNode } from '../../src/layout/scene';
import { getDot, type MonoBitmap } from '../../src/render/bitmap';
import { MonoUnsupported, renderMono } from '../../src/render/dots';
import { monoRasterStats, toMonoBitmap, toMonoBitmapFast } from '../../src/node/resvg';
import { fonts, greyRampPng, imageNode, scene, textNode } from './fixtures';

const dots = (nodes: SceneNode[], w = 60, h = 40): MonoBitmap =>
  renderMono(scene('dots', 203, w, h, nodes), fonts);
const resvg = (nodes: SceneNode[], w = 60, h = 40): MonoBitmap =>
  toMonoBitmap(scene('dots', 203, w, h, nodes), fonts);

/** The black dots as "x,y" strings. */
function blackSet(b: MonoBitmap): Set<string> {
  const out = new Set<string>();
  for (let y = 0; y < b.height; y++)
    for (let x = 0; x < b.width; x++) if (getDot(b, x, y)) out.add(`${x},${y}`);
  return out;
}

const count = (b: MonoBitmap): number => blackSet(b).size;

function differing(a: MonoBitmap, b: MonoBitmap): number {
  let n = 0;
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) if (getDot(a, x, y) !== getDot(b, x, y)) n++;
  return n;
}

/** Bits past the last column of each row: the encoder needs them clear. */
function paddingClear(b: MonoBitmap): boolean {
  const used = b.width % 8;
  if (used === 0) return true;
  const mask = 0xff >> used;
  for (let y = 0; y < b.height; y++)
    if (((b.data[y * b.rowBytes + b.rowBytes - 1] ?? 0) & mask) !== 0) return false;
  return true;
}

const rect = (x: number, y: number, width: number, height: number, fill = '#000000'): SceneNode => ({
  kind: 'rect',
  x,
  y,
  width,
  height,
  fill,
});

describe('rects', () => {
  it('a whole-dot rect lands on exactly its dots', () => {
    const b = dots([rect(10, 5, 7, 3)]);
    const want = new Set<string>();
    for (let y = 5; y < 8; y++) for (let x = 10; x < 17; x++) want.add(`${x},${y}`);
    expect(blackSet(b)).toEqual(want);
  });

  it('a fractional rect: a dot is black when at least half of it is covered, as resvg thresholds it', () => {
    // Left edges at 0.3, 0.5 and 0.7 of a dot: the dot is 70 %, 50 % and 30 % covered.
    const nodes = [
      rect(10.3, 2, 5, 4),
      rect(20.5, 8, 5, 4),
      rect(30.7, 14, 5, 4),
      rect(4.25, 20.6, 9.5, 6.8),
    ];
    const b = dots(nodes);
    expect(getDot(b, 10, 3)).toBe(true);
    expect(getDot(b, 20, 9)).toBe(true);
    expect(getDot(b, 30, 15)).toBe(false);
    expect(differing(b, resvg(nodes))).toBe(0);
  });

  it('barcode modules are whole dots, no anti-aliasing (crispEdges), exactly where the geometry says', () => {
    const bar: SceneNode = {
      kind: 'barcode',
      format: 'code128',
      value: 'x',
      color: '#000000',
      rects: [2, 2, 3, 30, 8, 2, 1, 30, 12, 2, 6, 30],
      box: { x: 0, y: 0, width: 20, height: 34 },
      moduleWidth: 1,
    };
    const b = dots([bar], 24, 36);
    for (let x = 0; x < 24; x++) {
      const inBar = (x >= 2 && x < 5) || x === 8 || (x >= 12 && x < 18);
      expect(getDot(b, x, 10), `x=${x}`).toBe(inBar);
    }
    expect(differing(b, resvg([bar], 24, 36))).toBe(0);
  });

  it('white on black clears dots (white text or a white box on a black panel)', () => {
    const b = dots([rect(0, 0, 60, 40), rect(10, 10, 20, 10, '#ffffff')]);
    expect(getDot(b, 5, 5)).toBe(true);
    expect(getDot(b, 15, 15)).toBe(false);
    expect(count(b)).toBe(60 * 40 - 200);
  });

  it('a colour is the grey it leaves: light grey prints nothing, dark grey prints, 44 % alpha black does not', () => {
    const b = dots([
      rect(0, 0, 10, 10, '#cccccc'),
      rect(20, 0, 10, 10, '#333333'),
      rect(40, 0, 10, 10, '#00000070'),
    ]);
    expect(count(b)).toBe(100);
    expect(getDot(b, 25, 5)).toBe(true);
  });
});

describe('fill rules', () => {
  // Two circles drawn the same way round: even-odd leaves a hole, nonzero fills it.
  const ring = 'M50 20A15 15 0 1 1 20 20A15 15 0 1 1 50 20ZM42 20A7 7 0 1 1 28 20A7 7 0 1 1 42 20Z';
  it('evenodd: a ring has a hole', () => {
    const b = dots([{ kind: 'path', d: ring, fill: '#000000', fillRule: 'evenodd' }]);
    expect(getDot(b, 35, 20)).toBe(false);
    expect(getDot(b, 35, 9)).toBe(true);
    expect(getDot(b, 22, 20)).toBe(true);
  });

  it('nonzero: the same contours, no hole', () => {
    const b = dots([{ kind: 'path', d: ring, fill: '#000000' }]);
    expect(getDot(b, 35, 20)).toBe(true);
  });

  it('both match resvg within a few edge dots', () => {
    for (const fillRule of ['evenodd', 'nonzero'] as const) {
      const nodes: SceneNode[] = [{ kind: 'path', d: ring, fill: '#000000', fillRule }];
      const diff = differing(dots(nodes), resvg(nodes));
      expect(diff, `${fillRule}: ${diff} dots differ`).toBeLessThanOrEqual(6);
    }
  });
});

describe('transforms', () => {
  it('a group rotated 90° about its origin puts a 20 × 4 bar upright', () => {
    const rotate: Matrix = [0, 1, -1, 0, 30, 5]; // x' = 30 - y, y' = 5 + x
    const nodes: SceneNode[] = [
      { kind: 'group', transform: rotate, opacity: 1, children: [rect(0, 0, 20, 4)] },
    ];
    const b = dots(nodes);
    const want = new Set<string>();
    for (let y = 5; y < 25; y++) for (let x = 26; x < 30; x++) want.add(`${x},${y}`);
    expect(blackSet(b)).toEqual(want);
    expect(differing(b, resvg(nodes))).toBe(0);
  });

  it('a group rotated 30° with scaled text matches resvg closely', () => {
    const c = Math.cos(Math.PI / 6);
    const s = Math.sin(Math.PI / 6);
    const nodes: SceneNode[] = [
      {
        kind: 'group',
        transform: [1.5 * c, 1.5 * s, -1.5 * s, 1.5 * c, 40, 20],
        opacity: 1,
        children: [textNode('Rotated', { x: 0, baseline: 0, size: 30 }), rect(0, 10, 120, 6)],
      },
    ];
    const ours = dots(nodes, 300, 260);
    const diff = differing(ours, resvg(nodes, 300, 260));
    expect(diff / count(ours), `${diff} of ${count(ours)} black dots differ`).toBeLessThan(0.03);
  });

  it('group opacity turns black into grey: 40 % of black prints nothing, 80 % prints', () => {
    const faint: SceneNode = {
      kind: 'group',
      transform: [1, 0, 0, 1, 0, 0],
      opacity: 0.4,
      children: [rect(0, 0, 10, 10)],
    };
    const dark: SceneNode = {
      kind: 'group',
      transform: [1, 0, 0, 1, 20, 0],
      opacity: 0.8,
      children: [rect(0, 0, 10, 10)],
    };
    const b = dots([faint, dark]);
    expect(count(b)).toBe(100);
    expect(getDot(b, 25, 5)).toBe(true);
  });
});

describe('strokes', () => {
  it('a horizontal line of width w covers w rows, as in resvg', () => {
    for (const w of [1, 2, 3, 5, 8]) {
      // Centred so that its edges fall on dot boundaries.
      const y = w % 2 === 1 ? 20.5 : 20;
      const nodes: SceneNode[] = [
        { kind: 'path', d: `M5 ${y}L55 ${y}`, stroke: { color: '#000000', width: w } },
      ];
      const b = dots(nodes);
      expect(count(b) / 50, `width ${w}`).toBe(w);
      expect(differing(b, resvg(nodes))).toBe(0);
    }
  });

  it('a diagonal line of width w covers about length × w dots', () => {
    const w = 4;
    const b = dots([{ kind: 'path', d: 'M5 5L55 35', stroke: { color: '#000000', width: w } }]);
    const length = Math.hypot(50, 30);
    expect(count(b) / (length * w)).toBeGreaterThan(0.9);
    expect(count(b) / (length * w)).toBeLessThan(1.1);
  });

  it('caps and joins: square caps extend, round caps round off, a mitred corner is square, like resvg', () => {
    const cases: SceneNode[] = [
      { kind: 'path', d: 'M10 10L50 10', stroke: { color: '#000000', width: 6, lineCap: 'square' } },
      { kind: 'path', d: 'M10 20L50 20', stroke: { color: '#000000', width: 6, lineCap: 'round' } },
      { kind: 'path', d: 'M10 38L30 28L50 38', stroke: { color: '#000000', width: 4, lineJoin: 'miter' } },
      { kind: 'path', d: 'M10 38L30 28L50 38', stroke: { color: '#000000', width: 4, lineJoin: 'round' } },
      {
        kind: 'rect',
        x: 8,
        y: 8,
        width: 40,
        height: 24,
        cornerRadius: 6,
        stroke: { color: '#000000', width: 3 },
      },
      { kind: 'ellipse', cx: 30, cy: 20, rx: 20, ry: 12, stroke: { color: '#000000', width: 2.5 } },
    ];
    expect(getDot(dots([cases[0]!]), 8, 10)).toBe(true); // square cap: 3 dots past the end
    expect(getDot(dots([cases[0]!]), 6, 10)).toBe(false);
    expect(getDot(dots([cases[1]!]), 7, 17)).toBe(false); // round cap: the corner is cut
    expect(getDot(dots([cases[0]!]), 7, 7)).toBe(true); // square cap: the corner is kept
    // Thin strokes along curves differ most: resvg offsets the curves, we stroke the flattened polyline, and
    // a 2.5-dot stroke has partly covered dots on both sides.
    for (const node of cases) {
      const ours = dots([node]);
      const diff = differing(ours, resvg([node]));
      expect(diff, `${JSON.stringify(node)}: ${diff} of ${count(ours)} dots differ`).toBeLessThanOrEqual(
        Math.max(3, count(ours) * 0.1),
      );
    }
  });

  it('dashes leave gaps', () => {
    const b = dots([
      { kind: 'path', d: 'M0 20L60 20', stroke: { color: '#000000', width: 2, dash: [6, 4] } },
    ]);
    const row = Array.from({ length: 60 }, (_, x) => getDot(b, x, 20));
    expect(row.slice(0, 6).every(Boolean)).toBe(true);
    expect(row.slice(7, 9).some(Boolean)).toBe(false);
    expect(row.slice(10, 16).every(Boolean)).toBe(true);
    expect(count(b)).toBe(2 * 36);
  });
});

describe('text', () => {
  it('a big letter matches resvg closely', () => {
    const nodes = [textNode('G', { x: 10, baseline: 180, size: 200 })];
    const ours = dots(nodes, 200, 200);
    const diff = differing(ours, resvg(nodes, 200, 200));
    expect(count(ours)).toBeGreaterThan(5000);
    expect(diff / count(ours), `${diff} of ${count(ours)} black dots differ`).toBeLessThan(0.01);
  });

  it('a line of small text matches resvg closely (stems a dot or two wide)', () => {
    const nodes = [
      textNode('Hamburgefonstiv 0123456789', { x: 3.3, baseline: 20.4, size: 17, font: 'DejaVuSans' }),
    ];
    const ours = dots(nodes, 260, 30);
    const diff = differing(ours, resvg(nodes, 260, 30));
    // Glyph pens are rounded to the quarter dot (glyph-coverage.ts); resvg places them exactly.
    expect(diff / count(ours), `${diff} of ${count(ours)} black dots differ`).toBeLessThan(0.1);
  });

  it('grey text needs more coverage than black text, as the resvg threshold does', () => {
    const black = dots(
      [textNode('Printed with', { x: 2, baseline: 20, size: 17, font: 'DejaVuSans' })],
      140,
      30,
    );
    const greyNodes = [
      textNode('Printed with', { x: 2, baseline: 20, size: 17, font: 'DejaVuSans', color: '#555555' }),
    ];
    const grey = dots(greyNodes, 140, 30);
    expect(count(grey)).toBeLessThan(count(black) * 0.8);
    const diff = differing(grey, resvg(greyNodes, 140, 30));
    expect(diff / count(grey), `${diff} of ${count(grey)} differ`).toBeLessThan(0.1);
  });

  it('white text on a black box is cut out of it', () => {
    const b = dots(
      [rect(0, 0, 140, 30), textNode('EXPRESS', { x: 4, baseline: 24, size: 24, color: '#ffffff' })],
      140,
      30,
    );
    expect(count(b)).toBeLessThan(140 * 30 * 0.85);
    expect(getDot(b, 1, 1)).toBe(true);
  });
});

describe('images', () => {
  it('a dithered photo at a fractional position comes out dot for dot as the resvg path makes it', () => {
    const nodes = [imageNode(greyRampPng(), 10.37, 6.5, 150.2, 70.71)];
    const ours = toMonoBitmapFast(scene('dots', 203, 180, 90, nodes), fonts);
    expect(differing(ours, resvg(nodes, 180, 90))).toBe(0);
  });

  it('a thresholded image too', () => {
    const nodes: SceneNode[] = [{ ...imageNode(greyRampPng(), 4.5, 3.25, 100, 50), monochrome: 'threshold' }];
    const ours = toMonoBitmapFast(scene('dots', 203, 120, 60, nodes), fonts);
    expect(differing(ours, resvg(nodes, 120, 60))).toBe(0);
  });

  it('is decoded once per image, size and mode, not once per label', () => {
    const before = monoRasterStats.imageDecodes;
    const data = greyRampPng(48, 24);
    for (let i = 0; i < 20; i++) {
      // Same image and box, different text each time (as in a batch).
      toMonoBitmapFast(
        scene('dots', 203, 120, 60, [
          imageNode(data, 5, 5, 60, 30),
          textNode(`#${i}`, { x: 70, baseline: 40, size: 20 }),
        ]),
        fonts,
      );
    }
    expect(monoRasterStats.imageDecodes - before).toBe(1);
  });

  it('without an image source the pure rasteriser says it cannot, rather than guessing', () => {
    expect(() => dots([imageNode(greyRampPng(), 0, 0, 20, 20)])).toThrow(MonoUnsupported);
  });

  it('an image under a rotation falls back to the resvg path for that label, with the same dots', () => {
    const nodes: SceneNode[] = [
      {
        kind: 'group',
        transform: [0.8, 0.6, -0.6, 0.8, 60, 5],
        opacity: 1,
        children: [imageNode(greyRampPng(), 0, 0, 64, 32)],
      },
    ];
    const before = monoRasterStats.fallback;
    const ours = toMonoBitmapFast(scene('dots', 203, 120, 80, nodes), fonts);
    expect(monoRasterStats.fallback - before).toBe(1);
    expect(monoRasterStats.lastFallback).toMatch(/rotation/);
    expect(differing(ours, resvg(nodes, 120, 80))).toBe(0);
  });
});

describe('fuzz', () => {
  const coord = fc.double({ min: -200, max: 400, noNaN: true });
  const len = fc.double({ min: -5, max: 300, noNaN: true });
  const colour = fc.constantFrom('#000000', '#ffffff', '#555555', '#00000080', '#ff0000', '#000000ff');
  const stroke = fc.option(
    fc.record({
      color: colour,
      width: fc.double({ min: 0, max: 20, noNaN: true }),
      lineCap: fc.constantFrom('butt', 'round', 'square') as fc.Arbitrary<'butt' | 'round' | 'square'>,
      lineJoin: fc.constantFrom('miter', 'round', 'bevel') as fc.Arbitrary<'miter' | 'round' | 'bevel'>,
      // Dash lengths as labels have them (a dot or more; zero allowed); absurdly fine ones: see below.
      dash: fc.option(
        fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0.5, max: 20, noNaN: true })), { maxLength: 4 }),
        {
          nil: undefined,
        },
      ),
    }),
    { nil: undefined },
  );
  const seg = fc.oneof(
    fc.tuple(coord, coord).map(([x, y]) => `L${x} ${y}`),
    fc.tuple(coord, coord, coord, coord).map(([a, b, c, d]) => `Q${a} ${b} ${c} ${d}`),
    fc.tuple(coord, coord, coord, coord, coord, coord).map((v) => `C${v.join(' ')}`),
    fc
      .tuple(len, len, fc.integer({ min: 0, max: 360 }), fc.boolean(), fc.boolean(), coord, coord)
      .map(([rx, ry, r, l, s, x, y]) => `A${rx} ${ry} ${r} ${l ? 1 : 0} ${s ? 1 : 0} ${x} ${y}`),
    fc.constant('Z'),
  );
  const path = fc
    .tuple(coord, coord, fc.array(seg, { minLength: 1, maxLength: 8 }))
    .map(([x, y, segs]) => `M${x} ${y}${segs.join('')}`);
  const node: fc.Arbitrary<SceneNode> = fc.oneof(
    fc.record({
      kind: fc.constant('rect' as const),
      x: coord,
      y: coord,
      width: len,
      height: len,
      cornerRadius: fc.option(len, { nil: undefined }),
      fill: fc.option(colour, { nil: undefined }),
      stroke,
    }),
    fc.record({
      kind: fc.constant('ellipse' as const),
      cx: coord,
      cy: coord,
      rx: len,
      ry: len,
      fill: fc.option(colour, { nil: undefined }),
      stroke,
    }),
    fc.record({
      kind: fc.constant('path' as const),
      d: path,
      fill: fc.option(colour, { nil: undefined }),
      fillRule: fc.constantFrom('nonzero', 'evenodd') as fc.Arbitrary<'nonzero' | 'evenodd'>,
      stroke,
    }),
  );
  const matrix = fc.tuple(
    fc.double({ min: -3, max: 3, noNaN: true }),
    fc.double({ min: -3, max: 3, noNaN: true }),
    fc.double({ min: -3, max: 3, noNaN: true }),
    fc.double({ min: -3, max: 3, noNaN: true }),
    coord,
    coord,
  );
  const tree = fc.array(
    fc.oneof(
      node,
      fc.record({
        kind: fc.constant('group' as const),
        transform: matrix,
        opacity: fc.double({ min: 0, max: 1, noNaN: true }),
        children: fc.array(node, { maxLength: 3 }),
      }),
    ),
    { minLength: 1, maxLength: 5 },
  );

  it('random rects, ellipses, paths, strokes and transforms: draws or declines (MonoUnsupported, rarely), padding bits stay clear', () => {
    let runs = 0;
    let declined = 0;
    fc.assert(
      fc.property(tree, fc.integer({ min: 1, max: 97 }), fc.integer({ min: 1, max: 60 }), (nodes, w, h) => {
        runs++;
        let b: MonoBitmap;
        try {
          b = dots(nodes as SceneNode[], w, h);
        } catch (e) {
          // The only way it may decline (the Node port then uses resvg); anything else is a bug.
          expect(e).toBeInstanceOf(MonoUnsupported);
          declined++;
          return;
        }
        expect(b.data.length).toBe(Math.ceil(w / 8) * h);
        expect(paddingClear(b)).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(declined / runs, `${declined} of ${runs} declined`).toBeLessThan(0.05);
  });

  it('declines a dash pattern millions of times finer than a dot instead of running out of memory', () => {
    const line: SceneNode = {
      kind: 'path',
      d: 'M0 10L300 10',
      stroke: { color: '#000000', width: 2, dash: [1e-9, 1e-9] },
    };
    expect(() => dots([line])).toThrow(MonoUnsupported);
  });

  it('never draws outside a shape: a black rect stays inside its box, whatever box', () => {
    fc.assert(
      fc.property(coord, coord, len, len, (x, y, width, height) => {
        const b = dots([rect(x, y, width, height)], 90, 70);
        for (const key of blackSet(b)) {
          const [px, py] = key.split(',').map(Number) as [number, number];
          // Dot px is black only if its [px, px + 1) overlaps the rect by at least half a dot.
          expect(px + 1).toBeGreaterThan(x);
          expect(px).toBeLessThan(x + width);
          expect(py + 1).toBeGreaterThan(y);
          expect(py).toBeLessThan(y + height);
        }
      }),
      { numRuns: 300 },
    );
  });
});
