import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Scene } from '../../src/layout/scene';
import { renderPdf } from '../../src/render/pdf';
import { rasterizeRgba, svgImageToPng } from '../../src/node/resvg';
import { zbarValues } from '../support/zbar';
import { code128, fonts, greyRampPng, imageNode, scene, shippingLabel, tempDir, textNode } from './fixtures';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
async function pdfFile(scenes: Scene[], opts: Parameters<typeof renderPdf>[2] = {}): Promise<string> {
  const file = join(dir, `out-${n++}.pdf`);
  writeFileSync(file, await renderPdf(scenes, fonts, opts));
  return file;
}

const run = (cmd: string, ...args: string[]): string => execFileSync(cmd, args, { encoding: 'utf8' });

/** pdftoppm -gray → 8-bit grey pixels. */
function rasterPdf(
  file: string,
  dpi: number,
): { path: string; width: number; height: number; grey: Uint8Array } {
  const base = join(dir, `page-${n++}-${dpi}`);
  run('pdftoppm', '-r', String(dpi), '-gray', '-singlefile', '-f', '1', '-l', '1', file, base);
  const path = `${base}.pgm`;
  const bytes = readFileSync(path);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 50).toString('latin1'));
  if (!header?.[1] || !header[2]) throw new Error('not a PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { path, width, height, grey: new Uint8Array(bytes.subarray(header[0].length)) };
}

/** Rows of `pdffonts` after its two header lines. */
const fontRows = (file: string): string[] => run('pdffonts', file).trim().split('\n').slice(2);

describe('renderPdf', () => {
  it('makes a 4 × 6 in page (288 × 432 pt) with LabelDesk metadata', async () => {
    const file = await pdfFile([shippingLabel()], { title: 'Shipping label' });
    const info = run('pdfinfo', file);
    expect(info).toMatch(/Page size:\s+288 x 432 pts/);
    expect(info).toMatch(/Pages:\s+1\n/);
    expect(info).toMatch(/Title:\s+Shipping label/);
    expect(info).toMatch(/Producer:\s+LabelDesk/);
  });

  it('converts a dots scene via its dpi: 812 × 1218 dots at 203 dpi is 4 × 6 in', async () => {
    const s = scene('dots', 203, 812, 1218, [code128('LABELDESK-42', 50, 300, 3, 200)]);
    const file = await pdfFile([s]);
    expect(run('pdfinfo', file)).toMatch(/Page size:\s+288 x 432 pts/);
    expect(zbarValues(rasterPdf(file, 203).path)).toEqual(['LABELDESK-42']);
  });

  it('keeps text as text, at the scene position, in embedded subset fonts', async () => {
    const file = await pdfFile([shippingLabel()]);
    const text = run('pdftotext', '-layout', file, '-');
    expect(text).toContain('SHIP TO: Ada Lovelace');
    expect(text).toContain('12 Analytical Engine Way');
    expect(text).toContain('ROTATED');

    const rows = fontRows(file);
    expect(rows.length).toBe(2); // DejaVuSans-Bold and DejaVuSans
    for (const row of rows)
      expect(row).toMatch(/\+DejaVuSans\S*\s+CID TrueType\s+Identity-H\s+yes\s+yes\s+yes/);

    // "SHIP" starts at x = 24 px = 18 pt and sits on the 60 px (45 pt) baseline.
    const bbox = run('pdftotext', '-bbox', file, '-');
    const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">SHIP<\/word>/.exec(
      bbox,
    );
    expect(word).not.toBeNull();
    const [xMin, yMin, yMax] = [Number(word?.[1]), Number(word?.[2]), Number(word?.[3])];
    expect(xMin).toBeCloseTo(18, 0);
    expect(yMin).toBeLessThan(45);
    expect(yMax).toBeGreaterThan(45);
  });

  it('draws shapes and barcodes as vectors: no image in a label without image nodes', async () => {
    const file = await pdfFile([shippingLabel()]);
    const images = run('pdfimages', '-list', file).trim().split('\n').slice(2);
    expect(images).toEqual([]);
  });

  it.each([203, 300, 600])('prints a barcode that zbarimg decodes at %i dpi', async (dpi) => {
    const file = await pdfFile([shippingLabel()]);
    expect(zbarValues(rasterPdf(file, dpi).path)).toEqual(['LABELDESK-42']);
  });

  it('looks like the SVG rendering of the same scene', async () => {
    const s = shippingLabel();
    const pdf = rasterPdf(await pdfFile([s]), 96);
    const svg = rasterizeRgba(s, fonts);
    expect([pdf.width, pdf.height]).toEqual([svg.width, svg.height]);
    let differ = 0;
    for (let i = 0; i < pdf.grey.length; i++) {
      if (Math.abs((pdf.grey[i] ?? 0) - (svg.rgba[i * 4] ?? 0)) > 128) differ++;
    }
    // Anti-aliasing differs at edges only; misplaced text or shapes would differ in thousands of pixels.
    expect(differ / pdf.grey.length).toBeLessThan(0.005);
  });

  it('draws a line pdfkit would shape differently (mixed direction) as the layout placed it, still as text', async () => {
    // Visual order from bidi: "Box 12 " then the Hebrew run, whose two words a word-by-word shaper would swap.
    const s = scene('px', 96, 384, 60, [
      textNode(['Box 12 ', 'שלום עולם'], { x: 10, baseline: 40, size: 24, font: 'DejaVuSans' }),
    ]);
    const file = await pdfFile([s]);
    const text = run('pdftotext', file, '-');
    for (const word of ['Box', '12', 'שלום', 'עולם']) expect(text).toContain(word);
    const pdf = rasterPdf(file, 96);
    const svg = rasterizeRgba(s, fonts);
    let differ = 0;
    for (let i = 0; i < pdf.grey.length; i++) {
      if (Math.abs((pdf.grey[i] ?? 0) - (svg.rgba[i * 4] ?? 0)) > 128) differ++;
    }
    expect(differ).toBeLessThan(40);
  });

  it('puts a batch on one page per scene and embeds a shared image once', async () => {
    const logo = greyRampPng();
    const copies = [1, 2, 3].map((i) =>
      scene('px', 96, 384, 192, [
        imageNode(logo, 10, 10, 100, 50),
        textNode(`Copy ${i} of 3`, { x: 10, baseline: 120, size: 20 }),
      ]),
    );
    const file = await pdfFile(copies);
    expect(run('pdfinfo', file)).toMatch(/Pages:\s+3\n/);
    expect(run('pdftotext', '-f', '2', '-l', '2', file, '-')).toContain('Copy 2 of 3');
    const images = run('pdfimages', '-list', file).trim().split('\n').slice(2);
    const objects = new Set(images.filter((l) => /\bimage\b/.test(l)).map((l) => l.trim().split(/\s+/)[10]));
    expect(objects.size).toBe(1);
  });

  it('is byte-identical for the same scenes and creation date (golden tests)', async () => {
    const creationDate = new Date('2024-01-02T03:04:05Z');
    const a = await renderPdf([shippingLabel()], fonts, { creationDate });
    const b = await renderPdf([shippingLabel()], fonts, { creationDate });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('rejects SVG images unless given a rasteriser, then embeds them as PNG', async () => {
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="5"/></svg>',
    );
    const s = scene('px', 96, 200, 100, [{ ...imageNode(svg, 0, 0, 96, 48), mime: 'image/svg+xml' }]);
    await expect(renderPdf([s], fonts)).rejects.toThrow(/SVG image.*rasterizeSvg/);
    const file = await pdfFile([s], { rasterizeSvg: svgImageToPng });
    // 1 in × 0.5 in at the default 300 dpi.
    expect(run('pdfimages', '-list', file)).toMatch(/\s1\s+0 image\s+300\s+150\s/);
  });

  it('refuses an empty batch', async () => {
    await expect(renderPdf([], fonts)).rejects.toThrow(/at least one page/);
  });
});
