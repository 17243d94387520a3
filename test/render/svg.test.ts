import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { afterAll, describe, expect, it } from 'vitest';
import { renderSvg } from '../../src/render/svg';
import { zbarValues } from '../support/zbar';
import { code128, fonts, greyRampPng, imageNode, scene, shippingLabel, tempDir, textNode } from './fixtures';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Renders with resvg exactly as a machine without any fonts would. */
function rasterise(
  svg: string,
  zoom = 1,
): { width: number; height: number; pixels: Uint8Array; png: Buffer } {
  const r = new Resvg(svg, {
    font: { loadSystemFonts: false },
    fitTo: { mode: 'zoom', value: zoom },
    background: 'white',
  }).render();
  return { width: r.width, height: r.height, pixels: new Uint8Array(r.pixels), png: r.asPng() };
}

function darkPixelsIn(
  img: { width: number; pixels: Uint8Array },
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): number {
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) if ((img.pixels[(y * img.width + x) * 4] ?? 255) < 128) n++;
  }
  return n;
}

describe('renderSvg', () => {
  it('is self-contained: glyph outlines instead of text, no font references', () => {
    const svg = renderSvg(shippingLabel(), fonts);
    expect(svg).not.toMatch(/<text|font-family|@font-face|<style/);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<use href="#ld-g');
    // One definition per distinct glyph: "SHIP TO: Ada Lovelace" etc. reuse outlines.
    const defs = svg.match(/<path id="ld-g\d+"/g) ?? [];
    const uses = svg.match(/<use /g) ?? [];
    expect(defs.length).toBeGreaterThan(10);
    expect(uses.length).toBeGreaterThan(defs.length);
    expect(new Set(defs).size).toBe(defs.length);
  });

  it('draws text pixels with resvg when no system font is loaded', () => {
    const s = scene('px', 96, 300, 80, [textNode('Hello LabelDesk', { x: 10, baseline: 50, size: 30 })]);
    const img = rasterise(renderSvg(s, fonts));
    expect(darkPixelsIn(img, 10, 25, 290, 52)).toBeGreaterThan(500);
    // Nothing outside the text's line box.
    expect(darkPixelsIn(img, 0, 0, 300, 15)).toBe(0);
    expect(darkPixelsIn(img, 0, 60, 300, 80)).toBe(0);
  });

  it('sizes the root in physical units (issue #19) and the viewBox in scene units', () => {
    const px = renderSvg(shippingLabel(), fonts);
    expect(px).toContain('width="4in" height="6in" viewBox="0 0 384 576"');
    // 4 × 6 in at 203 dpi in dots: the same physical size, the viewBox in dots.
    const dots = renderSvg(scene('dots', 203, 812, 1218, []), fonts);
    expect(dots).toContain('width="4in" height="6in" viewBox="0 0 812 1218"');
    // A tool at 96 px per inch (resvg's default) draws 4 in as 384 px, whatever the scene's units.
    const img = rasterise(dots);
    expect([img.width, img.height]).toEqual([384, 576]);
    // A metric stage declares millimetres: 100 × 150 mm.
    const mm = renderSvg(scene('px', 96, (100 / 25.4) * 96, (150 / 25.4) * 96, []), fonts, { unit: 'mm' });
    expect(mm).toMatch(/^<svg [^>]*width="100mm" height="150mm" viewBox="0 0 377\.95 566\.93"/);
  });

  it('writes coordinates with at most 2 decimals', () => {
    const s = scene('px', 96, 100.123456, 50, [
      { kind: 'rect', x: 1 / 3, y: 2 / 3, width: 10.98765, height: 5, fill: '#112233' },
      { kind: 'ellipse', cx: 20.555555, cy: 20, rx: 3.14159, ry: 2, fill: '#000000' },
    ]);
    const svg = renderSvg(s, fonts);
    expect(svg).toContain('<rect x="0.33" y="0.67" width="10.99" height="5" fill="#112233"/>');
    expect(svg).toContain('cx="20.56"');
    expect(svg).toContain('viewBox="0 0 100.12 50"');
  });

  it('draws a barcode as one crisp path that zbarimg decodes', () => {
    const s = shippingLabel();
    const svg = renderSvg(s, fonts);
    const barcodePaths = svg.match(/<path d="[^"]*" fill="#000000" shape-rendering="crispEdges"\/>/g) ?? [];
    expect(barcodePaths).toHaveLength(1);
    for (const zoom of [1, 203 / 96]) {
      const file = join(dir, `label-${zoom}.png`);
      writeFileSync(file, rasterise(svg, zoom).png);
      expect(zbarValues(file)).toEqual(['LABELDESK-42']);
    }
  });

  it('embeds images as data: URLs, fill rules, strokes, colours with alpha, group transform and opacity', () => {
    const png = greyRampPng(8, 4);
    const s = scene('px', 96, 200, 100, [
      imageNode(png, 10, 10, 80, 40),
      { kind: 'path', d: 'M0 0h10v10h-10z', fill: '#ff000080', fillRule: 'evenodd' },
      {
        kind: 'group',
        transform: [Math.SQRT1_2, Math.SQRT1_2, -Math.SQRT1_2, Math.SQRT1_2, 100, 20],
        opacity: 0.5,
        children: [
          {
            kind: 'rect',
            x: 0,
            y: 0,
            width: 20,
            height: 10,
            stroke: { color: '#0000ff', width: 1.5, dash: [4, 2], lineCap: 'round' },
          },
        ],
      },
    ]);
    const svg = renderSvg(s, fonts);
    expect(svg).toContain(`href="data:image/png;base64,${Buffer.from(png).toString('base64')}"`);
    expect(svg).toContain('preserveAspectRatio="none"');
    expect(svg).toContain(
      '<path d="M0 0h10v10h-10z" fill="#ff0000" fill-opacity="0.501961" fill-rule="evenodd"/>',
    );
    expect(svg).toContain(
      '<g transform="matrix(0.707107 0.707107 -0.707107 0.707107 100 20)" opacity="0.5">',
    );
    expect(svg).toContain(
      'fill="none" stroke="#0000ff" stroke-width="1.5" stroke-linecap="round" stroke-dasharray="4 2"',
    );
    // The image is really drawn (a grey ramp, not the white background).
    const img = rasterise(svg);
    const at = (x: number, y: number): number => img.pixels[(y * img.width + x) * 4] ?? 0;
    expect(at(12, 30)).toBeLessThan(100);
    expect(at(88, 30)).toBeGreaterThan(200);
  });

  it('renders the human-readable text of a barcode', () => {
    const b = { ...code128('X1', 0, 0, 2, 40), text: textNode('X1', { x: 20, baseline: 60, size: 14 }) };
    const svg = renderSvg(scene('px', 96, 120, 70, [b]), fonts);
    expect(svg).toContain('aria-label="X1"');
  });
});
