/**
 * layout(): Markup → Scene. What a user would notice if it were wrong: a label of the wrong size, an element
 * in the wrong place or missing, a rotated barcode off the dot grid, a bad value that silently prints.
 */
import { describe, expect, it } from 'vitest';
import { BarcodeValueError } from '../../src/layout/barcode';
import type { ImageAssets } from '../../src/layout/images';
import { layout } from '../../src/layout/layout';
import { ElementError, type LayoutOptions, type LayoutTarget } from '../../src/layout/element-context';
import type { BarcodeNode, GroupNode, PathNode, Scene, SceneNode, TextNode } from '../../src/layout/scene';
import { loadBundledFonts } from '../../src/node/fonts';
import { rasterizeRgba } from '../../src/node/resvg';
import { parseMarkup } from '../../src/model/parse';
import type { Markup } from '../../src/model/schema';
import { encodePng } from '../render/fixtures';

const fonts = loadBundledFonts();
const PX: LayoutTarget = { unit: 'px' };
const dots = (dpi: number): LayoutTarget => ({ unit: 'dots', dpi });

type Stage = { width: number; height: number; unit: 'in' | 'cm' | 'mm' | 'px'; background?: string };

function markup(
  elements: Record<string, unknown>[],
  stage: Stage = { width: 4, height: 6, unit: 'in' },
): Markup {
  return parseMarkup({ stage, elements });
}

function lay(m: Markup, target: LayoutTarget = PX, extra: Partial<LayoutOptions> = {}): Scene {
  return layout(m, { fonts, target, ...extra });
}

/** The only node of a one-element markup. */
function only(
  el: Record<string, unknown>,
  target: LayoutTarget = PX,
  extra: Partial<LayoutOptions> = {},
): SceneNode {
  const scene = lay(markup([el]), target, extra);
  expect(scene.nodes).toHaveLength(1);
  return scene.nodes[0]!;
}

function as<K extends SceneNode['kind']>(
  node: SceneNode | undefined,
  kind: K,
): Extract<SceneNode, { kind: K }> {
  expect(node?.kind).toBe(kind);
  return node as Extract<SceneNode, { kind: K }>;
}

/** A 4 × 2 px RGBA PNG, for image elements. */
const PNG = encodePng(4, 2, new Uint8Array(4 * 2 * 4).fill(0));
const PNG_URL = 'https://cdn.example/logo.png';
const images: ImageAssets = new Map([[PNG_URL, { mime: 'image/png', data: PNG, width: 4, height: 2 }]]);

describe('scene size', () => {
  it.each<[string, Stage, LayoutTarget, number, number]>([
    ['4 × 6 in as CSS px', { width: 4, height: 6, unit: 'in' }, PX, 384, 576],
    ['4 × 6 in at 203 dpi', { width: 4, height: 6, unit: 'in' }, dots(203), 812, 1218],
    ['4 × 6 in at 300 dpi', { width: 4, height: 6, unit: 'in' }, dots(300), 1200, 1800],
    ['4 × 6 in at 600 dpi', { width: 4, height: 6, unit: 'in' }, dots(600), 2400, 3600],
    ['A4 (mm) at 300 dpi', { width: 210, height: 297, unit: 'mm' }, dots(300), 2480, 3508],
    ['A4 (mm) at 203 dpi', { width: 210, height: 297, unit: 'mm' }, dots(203), 1678, 2374],
    ['10 × 5 cm at 203 dpi', { width: 10, height: 5, unit: 'cm' }, dots(203), 799, 400],
    ['a px stage (384 × 192) at 203 dpi', { width: 384, height: 192, unit: 'px' }, dots(203), 812, 406],
  ])('%s', (_what, stage, target, width, height) => {
    const scene = lay(markup([], stage), target);
    expect([scene.width, scene.height]).toEqual([width, height]);
    expect(scene.unit).toBe(target.unit);
    expect(scene.dpi).toBe(target.unit === 'dots' ? target.dpi : 96);
  });

  it('keeps an A4 page exact in px (793.7 × 1122.5), whole dots only on raster targets', () => {
    const scene = lay(markup([], { width: 210, height: 297, unit: 'mm' }));
    expect(scene.width).toBeCloseTo((210 / 25.4) * 96, 9);
    expect(scene.height).toBeCloseTo((297 / 25.4) * 96, 9);
  });

  it('normalises the background colour', () => {
    expect(lay(markup([], { width: 1, height: 1, unit: 'in', background: 'White' })).background).toBe(
      '#ffffff',
    );
    expect(lay(markup([], { width: 1, height: 1, unit: 'in', background: '#FC0' })).background).toBe(
      '#ffcc00',
    );
  });
});

describe('element kinds', () => {
  const all = markup([
    { type: 'text', x: 10, y: 10, width: 100, height: 20, text: 'Hello' },
    { type: 'image', x: 10, y: 40, width: 40, height: 20, url: PNG_URL },
    { type: 'barcode', x: 10, y: 70, width: 200, height: 60, format: 'code128', text: 'LD-1' },
    { type: 'line', x: 10, y: 140, points: [0, 0, 100, 0], stroke: '#000000', strokeWidth: 2 },
    { type: 'rect', x: 10, y: 150, width: 50, height: 20, fill: '#000000' },
    { type: 'circle', x: 100, y: 200, radius: 10, fill: '#000000' },
    { type: 'ellipse', x: 150, y: 200, radiusX: 20, radiusY: 10, fill: '#000000' },
    { type: 'wedge', x: 200, y: 200, radius: 20, angle: 90, fill: '#000000' },
    { type: 'ring', x: 250, y: 200, innerRadius: 5, outerRadius: 10, fill: '#000000' },
    { type: 'arc', x: 300, y: 200, innerRadius: 5, outerRadius: 10, angle: 180, fill: '#000000' },
    { type: 'rfid', epc: '3034257bf7194e4000001a85' },
  ]);

  it('draws every kind as its node kind, in markup order, each naming its element', () => {
    const scene = lay(all, PX, { images });
    expect(scene.nodes.map((n) => n.kind)).toEqual([
      'text',
      'image',
      'barcode',
      'path',
      'rect',
      'ellipse',
      'ellipse',
      'path',
      'path',
      'path',
    ]);
    expect(scene.nodes.map((n) => n.element)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(scene.warnings).toEqual([]);
  });

  it('fills rings and arcs even-odd (their hole stays empty) and wedges non-zero', () => {
    const [, , , , , , , wedge, ring, arc] = lay(all, PX, { images }).nodes as PathNode[];
    expect(wedge?.fillRule).toBeUndefined();
    expect(ring?.fillRule).toBe('evenodd');
    expect(arc?.fillRule).toBe('evenodd');
  });

  it('never draws RFID, but carries its EPC (uppercase) to the scene for ZPL', () => {
    const scene = lay(all, dots(203), { images });
    expect(scene.rfid).toEqual([{ element: 10, bank: 'epc', hex: '3034257BF7194E4000001A85', lock: 'none' }]);
  });

  it('scales px positions to dots without rounding boxes (300 dpi: × 3.125)', () => {
    const rect = as(
      only({ type: 'rect', x: 10, y: 20, width: 30, height: 40, fill: '#000' }, dots(300)),
      'rect',
    );
    expect([rect.x, rect.y, rect.width, rect.height]).toEqual([31.25, 62.5, 93.75, 125]);
  });

  it('centres circles and ellipses on (x, y), as Konva does', () => {
    const e = as(
      only({ type: 'ellipse', x: 150, y: 200, radiusX: 20, radiusY: 10, fill: '#000' }, dots(192)),
      'ellipse',
    );
    expect([e.cx, e.cy, e.rx, e.ry]).toEqual([300, 400, 40, 20]);
  });

  it('draws line points relative to (x, y)', () => {
    const p = as(
      only({ type: 'line', x: 10, y: 20, points: [0, 0, 30, 40, 60, 0], stroke: '#000', strokeWidth: 1 }),
      'path',
    );
    expect(p.d).toBe('M10 20L40 60L70 20');
  });

  it('places an image in its box and sizes it from the picture when the box has no size', () => {
    const img = as(
      only({ type: 'image', x: 10, y: 20, width: 40, height: 30, url: PNG_URL }, PX, { images }),
      'image',
    );
    expect([img.x, img.y, img.width, img.height, img.mime]).toEqual([10, 20, 40, 30, 'image/png']);
    const natural = as(only({ type: 'image', x: 0, y: 0, url: PNG_URL }, dots(192), { images }), 'image');
    expect([natural.width, natural.height]).toEqual([8, 4]);
  });

  it('fits an image inside its box keeping its aspect with fit "contain"', () => {
    const img = as(
      only({ type: 'image', x: 0, y: 0, width: 40, height: 40, url: PNG_URL, fit: 'contain' }, PX, {
        images,
      }),
      'image',
    );
    expect([img.x, img.y, img.width, img.height]).toEqual([0, 10, 40, 20]);
  });
});

describe('rotation, scale and opacity', () => {
  it('puts a rotated element in a group: rotate about (x, y), then translate', () => {
    const g = as(
      only({ type: 'rect', x: 100, y: 50, width: 40, height: 10, fill: '#000', rotation: 90 }),
      'group',
    );
    expect(g.transform).toEqual([0, 1, -1, 0, 100, 50]);
    expect(g.opacity).toBe(1);
    const rect = as(g.children[0], 'rect');
    // Drawn at the group's origin: (x, y) moved into the transform.
    expect([rect.x, rect.y, rect.width, rect.height]).toEqual([0, 0, 40, 10]);
  });

  it('applies scale after rotation (Konva order): [cos·sx, sin·sx, −sin·sy, cos·sy, x, y]', () => {
    const g = as(
      only({
        type: 'rect',
        x: 10,
        y: 20,
        width: 4,
        height: 4,
        fill: '#000',
        rotation: 30,
        scaleX: 2,
        scaleY: 3,
      }),
      'group',
    );
    const c = Math.cos(Math.PI / 6);
    const s = Math.sin(Math.PI / 6);
    const expected = [c * 2, s * 2, -s * 3, c * 3, 10, 20];
    g.transform.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 12));
  });

  it('makes right angles exact (180°: −1 and 0, not 1.2e-16)', () => {
    const g = as(
      only({ type: 'rect', x: 0, y: 0, width: 4, height: 4, fill: '#000', rotation: 180 }),
      'group',
    );
    expect(g.transform.slice(0, 4)).toEqual([-1, 0, -0, -1]);
  });

  it('rounds a group origin to whole dots on raster targets, not on vector ones', () => {
    const el = { type: 'rect', x: 10.3, y: 0, width: 4, height: 4, fill: '#000', rotation: 90 };
    expect(as(only(el, dots(203)), 'group').transform[4]).toBe(22); // 10.3 px = 21.78 dots
    expect(as(only(el, PX), 'group').transform[4]).toBe(10.3);
  });

  it.each([90, 180, 270, -90])('keeps every bar of a barcode rotated %d° on whole dots', (rotation) => {
    const g = as(
      only(
        {
          type: 'barcode',
          x: 101.3,
          y: 57.7,
          width: 150,
          height: 50,
          format: 'code128',
          text: 'ROT-1',
          rotation,
        },
        dots(203),
      ),
      'group',
    );
    const bc = as(g.children[0], 'barcode');
    expect(bc.moduleWidth).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(bc.moduleWidth)).toBe(true);
    const [a, b, c, d, e, f] = g.transform;
    const corners: number[] = [];
    for (let i = 0; i < bc.rects.length; i += 4) {
      const [x, y, w, h] = bc.rects.slice(i, i + 4) as [number, number, number, number];
      for (const [px, py] of [
        [x, y],
        [x + w, y + h],
      ] as const)
        corners.push(a * px + c * py + e, b * px + d * py + f);
    }
    expect(corners.length).toBeGreaterThan(40);
    expect(corners.filter((v) => !Number.isInteger(v))).toEqual([]);
  });

  it('wraps a translucent element in a group with the opacity and no transform', () => {
    const g = as(
      only({ type: 'rect', x: 5, y: 5, width: 10, height: 10, fill: '#000', opacity: 0.4 }),
      'group',
    );
    expect(g.opacity).toBe(0.4);
    expect(g.transform).toEqual([1, 0, 0, 1, 0, 0]);
    expect(as(g.children[0], 'rect').x).toBe(5);
  });

  it('keeps opacity on a rotated element', () => {
    const g = as(
      only({ type: 'circle', x: 5, y: 5, radius: 3, fill: '#000', opacity: 0.5, rotation: 45 }),
      'group',
    );
    expect(g.opacity).toBe(0.5);
  });

  it('places a plain element absolutely, without a group', () => {
    expect(only({ type: 'rect', x: 5, y: 5, width: 10, height: 10, fill: '#000' }).kind).toBe('rect');
  });
});

describe('what is not drawn', () => {
  it('skips invisible elements, even ones that would fail (an image that was never loaded)', () => {
    const scene = lay(
      markup([
        { type: 'rect', x: 0, y: 0, width: 10, height: 10, fill: '#000', visible: false },
        {
          type: 'image',
          x: 0,
          y: 0,
          width: 10,
          height: 10,
          url: 'https://cdn.example/missing.png',
          visible: false,
        },
        { type: 'rect', x: 0, y: 0, width: 10, height: 10, fill: '#000' },
      ]),
    );
    expect(scene.nodes.map((n) => n.element)).toEqual([2]);
  });

  it.each<[string, Record<string, unknown>]>([
    ['a line without stroke', { type: 'line', points: [0, 0, 10, 10], strokeWidth: 3 }],
    [
      'a line with a stroke width of 0',
      { type: 'line', points: [0, 0, 10, 10], stroke: '#000', strokeWidth: 0 },
    ],
    ['a rect with neither fill nor stroke', { type: 'rect', width: 10, height: 10 }],
    ['a transparent rect', { type: 'rect', width: 10, height: 10, fill: 'transparent', stroke: '#00000000' }],
    ['a circle with neither fill nor stroke', { type: 'circle', radius: 10 }],
    ['a wedge of 0°', { type: 'wedge', radius: 10, angle: 0, fill: '#000' }],
    ['empty text', { type: 'text', text: '' }],
  ])('draws nothing for %s', (_what, el) => {
    expect(lay(markup([el])).nodes).toEqual([]);
  });
});

describe('stroke, fill and colours', () => {
  it('strokes in scene units and keeps line caps and dashes (dashes scaled too)', () => {
    const p = as(
      only(
        {
          type: 'line',
          points: [0, 0, 10, 0],
          stroke: '#000',
          strokeWidth: 2,
          lineCap: 'round',
          dash: [4, 2],
        },
        dots(300),
      ),
      'path',
    );
    expect(p.stroke).toEqual({ color: '#000000', width: 6.25, lineCap: 'round', dash: [12.5, 6.25] });
    expect(p.fill).toBeUndefined();
  });

  it('fills a closed line only when it is closed', () => {
    const closed = as(
      only({ type: 'line', points: [0, 0, 10, 0, 5, 5], closed: true, fill: '#000' }),
      'path',
    );
    expect(closed.d).toMatch(/Z$/);
    expect(closed.fill).toBe('#000000');
    expect(lay(markup([{ type: 'line', points: [0, 0, 10, 0, 5, 5], fill: '#000' }])).nodes).toEqual([]);
  });

  it('gives a stroked shape no fill, and a filled shape no stroke', () => {
    const stroked = as(only({ type: 'rect', width: 10, height: 10, stroke: '#000', strokeWidth: 2 }), 'rect');
    expect(stroked.fill).toBeUndefined();
    expect(stroked.stroke?.width).toBe(2);
    const filled = as(only({ type: 'ellipse', radiusX: 10, radiusY: 5, fill: '#000' }), 'ellipse');
    expect(filled.stroke).toBeUndefined();
  });

  it('normalises colours to lowercase #rrggbb(aa)', () => {
    const rect = as(
      only({ type: 'rect', width: 10, height: 10, fill: 'RED', stroke: '#ABC', strokeWidth: 1 }),
      'rect',
    );
    expect([rect.fill, rect.stroke?.color]).toEqual(['#ff0000', '#aabbcc']);
    const text = as(only({ type: 'text', text: 'Hi', font: { color: '#12345680' } }), 'text');
    expect(text.color).toBe('#12345680');
  });

  it('draws text black by default, and in the element fill when there is no font colour', () => {
    expect(as(only({ type: 'text', text: 'Hi' }), 'text').color).toBe('#000000');
    expect(as(only({ type: 'text', text: 'Hi', fill: 'navy' }), 'text').color).toBe('#000080');
  });

  it('draws barcodes in their colour, black by default', () => {
    const el = { type: 'barcode', width: 200, height: 60, format: 'code128', text: 'A' };
    expect(as(only(el), 'barcode').color).toBe('#000000');
    expect(as(only({ ...el, color: 'Blue' }), 'barcode').color).toBe('#0000ff');
  });
});

describe('text', () => {
  it('gives text without a width the rest of the stage (like the hosted SDK)', () => {
    const el = { type: 'text', x: 100, y: 0, text: 'Hello' };
    expect((only(el) as TextNode).box.width).toBe(284);
    expect((only(el, dots(300)) as TextNode).box.width).toBeCloseTo(284 * 3.125, 9);
  });

  it('lays text out at the target resolution: font size and baseline scale with the dpi', () => {
    const px = as(only({ type: 'text', x: 0, y: 0, text: 'Hello', font: { size: 20 } }), 'text');
    const at300 = as(
      only({ type: 'text', x: 0, y: 0, text: 'Hello', font: { size: 20 } }, dots(300)),
      'text',
    );
    expect(at300.size).toBeCloseTo(px.size * 3.125, 9);
    expect(at300.lines[0]!.baseline).toBeCloseTo(px.lines[0]!.baseline * 3.125, 6);
    expect(at300.lines[0]!.text).toBe('Hello');
  });
});

describe('values that cannot be drawn', () => {
  const bad = markup([
    { type: 'text', text: 'EAN:' },
    { type: 'rect', width: 10, height: 10, fill: '#000' },
    { type: 'barcode', x: 20, y: 30, width: 150, height: 60, format: 'ean13', text: '590123412345X' },
  ]);

  it('throws an ElementError naming the element index in "throw" mode (the default)', () => {
    let error: unknown;
    try {
      lay(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ElementError);
    const e = error as ElementError;
    expect(e.element).toBe(2);
    expect(e.message).toMatch(/^elements\[2\] \(barcode ean13\): /);
    expect(e.cause).toBeInstanceOf(BarcodeValueError);
    expect(() => lay(bad, PX, { onInvalid: 'throw' })).toThrow(ElementError);
  });

  it('draws a red hatched box in the element box and a warning in "mark" mode (the live preview)', () => {
    const scene = lay(bad, PX, { onInvalid: 'mark' });
    const mark = as(scene.nodes[2], 'path');
    expect(mark.element).toBe(2);
    expect(mark.stroke?.color).toBe('#d00000');
    expect(mark.fill).toBeUndefined();
    // The box outline and both diagonals.
    expect(mark.d).toBe('M20 30h150v60h-150ZM20 30L170 90M170 30L20 90');
    expect(scene.warnings).toHaveLength(1);
    expect(scene.warnings[0]).toMatch(/^elements\[2\] \(barcode ean13\): /);
    // The rest of the label is still there.
    expect(scene.nodes.map((n) => n.kind)).toEqual(['text', 'rect', 'path']);
  });

  it('names the URL of an image that was not loaded', () => {
    const m = markup([
      { type: 'image', x: 0, y: 0, width: 30, height: 30, url: 'https://cdn.example/missing.png' },
    ]);
    expect(() => lay(m, PX, { images })).toThrow(
      'elements[0] (image): image https://cdn.example/missing.png: was not loaded',
    );
    const marked = lay(m, PX, { images, onInvalid: 'mark' });
    expect(as(marked.nodes[0], 'path').stroke?.color).toBe('#d00000');
    expect(marked.warnings).toEqual([
      'elements[0] (image): image https://cdn.example/missing.png: was not loaded',
    ]);
  });

  it('shows only the start of a data: URL in the message, never its data', () => {
    const url = `data:image/png;base64,${'A'.repeat(5000)}`;
    expect(() => lay(markup([{ type: 'image', width: 10, height: 10, url }]))).toThrow(
      'elements[0] (image): image data:image/png;base64,…: was not loaded',
    );
  });

  it.each([
    [
      '23 digits',
      '3034257BF7194E4000001A8',
      /^elements\[0\] \(rfid\): epc: expected 24 hex digits for a 96-bit EPC, got 23$/,
    ],
    ['a non-hex digit', '3034257BF7194E4000001A8G', /^elements\[0\] \(rfid\): epc: /],
  ])(
    'rejects an EPC with %s in "throw" mode; in "mark" mode warns and writes nothing',
    (_what, epc, message) => {
      const m = markup([{ type: 'rfid', epc }]);
      expect(() => lay(m, dots(203))).toThrow(message);
      // The preview keeps drawing while the EPC is half typed; no output ever uses 'mark'.
      const preview = lay(m, dots(203), { onInvalid: 'mark' });
      expect(preview.rfid).toEqual([]);
      expect(preview.warnings).toHaveLength(1);
      expect(preview.warnings[0]).toMatch(message);
    },
  );
});

describe('warnings', () => {
  it('passes on text and barcode warnings, each naming its element', () => {
    const scene = lay(
      markup([
        {
          type: 'text',
          x: 0,
          y: 0,
          width: 60,
          height: 16,
          text: 'This sentence is far too long for its small box',
        },
        {
          type: 'barcode',
          x: 0,
          y: 40,
          width: 40,
          height: 30,
          format: 'code128',
          text: '1Z999AA10123456784',
        },
      ]),
      dots(203),
    );
    expect(scene.warnings.some((w) => w.startsWith('elements[0].text: '))).toBe(true);
    expect(scene.warnings.some((w) => w.startsWith('elements[1]: Code 128 "1Z999AA10123456784" needs'))).toBe(
      true,
    );
    expect(scene.warnings).toHaveLength(2);
  });
});

describe('shapes placed on the label', () => {
  /** Dark (< 128) at scene coordinates (x, y) in an RGBA raster of the scene at 1 px per unit. */
  function darkAt(scene: Scene, points: [number, number][]): boolean[] {
    const img = rasterizeRgba(scene, fonts);
    return points.map(([x, y]) => (img.rgba[(Math.round(y) * img.width + Math.round(x)) * 4] ?? 255) < 128);
  }

  it('draws a 90° wedge clockwise from 3 o’clock around its (x, y)', () => {
    const scene = lay(
      markup([{ type: 'wedge', x: 60, y: 50, radius: 40, angle: 90, fill: '#000' }], {
        width: 120,
        height: 100,
        unit: 'px',
      }),
    );
    // 45° (below right of the centre) is inside; 135°, 225°, 315° are not; past the radius is not.
    expect(
      darkAt(scene, [
        [80, 70],
        [40, 70],
        [40, 30],
        [80, 30],
        [95, 85],
      ]),
    ).toEqual([true, false, false, false, false]);
  });

  it('draws a ring with its hole, and an arc as the lower half of a ring', () => {
    const scene = lay(
      markup(
        [
          { type: 'ring', x: 50, y: 50, innerRadius: 20, outerRadius: 40, fill: '#000' },
          { type: 'arc', x: 150, y: 50, innerRadius: 20, outerRadius: 40, angle: 180, fill: '#000' },
        ],
        { width: 200, height: 100, unit: 'px' },
      ),
    );
    expect(
      darkAt(scene, [
        [50, 50],
        [80, 50],
        [50, 20],
        [50, 95],
      ]),
    ).toEqual([false, true, true, false]);
    expect(
      darkAt(scene, [
        [150, 50],
        [150, 80],
        [150, 20],
        [180, 60],
        [120, 60],
        [180, 40],
      ]),
    ).toEqual([false, true, false, true, true, false]);
  });

  it('draws the same wedge when it is rotated by 90° (the group rotates it into the next quadrant)', () => {
    const scene = lay(
      markup([{ type: 'wedge', x: 60, y: 50, radius: 40, angle: 90, fill: '#000', rotation: 90 }], {
        width: 120,
        height: 100,
        unit: 'px',
      }),
    );
    expect(
      darkAt(scene, [
        [40, 70],
        [80, 70],
      ]),
    ).toEqual([true, false]);
  });
});

describe('groups', () => {
  it('names the element on the group and on its child', () => {
    const g = only({
      type: 'rect',
      x: 1,
      y: 1,
      width: 2,
      height: 2,
      fill: '#000',
      rotation: 10,
    }) as GroupNode;
    expect(g.element).toBe(0);
    expect(g.children[0]?.element).toBe(0);
  });

  it('keeps the barcode value with its check digit on the node', () => {
    const bc = only({
      type: 'barcode',
      width: 200,
      height: 80,
      format: 'ean13',
      text: '590123412345',
    }) as BarcodeNode;
    expect(bc.value).toBe('5901234123457');
  });
});
