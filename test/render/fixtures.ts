/** Hand-built scenes for the render tests: shapes, fontkit-laid text, a bwip-js Code 128, generated PNGs. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import bwipjs from 'bwip-js/generic';
import type { FontSet } from '../../src/layout/fonts';
import type { BarcodeNode, ImageNode, Scene, SceneNode, TextNode } from '../../src/layout/scene';
import { loadBundledFonts } from '../../src/node/fonts';
import { pngChunk } from '../../src/node/resvg/png-dpi';

export const fonts: FontSet = loadBundledFonts();

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'labeldesk-render-'));
}

/**
 * One line of text shaped with fontkit (what layout does), pen starting at (x, baseline). `text` may be
 * given as visual runs, each shaped on its own and placed left to right (what bidi reordering produces).
 */
export function textNode(
  text: string | string[],
  opts: { x: number; baseline: number; size: number; font?: string; color?: string },
): TextNode {
  const font = opts.font ?? 'DejaVuSans-Bold';
  const f = fonts.get(font).font;
  const s = opts.size / f.unitsPerEm;
  let pen = 0;
  const glyphs: TextNode['lines'][number]['glyphs'] = [];
  for (const part of typeof text === 'string' ? [text] : text) {
    const run = f.layout(part);
    run.glyphs.forEach((g, i) => {
      const p = run.positions[i];
      glyphs.push({ id: g.id, x: (pen + (p?.xOffset ?? 0)) * s, y: -(p?.yOffset ?? 0) * s });
      pen += p?.xAdvance ?? 0;
    });
  }
  if (typeof text !== 'string') text = text.join('');
  const width = pen * s;
  return {
    kind: 'text',
    font,
    size: opts.size,
    color: opts.color ?? '#000000',
    box: { x: opts.x, y: opts.baseline - opts.size, width, height: opts.size * 1.2 },
    direction: 'ltr',
    lines: [{ text, x: opts.x, baseline: opts.baseline, width, glyphs }],
  };
}

/** Code 128 from bwip-js raw geometry, each bar a whole number of units (`module` scene units per module). */
export function code128(value: string, x: number, y: number, module: number, height: number): BarcodeNode {
  const [sym] = bwipjs.raw({ bcid: 'code128', text: value }) as unknown as { sbs: number[] }[];
  if (!sym) throw new Error('bwip-js returned nothing');
  const rects: number[] = [];
  let at = x + 10 * module; // quiet zone
  sym.sbs.forEach((w, i) => {
    if (i % 2 === 0) rects.push(at, y, w * module, height);
    at += w * module;
  });
  const width = at - x + 10 * module;
  return {
    kind: 'barcode',
    format: 'code128',
    value,
    color: '#000000',
    rects,
    box: { x, y, width, height },
    moduleWidth: module,
  };
}

/** Encodes 8-bit RGBA pixels as a PNG (colour type 6, filter 0 on every row). */
export function encodePng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  const raw = new Uint8Array((width * 4 + 1) * height);
  for (let y = 0; y < height; y++)
    raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', new Uint8Array(deflateSync(raw))),
    pngChunk('IEND', new Uint8Array(0)),
  ];
  return new Uint8Array(Buffer.concat(parts));
}

/** A left-to-right grey ramp from 20 % to 90 % white: photo-like tones, no pure black or white. */
export function greyRampPng(width = 64, height = 32): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const g = Math.round(51 + (x / (width - 1)) * (230 - 51));
      rgba.set([g, g, g, 255], (y * width + x) * 4);
    }
  }
  return encodePng(width, height, rgba);
}

export function imageNode(data: Uint8Array, x: number, y: number, width: number, height: number): ImageNode {
  return { kind: 'image', x, y, width, height, mime: 'image/png', data, monochrome: 'dither' };
}

export function scene(
  unit: 'px' | 'dots',
  dpi: number,
  width: number,
  height: number,
  nodes: SceneNode[],
): Scene {
  return { unit, dpi, width, height, background: '#ffffff', nodes, rfid: [], warnings: [] };
}

/**
 * A 4 × 6 in shipping-style label in px (384 × 576): frame, ellipse, an even-odd ring, a rotated group,
 * two text lines and a Code 128 with 1.5 px modules (non-integer on purpose: vector outputs keep them exact).
 */
export function shippingLabel(extra: SceneNode[] = []): Scene {
  return scene('px', 96, 384, 576, [
    {
      kind: 'rect',
      x: 8,
      y: 8,
      width: 368,
      height: 560,
      stroke: { color: '#000000', width: 2 },
      cornerRadius: 6,
    },
    { kind: 'ellipse', cx: 330, cy: 60, rx: 30, ry: 20, fill: '#000000' },
    {
      kind: 'path',
      d: 'M300 140a30 30 0 1 0 60 0a30 30 0 1 0 -60 0zM315 140a15 15 0 1 0 30 0a15 15 0 1 0 -30 0z',
      fill: '#000000',
      fillRule: 'evenodd',
    },
    textNode('SHIP TO: Ada Lovelace', { x: 24, baseline: 60, size: 20 }),
    textNode('12 Analytical Engine Way', { x: 24, baseline: 90, size: 16, font: 'DejaVuSans' }),
    {
      kind: 'group',
      transform: [0, 1, -1, 0, 260, 200],
      opacity: 1,
      children: [textNode('ROTATED', { x: 0, baseline: 0, size: 14 })],
    },
    code128('LABELDESK-42', 40, 400, 1.5, 100),
    ...extra,
  ]);
}
