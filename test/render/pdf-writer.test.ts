/**
 * The direct PDF writer (src/render/pdf/writer), checked with the tools a user has: poppler's pdfinfo,
 * pdffonts, pdftotext, pdfimages and pdftoppm, and zbarimg on the rasterised pages. Its pages are compared
 * with the pdfkit writer's pages of the same scenes, pixel by pixel.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { scenesFor } from '../../src/outputs/render';
import type { Scene } from '../../src/layout/scene';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { renderPdfDirect } from '../../src/render/pdf/writer';
import { renderPdf, type RenderPdfOptions } from '../../src/render/pdf';
import { pngChunk } from '../../src/node/resvg/png-dpi';
import { resolve } from '../../src/resolve/resolve';
import { SAMPLE_DATA, bundledTemplate } from '../support/templates';
import { zbarDecode } from '../support/zbar';
import {
  code128,
  encodePng,
  fonts,
  greyRampPng,
  imageNode,
  scene,
  shippingLabel,
  tempDir,
  textNode,
} from './fixtures';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
async function pdfFile(scenes: Scene[], opts: RenderPdfOptions = {}): Promise<string> {
  const file = join(dir, `out-${n++}.pdf`);
  writeFileSync(file, await renderPdf(scenes, fonts, opts));
  return file;
}

const run = (cmd: string, ...args: string[]): string => execFileSync(cmd, args, { encoding: 'utf8' });

interface Grey {
  path: string;
  width: number;
  height: number;
  grey: Uint8Array;
}

/** pdftoppm -gray → 8-bit grey pixels (page 1). */
function rasterPdf(file: string, dpi: number): Grey {
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

/** Pixels whose grey differs by more than half the range. */
function differing(a: Grey, b: Grey): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let count = 0;
  for (let i = 0; i < a.grey.length; i++) if (Math.abs((a.grey[i] ?? 0) - (b.grey[i] ?? 0)) > 128) count++;
  return count;
}

/** Rows of a poppler table after its dashed rule, split on whitespace. */
function tableRows(out: string): string[][] {
  const lines = out.split('\n');
  const rule = lines.findIndex((l) => /^-{10,}/.test(l));
  return lines
    .slice(rule + 1)
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s+/));
}

const ports = nodeRenderPorts();
const TEMPLATES = [
  'shipping-4x6',
  'product-2x1',
  'visitor-badge-4x3',
  'packing-slip-a4',
  'element-gallery-4x6',
];
const templateScene = async (name: string): Promise<Scene> => {
  const [s] = await scenesFor(
    resolve(bundledTemplate(name), SAMPLE_DATA[name] ?? {}, 1),
    { unit: 'px' },
    ports,
  );
  if (!s) throw new Error(`no scene for ${name}`);
  return s;
};

describe('renderPdf with the direct writer (the default)', () => {
  it('makes a PDF 1.7 page of the scene size in pt with LabelDesk metadata', async () => {
    const file = await pdfFile([shippingLabel()], {
      title: 'Shipping label',
      creationDate: new Date('2024-01-02T03:04:05Z'),
    });
    const info = run('pdfinfo', file);
    expect(info).toMatch(/Page size:\s+288 x 432 pts/);
    expect(info).toMatch(/Pages:\s+1\n/);
    expect(info).toMatch(/PDF version:\s+1\.7/);
    expect(info).toMatch(/Title:\s+Shipping label/);
    expect(info).toMatch(/Producer:\s+LabelDesk/);
    expect(info).toMatch(/Creator:\s+LabelDesk/);
    expect(info).toMatch(/CreationDate:\s+Tue Jan\s+2 03:04:05 2024/);
    // pdfinfo reads the xref table without reconstructing it: no "Syntax Error" on stderr either.
    expect(execFileSync('pdfinfo', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })).toBe(
      info,
    );
  });

  it('sizes a dots scene via its dpi: 812 × 1218 dots at 203 dpi is 4 × 6 in', async () => {
    const file = await pdfFile([scene('dots', 203, 812, 1218, [code128('LABELDESK-42', 50, 300, 3, 200)])]);
    expect(run('pdfinfo', file)).toMatch(/Page size:\s+288 x 432 pts/);
    expect(zbarDecode(rasterPdf(file, 203).path).map((s) => s.value)).toEqual(['LABELDESK-42']);
  });

  it('keeps text as text at the layout position, in embedded subset CID fonts', async () => {
    const file = await pdfFile([shippingLabel()]);
    const text = run('pdftotext', '-layout', file, '-');
    for (const line of ['SHIP TO: Ada Lovelace', '12 Analytical Engine Way', 'ROTATED'])
      expect(text).toContain(line);
    const rows = tableRows(run('pdffonts', file));
    expect(rows.map((r) => r[0]?.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual([
      'DejaVuSans',
      'DejaVuSans-Bold',
    ]);
    for (const row of rows) {
      expect(row.join(' ')).toMatch(/^[A-Z]{6}\+DejaVuSans\S* CID TrueType Identity-H yes yes yes /);
    }
    // "SHIP" starts at x = 24 px = 18 pt and sits on the 60 px (45 pt) baseline.
    const bbox = run('pdftotext', '-bbox', file, '-');
    const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">SHIP<\/word>/.exec(
      bbox,
    );
    expect(word).not.toBeNull();
    expect(Number(word?.[1])).toBeCloseTo(18, 0);
    expect(Number(word?.[2])).toBeLessThan(45);
    expect(Number(word?.[3])).toBeGreaterThan(45);
  });

  it('extracts a right-to-left line stored in visual order in logical order', async () => {
    const s = scene('px', 96, 384, 60, [
      textNode(['Box 12 ', 'שלום עולם'], { x: 10, baseline: 40, size: 24, font: 'DejaVuSans' }),
    ]);
    const text = run('pdftotext', await pdfFile([s]), '-');
    for (const word of ['Box', '12', 'שלום', 'עולם']) expect(text).toContain(word);
  });

  it('draws shapes and barcodes as vectors, no images', async () => {
    const file = await pdfFile([shippingLabel()]);
    expect(tableRows(run('pdfimages', '-list', file))).toEqual([]);
  });

  it.each([203, 300])('draws the page as pdfkit does, and its barcode decodes, at %i dpi', async (dpi) => {
    const direct = rasterPdf(await pdfFile([shippingLabel()]), dpi);
    const kit = rasterPdf(await pdfFile([shippingLabel()], { writer: 'pdfkit' }), dpi);
    expect(differing(direct, kit)).toBeLessThan(20);
    expect(zbarDecode(direct.path).map((s) => s.value)).toEqual(['LABELDESK-42']);
  });

  it('embeds a shared image once for a whole batch, with its alpha as an SMask', async () => {
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
    const rows = tableRows(run('pdfimages', '-list', file));
    expect(new Set(rows.filter((r) => r[2] === 'image').map((r) => r[10])).size).toBe(1);
    expect(rows.filter((r) => r[2] === 'smask').map((r) => [r[3], r[4]])[0]).toEqual(['64', '32']);
    const direct = rasterPdf(file, 96);
    const kit = rasterPdf(await pdfFile(copies, { writer: 'pdfkit' }), 96);
    expect(differing(direct, kit)).toBeLessThan(10);
  });

  it('draws translucent fills, dashed round-capped strokes and opacity groups as pdfkit does', async () => {
    const s = scene('px', 96, 200, 200, [
      { kind: 'rect', x: 10, y: 10, width: 120, height: 80, fill: '#00000080' },
      {
        kind: 'group',
        transform: [1, 0, 0, 1, 20, 100],
        opacity: 0.5,
        children: [
          {
            kind: 'path',
            d: 'M0 0 L150 0 Q160 40 150 80 A20 20 0 0 1 0 80 Z',
            stroke: { color: '#000000', width: 4, lineCap: 'round', lineJoin: 'bevel', dash: [12, 6] },
          },
        ],
      },
    ]);
    const direct = rasterPdf(await pdfFile([s]), 96);
    const kit = rasterPdf(await pdfFile([s], { writer: 'pdfkit' }), 96);
    expect(differing(direct, kit)).toBeLessThan(10);
  });

  it('is byte-identical for the same scenes and creation date (golden tests)', async () => {
    const creationDate = new Date('2024-01-02T03:04:05Z');
    const a = await renderPdf([shippingLabel()], fonts, { creationDate });
    const b = await renderPdf([shippingLabel()], fonts, { creationDate });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('shares one font subset between labels of different Latin text (decision: ASCII base + whole blocks, issue #9)', async () => {
    const fontName = (s: Scene): string => {
      const pdf = Buffer.from(renderPdfDirect([s], fonts)).toString('latin1');
      return /\/BaseFont \/([A-Z]{6}\+DejaVuSans-Bold)/.exec(pdf)?.[1] ?? '';
    };
    const a = fontName(
      scene('px', 96, 200, 50, [textNode('Ada Lovelace 1', { x: 5, baseline: 30, size: 16 })]),
    );
    const b = fontName(
      scene('px', 96, 200, 50, [textNode('Grace Hopper 2', { x: 5, baseline: 30, size: 16 })]),
    );
    const c = fontName(scene('px', 96, 200, 50, [textNode('Zoë Ødegård', { x: 5, baseline: 30, size: 16 })]));
    const d = fontName(
      scene('px', 96, 200, 50, [textNode('Renée Müller', { x: 5, baseline: 30, size: 16 })]),
    );
    expect(a).toMatch(/^[A-Z]{6}\+/);
    expect(b).toBe(a);
    // A glyph outside the base brings its Unicode block: another subset, shared by all of Latin-1.
    expect(c).not.toBe(a);
    expect(d).toBe(c);
  });

  it('leaves what it cannot write to pdfkit: a PNG with tRNS transparency', async () => {
    // 2 × 2 8-bit grey, grey level 0 transparent.
    const ihdr = new Uint8Array([0, 0, 0, 2, 0, 0, 0, 2, 8, 0, 0, 0, 0]);
    const rows = new Uint8Array([0, 0, 200, 0, 200, 0]);
    const png = new Uint8Array(
      Buffer.concat([
        encodePng(1, 1, new Uint8Array(4)).subarray(0, 8),
        pngChunk('IHDR', ihdr),
        pngChunk('tRNS', new Uint8Array([0, 0])),
        pngChunk('IDAT', new Uint8Array(deflateSync(rows))),
        pngChunk('IEND', new Uint8Array(0)),
      ]),
    );
    const s = scene('px', 96, 100, 100, [imageNode(png, 0, 0, 10, 10)]);
    expect(() => renderPdfDirect([s], fonts)).toThrow(/PNG with tRNS transparency is not supported/);
    const pdf = Buffer.from(await renderPdf([s], fonts)).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true); // pdfkit's file
  });

  it('refuses an empty batch', async () => {
    await expect(renderPdf([], fonts)).rejects.toThrow(/at least one page/);
  });
});

describe.each(TEMPLATES)('the direct PDF of the bundled template %s', (name) => {
  it('matches the pdfkit page, keeps its text and embeds its fonts; its barcodes decode', async () => {
    const s = await templateScene(name);
    const file = await pdfFile([s], { title: name });
    const kitFile = await pdfFile([s], { title: name, writer: 'pdfkit' });

    const info = run('pdfinfo', file);
    const pageSize = (out: string): string | undefined => /Page size:\s+([\d.]+ x [\d.]+) pts/.exec(out)?.[1];
    expect(pageSize(info)).toBeDefined();
    expect(pageSize(info)).toBe(pageSize(run('pdfinfo', kitFile)));
    expect(info).toMatch(new RegExp(`Title:\\s+${name}\n`));

    const fontsTable = tableRows(run('pdffonts', file));
    expect(fontsTable.length).toBeGreaterThan(0);
    for (const row of fontsTable) expect(row.slice(-5, -2), row.join(' ')).toEqual(['yes', 'yes', 'yes']);
    expect(fontsTable.map((r) => r[0]?.slice(7)).sort()).toEqual(
      tableRows(run('pdffonts', kitFile))
        .map((r) => r[0]?.slice(7))
        .sort(),
    );

    const lines = (f: string): string[] =>
      run('pdftotext', f, '-')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');
    // Same lines as pdfkit's file, except right-to-left ones: pdfkit's invisible logical-order text comes out of
    // pdftotext as "עולםשלום" (words swapped, space lost); ours as written (the test below).
    const ltr = (ls: string[]): string[] => ls.filter((l) => !/[\u0590-\u08ff]/.test(l)).sort();
    expect(ltr(lines(file))).toEqual(ltr(lines(kitFile)));

    const direct = rasterPdf(file, 203);
    const kit = rasterPdf(kitFile, 203);
    expect(differing(direct, kit) / direct.grey.length).toBeLessThan(0.0005);
    const decoded = (path: string): string[] =>
      zbarDecode(path)
        .map((d) => `${d.symbology}:${d.value}`)
        .sort();
    expect(decoded(direct.path)).toEqual(decoded(kit.path));
  });
});

it('reads the Hebrew line of the element gallery in logical order', async () => {
  const text = run('pdftotext', await pdfFile([await templateScene('element-gallery-4x6')]), '-');
  expect(text).toContain('שלום עולם');
});

it('maps a ligature glyph to its letters, so "fi" words extract as typed', async () => {
  const s = scene('px', 96, 300, 50, [textNode('Office certificate', { x: 5, baseline: 30, size: 16 })]);
  expect(s.nodes[0]?.kind === 'text' && s.nodes[0].lines[0]?.glyphs.length).toBeLessThan(18); // ligated
  const file = await pdfFile([s]);
  expect(run('pdftotext', file, '-')).toContain('Office certificate');
  expect(readFileSync(file, 'latin1')).not.toContain('/ActualText');
});
